#!/bin/sh
# tests/source/lua_check.sh: every Lua file of the tree passes luacheck
# (Debian's lua-check) with the repository's .luacheckrc: Lua 5.4, lines of
# at most 120 characters, no unused variables or values, no undefined
# globals (busted's in the specs). One test per file, which fails naming
# the file and luacheck's findings. Last, a made-up file with a line of 130
# characters and an unused variable must be reported for both (so the check
# can fail). Prints "N passed, N failed".
# Usage: sh tests/source/lua_check.sh
set -u
cd "$(dirname "$0")/../.." || exit 2
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! command -v luacheck >/dev/null 2>&1; then
    echo "not ok luacheck is installed (Debian's lua-check: make deps)"
    echo "0 passed, 1 failed"
    exit 1
fi

# the files luacheck reads with the repository's configuration (its
# exclude_files left out), one line each
luacheck --formatter plain --codes --no-color . >"$tmp/all" 2>&1
checked=$(luacheck --formatter TAP --no-color . 2>/dev/null | sed -n 's/^\(not \)\{0,1\}ok [0-9]* \(.*\)$/\2/p' |
    sed 's/:.*//' | sort -u)
for f in $checked; do
    if grep -q "^$f:" "$tmp/all"; then
        fail=$((fail + 1))
        echo "not ok $f:"
        grep "^$f:" "$tmp/all" | head -n 10 | sed 's/^/    /'
    else
        pass=$((pass + 1))
        echo "ok $f"
    fi
done
# a file the check must not pass
mkdir "$tmp/made"
cp .luacheckrc "$tmp/made/"
{
    echo 'local unused = 1'
    printf 'return "%s"\n' "$(printf 'x%.0s' $(seq 1 130))"
} >"$tmp/made/bad.lua"
(cd "$tmp/made" && luacheck --formatter plain --codes --no-color bad.lua) >"$tmp/made.out" 2>&1
if grep -q "(W211) unused variable 'unused'" "$tmp/made.out" && grep -q "(W631) line is too long" "$tmp/made.out"; then
    pass=$((pass + 1))
    echo "ok a made-up file: its unused variable and its long line are reported"
else
    fail=$((fail + 1))
    echo "not ok a made-up file: its unused variable and its long line are reported:"
    sed 's/^/    /' "$tmp/made.out"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
