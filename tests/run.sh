#!/bin/sh
# tests/run.sh: runs every test suite, first on the release build, then on
# the AddressSanitizer + UndefinedBehaviorSanitizer build, and ends with the
# one line "N passed, N failed" (exit status 1 if anything failed).
# Each suite prints its own last line "N passed, N failed"; this sums them.
# Usage: sh tests/run.sh        (make test builds what it needs first)
set -u
cd "$(dirname "$0")/.." || exit 2
pass=0
fail=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# run_suite LABEL COMMAND...: run, show failures, add its counts
run_suite() {
    label=$1
    shift
    "$@" >"$log" 2>&1
    rc=$?
    last=$(tail -n 1 "$log")
    p=$(printf '%s\n' "$last" | sed -n 's/^\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed$/\1/p')
    f=$(printf '%s\n' "$last" | sed -n 's/^\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed$/\2/p')
    if [ -z "$p" ]; then
        # the suite died before its summary: count it as one failure
        p=0
        f=1
        echo "== $label: no summary line (exit $rc); its output:"
        tail -n 30 "$log"
    elif [ "$f" -ne 0 ] || [ "$rc" -ne 0 ]; then
        grep -v '^ok ' "$log" | head -n 60
        [ "$f" -eq 0 ] && f=1
    fi
    printf '%-28s %s passed, %s failed\n' "$label" "$p" "$f"
    pass=$((pass + p))
    fail=$((fail + f))
}

for flavour in release asan; do
    dir=build
    [ "$flavour" = asan ] && dir=build/asan
    run_suite "[$flavour] engine (C)" "$dir/test_engine"
    run_suite "[$flavour] cli (golden)" sh tests/cli/run.sh "$dir/marubatsu"
    run_suite "[$flavour] repl (golden)" sh tests/repl/run.sh "$dir/marubatsu"
    run_suite "[$flavour] tournament (cli)" sh tests/tournament/run.sh "$dir/marubatsu"
    run_suite "[$flavour] tournament --out" sh tests/tournament/out.sh "$dir/marubatsu"
    run_suite "[$flavour] tune (cli)" sh tests/tune/run.sh "$dir/marubatsu"
    run_suite "[$flavour] serve (http api)" sh tests/web/run.sh api "$dir/marubatsu"
    run_suite "[$flavour] brain (gomocup)" sh tests/brain/run.sh "$dir/marubatsu"
    run_suite "[$flavour] brain fields" sh tests/brain/fields.sh "$dir/marubatsu"
    run_suite "[$flavour] time controls" sh tests/timecontrol/run.sh "$dir/marubatsu"
    run_suite "[$flavour] hostile loops (cli)" sh tests/hostile/run.sh "$dir/marubatsu"
    if [ "$flavour" = release ]; then
        run_suite "[release] lua (busted, .so)" sh tests/lua/run.sh so
    else
        run_suite "[asan] lua (busted, embedded)" sh tests/lua/run.sh "$dir/marubatsu"
    fi
done

run_suite "[source] include circles" lua5.4 tests/source/include_cycles.lua
run_suite "[source] doc references" lua5.4 tests/source/refs.lua
run_suite "[source] C formatting" sh tests/source/format.sh
run_suite "[source] Lua lint" sh tests/source/lua_check.sh
run_suite "[source] JS line length" sh tests/source/js_lines.sh
run_suite "[source] mutants apply" sh tests/mutants/check.sh
run_suite "[release] command table" sh tests/cli/commands.sh build/marubatsu
run_suite "[release] docs examples" lua5.4 tests/docs/doctest.lua build/marubatsu
run_suite "[release] repl (tmux)" sh tests/tmux/repl.sh build/marubatsu
run_suite "[release] Ctrl-C (tmux)" sh tests/tmux/interrupt.sh build/marubatsu
run_suite "[release] memory caps" sh tests/memory/caps.sh build/marubatsu
run_suite "[release] play (tmux)" sh tests/tmux/play.sh build/marubatsu
run_suite "[release] progress (tmux)" sh tests/tmux/progress.sh build/marubatsu
run_suite "[release] install" sh tests/install/check.sh
run_suite "[release] serve (chromium)" sh tests/web/run.sh browser build/marubatsu
run_suite "[release] jupyter kernel" sh tests/jupyter/run.sh build/marubatsu
run_suite "[asan] jupyter kernel" sh tests/jupyter/run.sh build/asan/marubatsu kernel
run_suite "[fuzz] parsers (libFuzzer)" sh tests/fuzz/run.sh build/fuzz/fuzz_parsers

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
