#!/usr/bin/perl
# gmon-sites.pl EXE GMON -- the call arcs glibc's mcount recorded in GMON
# (a gmon.out of EXE, built with -pg -gdwarf-4), per call site, for gprof.sh.
#
# What gmon.out can say about call sites: glibc's mcount keeps one arc per
# (bucket of the return address, callee), a bucket being 16 bytes of code
# (HASHFRACTION 2 x an 8-byte index) counted from the profiled range's low
# pc, and writes the bucket's first address as the arc's from_pc.  So call
# sites whose return addresses share a bucket are merged, and from_pc is
# not a return address.  This script undoes what it can: for every arc it
# finds the call instructions of EXE (objdump -d) whose return address is
# in the arc's bucket and that can reach the callee (a direct call to it,
# or an indirect call), and maps each to its caller and source line
# (addr2line).  Lines that some arc merges are put in one group (union-find
# over (caller, callee, line)), and each group's counts are summed.
#
# Prints one line per group:  CALLER CALLEE LINES COUNT INDIRECT
#   LINES     FILE:LINE[,FILE:LINE...], basenames, sorted
#   INDIRECT  1 if an indirect call instruction is among the group's sites
# Exits 1 with a message on anything it cannot read or explain (an arc
# whose bucket holds no call that can reach its callee).
#
# Format of gmon.out (GNU gprof's gmon_out.h): "gmon", a 4-byte version,
# 12 spare bytes; then records, each a tag byte: 0 histogram (low_pc,
# high_pc, a 4-byte count of 2-byte bins, a 4-byte rate, 16 bytes of
# dimension), 1 call-graph arc (from_pc, self_pc, 4-byte count), 2 basic
# blocks (a 4-byte count of (address, count) pairs).  x86-64: 8-byte
# addresses, little-endian.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
use strict;
use warnings;

my ($exe, $gmon) = @ARGV;
die "usage: gmon-sites.pl EXE GMON\n" unless defined $gmon;
my $BUCKET = 16;

open(my $g, '<:raw', $gmon) or die "$gmon: $!\n";
my $d = do { local $/; <$g> };
close $g;
die "$gmon: not a gmon.out file\n" unless length($d) >= 20 && substr($d, 0, 4) eq 'gmon';
my ($lowpc, @arcs);
my $p = 20;
while ($p < length $d) {
	my $t = ord(substr($d, $p, 1));
	$p++;
	if ($t == 0) {
		my ($lo, $hi, $n) = unpack('Q<Q<L<', substr($d, $p, 20));
		$lowpc = $lo unless defined $lowpc;
		$p += 40 + 2 * $n;
	} elsif ($t == 1) {
		die "$gmon: truncated arc record\n" if $p + 20 > length $d;
		push @arcs, [unpack('Q<Q<L<', substr($d, $p, 20))];
		$p += 20;
	} elsif ($t == 2) {
		my $n = unpack('L<', substr($d, $p, 4));
		$p += 4 + 16 * $n;
	} else {
		die "$gmon: unknown record tag $t at byte " . ($p - 1) . "\n";
	}
}
exit 0 unless @arcs;
die "$gmon: arcs but no histogram record (no low pc)\n" unless defined $lowpc;

# Functions, by address (nm -n: text symbols in address order).
my @syms;
open(my $nm, '-|', 'nm', '-n', $exe) or die "nm: $!\n";
while (<$nm>) {
	push @syms, [hex($1), $2] if /^([0-9a-f]+) [tTwW] (\S+)$/;
}
close $nm;
sub func_of {
	my ($a) = @_;
	my $f;
	for my $s (@syms) {
		last if $s->[0] > $a;
		$f = $s->[1];
	}
	return $f;
}

# Call instructions: address, return address (the next instruction's),
# direct target symbol or undef (indirect).
my (@calls, $pending);
open(my $od, '-|', 'objdump', '-d', '--no-show-raw-insn', $exe) or die "objdump: $!\n";
while (<$od>) {
	next unless /^\s+([0-9a-f]+):\s+(\S+)\s*(.*)$/;
	my ($a, $op, $args) = (hex($1), $2, $3);
	if ($pending) {
		$pending->[1] = $a;
		push @calls, $pending;
		undef $pending;
	}
	next unless $op =~ /^call/;
	my $target;
	$target = $1 if $args =~ /^[0-9a-f]+ <([^>@+]+)>/;
	# -pg's own calls (direct, or through the GOT: "call *...(%rip) # <mcount@...>")
	next if $args =~ /<(mcount|_mcount|__fentry__)[@>]/;
	$pending = [$a, undef, $target, $args =~ /^\*/ ? 1 : 0];
}
close $od;

# Each arc's candidate sites.
my (%parent, %ind, @addrs, %seen);
sub find { my $x = shift; $x = $parent{$x} while $parent{$x} ne $x; return $x; }
my @arcsites;
for my $arc (@arcs) {
	my ($from, $self, $n) = @$arc;
	die sprintf("%s: arc from 0x%x is not at a %d-byte bucket from low pc 0x%x\n",
		    $gmon, $from, $BUCKET, $lowpc) if ($from - $lowpc) % $BUCKET;
	my $callee = func_of($self);
	die sprintf("%s: arc to 0x%x: no function there\n", $gmon, $self) unless defined $callee;
	my @c = grep { $_->[1] >= $from && $_->[1] < $from + $BUCKET &&
		       ($_->[3] || (defined $_->[2] && $_->[2] eq $callee)) } @calls;
	die sprintf("%s: arc from bucket 0x%x to %s (%d calls): no call instruction there can reach it\n",
		    $gmon, $from, $callee, $n) unless @c;
	for (@c) {
		push @addrs, $_->[0] unless $seen{$_->[0]}++;
	}
	push @arcsites, [$callee, $n, \@c];
}

# Caller and line of every candidate call (one addr2line run).
my %where;
{
	my @hex = map { sprintf('%x', $_) } @addrs;
	open(my $a2l, '-|', 'addr2line', '-f', '-e', $exe, @hex) or die "addr2line: $!\n";
	for my $a (@addrs) {
		my $fn = <$a2l>;
		my $fl = <$a2l>;
		die "addr2line: short output\n" unless defined $fl;
		chomp($fn, $fl);
		$fl =~ s/ \(discriminator \d+\)$//;
		$fl =~ s{^.*/}{};
		# the symbol, as gprof names functions (rec.0, not DWARF's rec)
		$where{$a} = [func_of($a) // $fn, $fl];
	}
	close $a2l;
}

for my $as (@arcsites) {
	my ($callee, $n, $c) = @$as;
	my @keys;
	for (@$c) {
		my ($fn, $fl) = @{$where{$_->[0]}};
		my $k = "$fn $callee $fl";
		$parent{$k} = $k unless exists $parent{$k};
		$ind{$k} ||= $_->[3];
		push @keys, $k;
	}
	my $r = find($keys[0]);
	for (@keys[1 .. $#keys]) {
		my $q = find($_);
		$parent{$q} = $r unless $q eq $r;
	}
	push @{$as}, $r;
}
my (%sum, %members);
for my $as (@arcsites) {
	$sum{find($as->[3])} += $as->[1];
}
for my $k (keys %parent) {
	push @{$members{find($k)}}, $k;
}
for my $r (sort keys %members) {
	my @m = @{$members{$r}};
	my ($fn, $callee) = split / /, $m[0];
	my @lines = sort map { (split / /, $_)[2] } @m;
	my $indirect = grep { $ind{$_} } @m;
	printf "%s %s %s %d %d\n", $fn, $callee, join(',', @lines), $sum{$r} // 0,
	       $indirect ? 1 : 0;
}
