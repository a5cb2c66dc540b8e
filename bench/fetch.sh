# bench/fetch.sh -- fetches the benchmark's third-party sources into the
# cache directory $cache (sourced by run.sh and oracle.sh; never committed).
#
# fetch_sqlite: sqlite3.c and sqlite3.h from the npm package better-sqlite3
#   (npm pack); sets sqdir and sqver.
# fetch_zlib: zlib's sources from Debian's binutils-source package, which
#   ships the binutils tarball (with its zlib/ directory) under
#   /usr/src/binutils/.  The package is not installed: `apt-get download`
#   fetches the .deb (24 MB) into the cache, without root and without the
#   package's dependencies (texinfo, python3, ...), and only zlib/ is
#   unpacked.  bootstrap does not install it: the bench is not part of
#   make check and CI should not pay for it.  Sets zdir, zver and
#   zsrcver.
# Both return 1 after a message if they cannot.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.

fetch_sqlite() {
	sqdir=$cache/package/deps/sqlite3
	if [ ! -r "$sqdir/sqlite3.c" ] || [ ! -r "$sqdir/sqlite3.h" ]; then
		command -v npm >/dev/null ||
			{ echo "fetch: npm is needed to fetch sqlite3.c (npm pack better-sqlite3)" >&2; return 1; }
		mkdir -p "$cache" || return 1
		echo "fetching sqlite3.c: npm pack better-sqlite3 (into $cache)"
		local tgz
		tgz=$(cd "$cache" && npm pack better-sqlite3 2>/dev/null | tail -n 1)
		[ -n "$tgz" ] && [ -r "$cache/$tgz" ] ||
			{ echo "fetch: npm pack better-sqlite3 failed" >&2; return 1; }
		(cd "$cache" && tar xzf "$tgz" package/deps/sqlite3/sqlite3.c \
			package/deps/sqlite3/sqlite3.h) || { echo "fetch: cannot unpack $cache/$tgz" >&2; return 1; }
	fi
	sqver=$(sed -n 's/^#define SQLITE_VERSION  *"\(.*\)"/\1/p' "$sqdir/sqlite3.h")
}

fetch_zlib() {
	local deb tarball
	zdir=$cache/binutils-zlib/zlib
	if [ ! -r "$zdir/zlib.h" ] || [ ! -r "$cache/binutils-zlib/VERSION" ]; then
		command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
			{ echo "fetch: apt-get and dpkg-deb are needed to fetch zlib (binutils-source)" >&2; return 1; }
		mkdir -p "$cache/binutils-zlib" || return 1
		echo "fetching zlib: apt-get download binutils-source (into $cache)"
		rm -f "$cache"/binutils-source_*.deb
		(cd "$cache" && apt-get download binutils-source) >"$cache/apt.log" 2>&1
		deb=$(ls "$cache"/binutils-source_*.deb 2>/dev/null | head -n 1)
		if [ -z "$deb" ]; then
			cat "$cache/apt.log" >&2
			echo "fetch: apt-get download binutils-source failed (as root, 'apt-get update' first)" >&2
			return 1
		fi
		tarball=$(dpkg-deb -c "$deb" | sed -n 's|.* \./\(usr/src/binutils/binutils-.*\.tar\.[a-z]*\)$|\1|p' | head -n 1)
		[ -n "$tarball" ] || { echo "fetch: no binutils tarball in $deb" >&2; return 1; }
		rm -rf "$cache/binutils-zlib.tmp" && mkdir -p "$cache/binutils-zlib.tmp" || return 1
		dpkg-deb --fsys-tarfile "$deb" | (cd "$cache/binutils-zlib.tmp" && tar xf - "./$tarball") &&
		(cd "$cache/binutils-zlib.tmp" && tar xf "$tarball" --wildcards '*/zlib/*') ||
			{ echo "fetch: cannot unpack zlib from $deb" >&2; return 1; }
		rm -rf "$zdir"
		mv "$cache"/binutils-zlib.tmp/binutils-*/zlib "$zdir" || return 1
		dpkg-deb -f "$deb" Version >"$cache/binutils-zlib/VERSION"
		rm -rf "$cache/binutils-zlib.tmp" "$deb"
	fi
	zsrcver=$(cat "$cache/binutils-zlib/VERSION")
	zver=$(sed -n 's/^#define ZLIB_VERSION "\(.*\)"/\1/p' "$zdir/zlib.h")
}
