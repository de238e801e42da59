#!/bin/sh
# tests/source/format.sh: every C file under src/, include/ and tests/ is
# already in the shape .clang-format gives it (clang-format 14, Debian's
# clang-format package): one test per file, which fails naming the file and
# the first lines that would change. `make format` rewrites them. Last, the
# check is run on a made-up, badly formatted file, which it must reject (so
# the check can fail). Prints "N passed, N failed".
# Usage: sh tests/source/format.sh [clang-format]
set -u
cd "$(dirname "$0")/../.." || exit 2
fmt=${1:-clang-format}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check FILE: ok when clang-format would leave FILE as it is
check() {
    "$fmt" --style=file --assume-filename="$1" <"$1" >"$tmp/out" 2>"$tmp/err" || return 1
    cmp -s "$1" "$tmp/out"
}

for f in $(git ls-files 'src/*.[ch]' 'include/*.h' 'tests/*.[ch]' 2>/dev/null ||
           find src include tests -name '*.[ch]'); do
    if check "$f"; then
        pass=$((pass + 1))
        echo "ok $f"
    else
        fail=$((fail + 1))
        echo "not ok $f: not formatted (make format); the first differences:"
        diff "$f" "$tmp/out" | head -n 8
    fi
done

# the check must reject a file that is not formatted
printf 'int  main( void ){return 0 ;}\n' >"$tmp/bad.c"
cp .clang-format "$tmp/.clang-format"
if check "$tmp/bad.c"; then
    fail=$((fail + 1))
    echo "not ok the check accepted a badly formatted file"
else
    pass=$((pass + 1))
    echo "ok the check rejects a badly formatted file"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
