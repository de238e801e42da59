#!/bin/sh
# tests/source/js_lines.sh: the JavaScript of the browser front end and of
# its tests (web/*.js, tests/web/*.mjs) keeps to lines of at most 120
# characters, as the Lua does (.luacheckrc) and the C nearly does (100,
# .clang-format): one test per file, which fails naming each long line.
# Last, a made-up file with a line of 121 characters must be reported (so
# the check can fail). Prints "N passed, N failed".
# Usage: sh tests/source/js_lines.sh
set -u
cd "$(dirname "$0")/../.." || exit 2
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# long FILE: its lines over 120 characters (UTF-8 characters, not bytes)
long() {
    LC_ALL=C.UTF-8 awk 'length($0) > 120 { printf "    %s:%d: %d characters\n", FILENAME, FNR, length($0) }' "$1"
}
for f in web/*.js tests/web/*.mjs; do
    long "$f" >"$tmp/long"
    if [ -s "$tmp/long" ]; then
        fail=$((fail + 1))
        echo "not ok $f: lines over 120 characters:"
        cat "$tmp/long"
    else
        pass=$((pass + 1))
        echo "ok $f"
    fi
done
printf 'const x = "%s";\n' "$(printf 'y%.0s' $(seq 1 108))" >"$tmp/made.js"
if [ -n "$(long "$tmp/made.js")" ]; then
    pass=$((pass + 1))
    echo "ok a made-up line of 121 characters is reported"
else
    fail=$((fail + 1))
    echo "not ok a made-up line of 121 characters is reported"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
