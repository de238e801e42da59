#!/bin/sh
# tests/cli/run.sh: end-to-end golden tests of the program. Each line of
# tests/cli/cases is "NAME STATUS ARGS..."; the program runs with ARGS and
# must exit with STATUS and print exactly tests/cli/golden/NAME.out on stdout
# and NAME.err on stderr (a missing file means nothing), compared with diff -u
# (line numbers inside scripts/lib/ are compared as N; the note a brain
# player prints where namespaces are refused is left out; of match's
# progress lines, written every few seconds, only the last, "match: N/N
# ...", is compared, its times in brackets as [T]).
# Usage: sh tests/cli/run.sh PROGRAM [--update]
#   --update rewrites the golden files from the current output (review the
#   diff before committing it).
set -u
prog=$1
update=${2:-}
here=$(dirname "$0")
tmp=$(mktemp -d)
# the same environment for every run: no user Lua paths or AI directories
export LUA_PATH='/nonexistent/?.lua' LUA_CPATH='/nonexistent/?.so'
unset MARUBATSU_PATH MARUBATSU_SCRIPTS LUA_INIT LUA_INIT_5_4
# and the same locale (play's default language comes from it: en here)
unset LC_ALL LC_MESSAGES
export LANG=C
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
while read -r name status args; do
    case "$name" in ''|'#'*) continue ;; esac
    eval "set -- $args"
    "$prog" "$@" >"$tmp/raw_out" 2>"$tmp/raw_err" </dev/null
    rc=$?
    # line numbers inside the embedded Lua library change with every edit of
    # it: compare them as N, keep everything else exact
    for s in out err; do
        sed -E -e 's#(scripts/lib/[a-z_]+\.lua):[0-9]+#\1:N#g' \
            -e '/^marubatsu: note: brains run without namespaces/d' \
            -e 's#^(match: ([0-9]+)/\2 iterations .*) \[[^]]*\]$#\1 [T]#' \
            -e '/^match: [0-9]+\/[0-9]+ iterations /{/ \[T\]$/!d;}' "$tmp/raw_$s" >"$tmp/$s"
    done
    gold="$here/golden/$name"
    if [ "$update" = --update ]; then
        if [ -s "$tmp/out" ]; then cp "$tmp/out" "$gold.out"; else rm -f "$gold.out"; fi
        if [ -s "$tmp/err" ]; then cp "$tmp/err" "$gold.err"; else rm -f "$gold.err"; fi
    fi
    ok=1
    for s in out err; do
        want="$gold.$s"
        [ -f "$want" ] || want=/dev/null
        if ! diff -u "$want" "$tmp/$s" >"$tmp/diff"; then
            ok=0
            echo "FAIL $name: std$s differs"
            cat "$tmp/diff"
        fi
    done
    if [ "$rc" != "$status" ]; then
        ok=0
        echo "FAIL $name: exit status $rc, expected $status"
    fi
    if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done <"$here/cases"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
