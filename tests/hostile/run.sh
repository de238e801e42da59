#!/bin/sh
# tests/hostile/run.sh: the hostile scripts of C loops that ran outside the
# budgets, and of a parameter check that spun before the first game (issue
# 22), run the way the attack run met them: as tournament players against
# ai1 (2 games) under the default budgets, under --move-time 1 and under
# --instructions, and in `match --move-time 1`. Each run must end within
# 30 s (timeout stops a hang, which fails), and the script must lose every
# game by forfeit with its reason: time, instructions or memory (a literal
# pattern too costly to run: the pattern bound's error). Before these
# fixes every run hung but the last (no parameters: it plays normally).
# Usage: sh tests/hostile/run.sh PROGRAM
set -u
prog=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LUA_PATH='/nonexistent/?.lua' LUA_CPATH='/nonexistent/?.so'
unset MARUBATSU_PATH MARUBATSU_SCRIPTS
. "$(dirname "$0")/../checks.sh"
H=tests/hostile
LIMIT=30 # seconds; each run takes about 1 s a game

# tour WANT SPEC FLAGS...: ai1 against SPEC, 2 games; the run ends within
# LIMIT with exit 0, and SPEC loses both games with reason WANT (a grep
# -E pattern of the whole reason)
tour() {
    want=$1
    spec=$2
    shift 2
    rm -rf "$tmp/out"
    t0=$(date +%s)
    timeout $LIMIT "$prog" tournament ai1 "$spec" --games 2 --no-progress --quiet --out "$tmp/out" "$@" \
        >/dev/null 2>"$tmp/err"
    rc=$?
    label="tournament $spec"
    [ $# -gt 0 ] && label="$label $*"
    check "$label: ends within $LIMIT s with exit 0 (exit $rc, $(($(date +%s) - t0)) s)" test $rc -eq 0
    # the loser and the reason of each game (result o: x lost)
    awk -F '\t' '$1 == "G" { print ($9 == "o" ? $7 : $6) "\t" $10 }' "$tmp/out/journal.tsv" >"$tmp/lost" 2>/dev/null
    # its name: the file name without .lua, with the parameters
    name=$(printf '%s' "$spec" | sed -E 's#^.*/##; s#\.lua(:|$)#\1#')
    check "$label: both games lost by $name" test "$(cut -f 1 "$tmp/lost" | grep -cxF "$name")" -eq 2
    check "$label: reasons '$want' (got: $(cut -f 2 "$tmp/lost" | sort -u | tr '\n' '|'))" \
        test "$(cut -f 2 "$tmp/lost" | grep -cxE "$want")" -eq 2
}

# match_time NAME: `match NAME ai1 -n 1 --move-time 1` ends within LIMIT
# with exit 0 and NAME lost both games on time
match_time() {
    rm -f "$tmp/m.out"
    timeout $LIMIT "$prog" match "$H/$1.lua" ai1 -n 1 --move-time 1 >"$tmp/m.out" 2>"$tmp/m.err"
    rc=$?
    check "match $1 --move-time 1: ends within $LIMIT s with exit 0 (exit $rc)" test $rc -eq 0
    check "match $1 --move-time 1: lost both on time" grep -qxF "time control move=1: lost on time: $1 2, ai1 0" "$tmp/m.out"
}

# match_fail NAME TEXT: the match ends within LIMIT with exit 1, NAME
# failing its first move with a line TEXT (a grep -E pattern) on stderr
match_fail() {
    timeout $LIMIT "$prog" match "$H/$1.lua" ai1 -n 1 --move-time 1 >/dev/null 2>"$tmp/m.err"
    rc=$?
    check "match $1 --move-time 1: ends within $LIMIT s with exit 1 (exit $rc)" test $rc -eq 1
    check "match $1 --move-time 1: $1 failed its move" grep -q "^marubatsu match: $1 (o) did not play a legal move" "$tmp/m.err"
    check "match $1 --move-time 1: reason '$2'" grep -qE "$2" "$tmp/m.err"
}

# C loops: table.move over 2^63 elements, table.insert/remove and
# mb.shuffle under a __len of 2^50, a plain string.find of a near-match
for s in move_huge_range insert_huge_len remove_huge_len shuffle_huge_len find_plain_quadratic; do
    tour 'time' "$H/$s.lua"
    tour 'time: no move within 1 s \(move time\)' "$H/$s.lua" --move-time 1
    tour 'instructions' "$H/$s.lua" --instructions 1000000
    match_time $s
done
# string.rep of an empty string maxinteger times (now at once), then one
# past the memory cap
for flags in "" "--move-time 1" "--instructions 1000000"; do
    # shellcheck disable=SC2086
    tour 'memory' "$H/rep_empty.lua" $flags
done
match_fail rep_empty '^memory$'
# a literal pattern of 1 MB matched against 2 MB: refused before it runs
tour "error: .*match: the pattern's worst case .*" "$H/match_literal_quadratic.lua"
tour "error: .*match: the pattern's worst case .*" "$H/match_literal_quadratic.lua" --move-time 1
match_fail match_literal_quadratic "match: the pattern's worst case on a subject of 2000000 bytes"
# the parameter check before the first game, with a spinning __index:
# under the default budgets, a move time (also for a player without a time budget of its
# own), an instruction budget: the pre-flight refuses it before any game,
# and with --allow-forfeits it loses them all
for flags in "" "--move-time 1" "--move-time 1 --time 0 --instructions 0" "--instructions 1000000"; do
    t0=$(date +%s)
    timeout $LIMIT "$prog" tournament ai1 "$H/params_spin.lua:depth=3" --games 2 --no-progress --quiet $flags \
        >/dev/null 2>"$tmp/err"
    rc=$?
    check "params_spin $flags: the pre-flight exits 2 within $LIMIT s (exit $rc, $(($(date +%s) - t0)) s)" test $rc -eq 2
    check "params_spin $flags: the message" grep -qxE "marubatsu tournament: players\[2\] $H/params_spin.lua:depth=3 failed its parameter check: ran out of its (time|instruction) budget" "$tmp/err"
done
tour 'time' "$H/params_spin.lua:depth=3" --allow-forfeits
tour 'time' "$H/params_spin.lua:depth=3" --move-time 1 --allow-forfeits
tour 'time' "$H/params_spin.lua:depth=3" --move-time 1 --time 0 --instructions 0 --allow-forfeits
tour 'instructions' "$H/params_spin.lua:depth=3" --instructions 1000000 --allow-forfeits
# without parameters nothing is looked up: it plays, and the games count
rm -rf "$tmp/out"
timeout $LIMIT "$prog" tournament ai1 "$H/params_spin.lua" --games 2 --no-progress --quiet --out "$tmp/out" \
    >/dev/null 2>&1
check "params_spin without parameters: exit 0" test $? -eq 0
check "params_spin without parameters: no forfeits" \
    test "$(awk -F '\t' '$1 == "G" && $10 != "" { n++ } END { print n + 0 }' "$tmp/out/journal.tsv")" -eq 0

summary
