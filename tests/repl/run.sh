#!/bin/sh
# tests/repl/run.sh: golden REPL sessions. Each NAME.lua here is typed into
# the REPL on stdin (not a terminal: no banner, no prompts); the output must
# equal NAME.out (stdout) and NAME.err (stderr, if present) exactly, and the
# exit status NAME.status (if present, else 0). Compared with diff -u.
# NAME.init, if present, is run as the init file (MARUBATSU_INIT).
# Usage: sh tests/repl/run.sh PROGRAM [--update]
set -u
prog=$1
update=${2:-}
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home" LUA_PATH='/nonexistent/?.lua' LUA_CPATH='/nonexistent/?.so'
mkdir -p "$HOME"
unset MARUBATSU_PATH MARUBATSU_SCRIPTS MARUBATSU_INIT LUA_INIT LUA_INIT_5_4
pass=0
fail=0
for input in "$here"/*.lua; do
    name=${input%.lua}
    base=$(basename "$name")
    # NAME.init, when present, is the init file (MARUBATSU_INIT=@NAME.init);
    # otherwise the REPL runs with -E
    if [ -f "$name.init" ]; then
        MARUBATSU_INIT="@$name.init" "$prog" <"$input" >"$tmp/raw_out" 2>"$tmp/raw_err"
    else
        "$prog" -E <"$input" >"$tmp/raw_out" 2>"$tmp/raw_err"
    fi
    rc=$?
    for s in out err; do
        sed -E 's#(scripts/lib/[a-z_]+\.lua):[0-9]+#\1:N#g' "$tmp/raw_$s" >"$tmp/$s"
    done
    if [ "$update" = --update ]; then
        cp "$tmp/out" "$name.out"
        if [ -s "$tmp/err" ]; then cp "$tmp/err" "$name.err"; else rm -f "$name.err"; fi
        if [ "$rc" != 0 ]; then echo "$rc" >"$name.status"; else rm -f "$name.status"; fi
    fi
    ok=1
    for s in out err; do
        want="$name.$s"
        [ -f "$want" ] || want=/dev/null
        if ! diff -u "$want" "$tmp/$s" >"$tmp/diff"; then
            ok=0
            echo "FAIL $base: std$s differs"
            cat "$tmp/diff"
        fi
    done
    expect=0
    [ -f "$name.status" ] && expect=$(cat "$name.status")
    if [ "$rc" != "$expect" ]; then
        ok=0
        echo "FAIL $base: exit status $rc, expected $expect"
    fi
    if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
