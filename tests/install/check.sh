#!/bin/sh
# tests/install/check.sh: `make install` into a temporary DESTDIR, then use
# the installed copy as a user would: run the program from there, and build
# examples/engine_demo.c against the installed library with pkg-config.
# Prints "N passed, N failed" like every suite.
set -u
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
check() { # NAME COMMAND...: one check
    name=$1
    shift
    if "$@" >"$tmp/log" 2>&1; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $name"
        tail -n 20 "$tmp/log"
    fi
}
prefix=/usr/local
check install make -s install PREFIX=$prefix DESTDIR="$tmp/root"
check program_runs sh -c "'$tmp/root$prefix/bin/marubatsu' show B2 | grep -qx '.O.'"
check headers_installed test -f "$tmp/root$prefix/include/marubatsu/marubatsu.h"
export PKG_CONFIG_PATH="$tmp/root$prefix/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$tmp/root"
check pkg_config pkg-config --exists marubatsu
check demo_builds sh -c "cc -std=c11 -Wall -Werror examples/engine_demo.c \
    \$(pkg-config --cflags marubatsu) \$(pkg-config --libs --static marubatsu) -o '$tmp/demo'"
check demo_runs sh -c "'$tmp/demo' | grep -qx '1000 random games: o 558, x 300, draw 142'"
check uninstall sh -c "make -s uninstall PREFIX=$prefix DESTDIR='$tmp/root' && \
    test ! -e '$tmp/root$prefix/bin/marubatsu'"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
