#!/bin/sh
# vendor.sh SRCDIR OUTDIR -- puts the assets of `ipp html` into OUTDIR: the
# npm packages of SRCDIR/assets.txt (fetched with `npm pack`, checked
# against their pinned sha512 integrity, the listed files and the license
# copied) and ipp's own ipp-report.js and ipp-report.css.
#
# Never fails the build: when npm is missing or the registry cannot be
# reached, OUTDIR/UNAVAILABLE says why (and `ipp html` says so when run);
# a later `make` tries again.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
set -u

src=$1
out=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ipp-vendor.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

unavailable() {
	echo "$*" >"$out/UNAVAILABLE"
	echo "vendor.sh: warning: ipp html's flame graph assets are unavailable: $*" >&2
	exit 0
}

rm -rf "$out"
mkdir -p "$out"
cp "$src/ipp-report.js" "$src/ipp-report.css" "$out/" || exit 1
command -v npm >/dev/null 2>&1 || unavailable "npm was not found when ipp was built"
grep -v '^#' "$src/assets.txt" | while read -r name version integrity files; do
	[ -n "$name" ] || continue
	if ! (cd "$tmp" && npm pack --json --silent "$name@$version" >"$name.json" 2>"$name.err"); then
		unavailable "npm pack $name@$version failed: $(tail -n 1 "$tmp/$name.err")"
	fi
	got=$(sed -n 's/.*"integrity": *"\([^"]*\)".*/\1/p' "$tmp/$name.json" | head -n 1)
	if [ "$got" != "$integrity" ]; then
		unavailable "$name@$version: the registry's tarball has integrity $got, assets.txt pins $integrity"
	fi
	mkdir -p "$tmp/$name"
	tar -xzf "$tmp/$name-$version.tgz" -C "$tmp/$name" ||
		unavailable "$name@$version: cannot unpack the tarball"
	for f in $files LICENSE; do
		base=$(basename "$f")
		[ "$f" = LICENSE ] && base=LICENSE.$name
		cp "$tmp/$name/package/$f" "$out/$base" ||
			unavailable "$name@$version has no $f"
	done
done
[ -f "$out/UNAVAILABLE" ] || echo "vendor.sh: ipp html's assets are in $out"
