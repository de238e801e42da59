#!/bin/sh
# tests/tournament/out.sh: a tournament's --out directory cannot be
# redirected, blocked or raced, and what leaves the program is valid UTF-8
# (issue 22, causes 7 and 9). Checks, each the way the attack was met:
# - symbolic links planted in --out as NAME.tmp (journal.tsv.tmp,
#   results.json.tmp, results.csv.tmp, ranking.svg.tmp, report.html.tmp)
#   and as the result files themselves, pointing outside: the run ends
#   (exit 0), every outside file is unchanged, the results in --out are
#   regular files and no .tmp is left; likewise a --resume that rewrites a
#   journal whose last line was cut short; a FIFO as NAME.tmp or as a
#   result file does not block the run; links as games.sgf(.tmp) and a
#   .psq's .tmp are not followed, games/ as a link is refused;
# - journal.tsv (or journal.lock) as a symbolic link to a journal outside:
#   the tournament (fresh and --resume), merge and replay refuse it with a
#   message, exit 1, and the outside file is unchanged;
# - a FIFO as journal.tsv: the tournament (fresh and --resume), merge and
#   replay stop at once (exit 1, "not a regular file (a FIFO)"), well
#   inside a 60 s timeout; a FIFO or /dev/zero as a game record too;
# - two concurrent --resume runs of one --out: the second is refused
#   (exit 1) naming the first's pid while the first still runs, and so is
#   a merge into it; the first finishes (exit 0) with every game once in
#   its journal, which replay, merge and another --resume read back; a
#   killed run leaves no lock;
# - a player whose error() holds "\xff\xfe bad \xc0\xaf", and one whose
#   file name holds "\xff": results.json parses under a strict UTF-8 JSON
#   parser (node: TextDecoder with fatal, then JSON.parse) with U+FFFD in
#   the reason and the name; journal.tsv, results.csv, report.html, the
#   printed table, replay's output and merge's are valid UTF-8; --resume
#   reads the journal back; a journal edited to hold raw bytes in a reason
#   gives valid results.json, report.html and serve's results data (the
#   report.data of `serve --results`) with U+FFFD.
# Usage: sh tests/tournament/out.sh PROGRAM
set -u
prog=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LUA_PATH='/nonexistent/?.lua' LUA_CPATH='/nonexistent/?.so'
unset MARUBATSU_PATH MARUBATSU_SCRIPTS
. "$(dirname "$0")/../checks.sh"
t() { "$prog" tournament ai1 ai2 ai4 --seed 7 --no-progress --quiet "$@"; }
# utf8 FILE: the file is valid UTF-8 (a strict decoder)
utf8() { node -e 'new TextDecoder("utf-8", {fatal: true}).decode(require("fs").readFileSync(process.argv[1]))' "$1" 2>/dev/null; }
# json_has FILE JS: FILE parses as strict UTF-8 JSON and the JS expression
# (of d, the parsed document) is true
json_has() {
    node -e '
        const d = JSON.parse(new TextDecoder("utf-8", {fatal: true}).decode(require("fs").readFileSync(process.argv[1])));
        if (!('"$2"')) process.exit(1);' "$1" 2>/dev/null
}
# regular DIR: the result files in DIR are regular files (not links) and no .tmp is left
regular() {
    for f in journal.tsv results.json results.csv ranking.svg report.html; do
        [ -f "$1/$f" ] && [ ! -L "$1/$f" ] || return 1
    done
    [ -z "$(ls "$1" | grep '\.tmp$')" ]
}
mkdir "$tmp/outside"
outside() { # the outside files as they were planted
    for f in a b c d e f g h; do printf 'outside %s\n' "$f" >"$tmp/outside/$f"; done
    cp -r "$tmp/outside" "$tmp/outside.orig"
}
untouched() { diff -r "$tmp/outside.orig" "$tmp/outside" >/dev/null; }

# ---- links planted as NAME.tmp and as the result files
outside
mkdir "$tmp/links"
ln -s "$tmp/outside/a" "$tmp/links/journal.tsv.tmp"
ln -s "$tmp/outside/b" "$tmp/links/results.json.tmp"
ln -s "$tmp/outside/c" "$tmp/links/results.csv.tmp"
ln -s "$tmp/outside/d" "$tmp/links/ranking.svg.tmp"
ln -s "$tmp/outside/e" "$tmp/links/report.html.tmp"
ln -s "$tmp/outside/f" "$tmp/links/results.json"
ln -s "$tmp/outside/g" "$tmp/links/report.html"
ln -s "$tmp/outside/h" "$tmp/links/ranking.svg"
t --games 4 --out "$tmp/links" 2>"$tmp/err"
check "links as NAME.tmp and results: exit 0" test $? -eq 0
check "links as NAME.tmp and results: the files outside are unchanged" untouched
check "links as NAME.tmp and results: regular files in --out, no .tmp left" regular "$tmp/links"
check "links as NAME.tmp and results: results.json has the ranking" json_has "$tmp/links/results.json" 'd.ranking.length === 3'
# a journal cut short is rewritten through journal.tsv.tmp by --resume
t --games 4 --out "$tmp/cut"
rm -rf "$tmp/outside" "$tmp/outside.orig"
mkdir "$tmp/outside"
outside
head -c -5 "$tmp/cut/journal.tsv" >"$tmp/cut/j" && mv "$tmp/cut/j" "$tmp/cut/journal.tsv"
ln -s "$tmp/outside/a" "$tmp/cut/journal.tsv.tmp"
ln -sf "$tmp/outside/b" "$tmp/cut/results.csv"
t --games 4 --out "$tmp/cut" --resume 2>"$tmp/err"
check "--resume rewriting a cut journal past a link: exit 0" test $? -eq 0
check "--resume rewriting a cut journal past a link: outside unchanged" untouched
check "--resume rewriting a cut journal past a link: regular files" regular "$tmp/cut"
check "--resume rewriting a cut journal: every game back" test "$(grep -c '^G' "$tmp/cut/journal.tsv")" -eq 12
# FIFOs where the results go: replaced, never opened
mkdir "$tmp/fifos"
mkfifo "$tmp/fifos/results.json.tmp" "$tmp/fifos/report.html" "$tmp/fifos/journal.tsv.tmp"
timeout 60 "$prog" tournament ai1 ai2 ai4 --seed 7 --no-progress --quiet --games 4 --out "$tmp/fifos" 2>"$tmp/err"
check "FIFOs as NAME.tmp and report.html: exit 0 (not blocked)" test $? -eq 0
check "FIFOs as NAME.tmp and report.html: regular files" regular "$tmp/fifos"

# ---- the game records (issue 24): links planted as games.sgf(.tmp) and
# as a .psq's .tmp leave the outside files alone; games/ as a link to a
# directory outside is refused (exit 1), nothing written there
rm -rf "$tmp/outside" "$tmp/outside.orig"
mkdir "$tmp/outside"
outside
mkdir -p "$tmp/rec/games"
ln -s "$tmp/outside/a" "$tmp/rec/games.sgf.tmp"
ln -s "$tmp/outside/b" "$tmp/rec/games.sgf"
ln -s "$tmp/outside/c" "$tmp/rec/games/00001.psq.tmp"
ln -s "$tmp/outside/d" "$tmp/rec/games/00002.psq"
"$prog" tournament ai1 ai2 --width 9 --height 9 --k 5 --seed 7 --no-progress --quiet --games 4 --out "$tmp/rec" \
    2>"$tmp/err"
check "records past links: exit 0" test $? -eq 0
check "records past links: the files outside are unchanged" untouched
check "records past links: games.sgf a regular file" test -f "$tmp/rec/games.sgf" -a ! -L "$tmp/rec/games.sgf"
check "records past links: a .psq per game, regular files" \
    test "$(find "$tmp/rec/games" -name '*.psq' -type f | wc -l)" -eq 4
mkdir "$tmp/recl" "$tmp/outdir"
ln -s "$tmp/outdir" "$tmp/recl/games"
"$prog" tournament ai1 ai2 --width 9 --height 9 --k 5 --seed 7 --no-progress --quiet --games 4 --out "$tmp/recl" \
    2>"$tmp/err"
check "games/ as a link: exit 1" test $? -eq 1
check "games/ as a link: the message" grep -q "recl/games: a symbolic link" "$tmp/err"
check "games/ as a link: nothing written outside" test -z "$(ls "$tmp/outdir")"

# ---- journal.tsv or journal.lock as a link to a journal outside
t --games 4 --out "$tmp/real"
cp "$tmp/real/journal.tsv" "$tmp/outside/journal.tsv"
cp "$tmp/outside/journal.tsv" "$tmp/journal.orig"
mkdir "$tmp/jlink"
ln -s "$tmp/outside/journal.tsv" "$tmp/jlink/journal.tsv"
for resume in "" --resume; do
    t --games 4 --out "$tmp/jlink" $resume 2>"$tmp/err"
    check "journal.tsv a link ($resume): exit 1" test $? -eq 1
    check "journal.tsv a link ($resume): message" \
        grep -q "jlink/journal.tsv: a symbolic link, not a regular file (refused" "$tmp/err"
done
"$prog" merge "$tmp/jlink" --quiet 2>"$tmp/err"
check "merge of a linked journal: exit 1" test $? -eq 1
check "merge of a linked journal: message" grep -q "jlink/journal.tsv: a symbolic link" "$tmp/err"
"$prog" replay "$tmp/jlink/journal.tsv" 1 >/dev/null 2>"$tmp/err"
check "replay of a linked journal: exit 1" test $? -eq 1
check "replay of a linked journal: message" grep -q "jlink/journal.tsv: a symbolic link" "$tmp/err"
check "journal.tsv a link: the journal outside is unchanged" cmp -s "$tmp/outside/journal.tsv" "$tmp/journal.orig"
mkdir "$tmp/locklink"
printf 'not a lock\n' >"$tmp/outside/lock"
ln -s "$tmp/outside/lock" "$tmp/locklink/journal.lock"
t --games 4 --out "$tmp/locklink" 2>"$tmp/err"
check "journal.lock a link: exit 1" test $? -eq 1
check "journal.lock a link: message" grep -q "cannot lock .*locklink/journal.lock: a symbolic link" "$tmp/err"
check "journal.lock a link: the file outside is unchanged" test "$(cat "$tmp/outside/lock")" = "not a lock"

# ---- a FIFO as journal.tsv: no hang
mkdir "$tmp/fifo"
mkfifo "$tmp/fifo/journal.tsv"
# took SECONDS: under 20 s (the timeout is 60 s; a hang hits it)
quick() { test "$1" -lt 20; }
for resume in "" --resume; do
    s0=$(date +%s)
    timeout 60 "$prog" tournament ai1 ai2 --games 2 --no-progress --quiet --out "$tmp/fifo" $resume 2>"$tmp/err"
    rc=$?
    took=$(($(date +%s) - s0))
    check "FIFO journal ($resume): exit 1, not the timeout" test $rc -eq 1
    check "FIFO journal ($resume): stopped at once (${took} s)" quick $took
    check "FIFO journal ($resume): message" grep -q "fifo/journal.tsv: not a regular file (a FIFO)" "$tmp/err"
done
timeout 60 "$prog" merge "$tmp/fifo" --quiet 2>"$tmp/err"
check "merge of a FIFO journal: exit 1" test $? -eq 1
check "merge of a FIFO journal: message" grep -q "fifo/journal.tsv: not a regular file (a FIFO)" "$tmp/err"
timeout 60 "$prog" replay "$tmp/fifo/journal.tsv" 1 >/dev/null 2>"$tmp/err"
check "replay of a FIFO journal: exit 1" test $? -eq 1
check "replay of a FIFO journal: message" grep -q "not a regular file (a FIFO)" "$tmp/err"
mkfifo "$tmp/record.fifo"
timeout 60 "$prog" replay "$tmp/record.fifo" >/dev/null 2>"$tmp/err"
check "replay of a FIFO game record: exit 1" test $? -eq 1
check "replay of a FIFO game record: message" grep -q "record.fifo: not a regular file (a FIFO)" "$tmp/err"
timeout 60 "$prog" replay /dev/zero >/dev/null 2>"$tmp/err"
check "replay of /dev/zero: exit 1" test $? -eq 1
check "replay of /dev/zero: message" grep -q "/dev/zero: not a regular file (a character device)" "$tmp/err"

# ---- two concurrent --resume runs of one --out
# a player that never moves: each of its games lasts its 0.3 s time budget
printf 'return function() while true do end end\n' >"$tmp/spin.lua"
race="tournament ai1 $tmp/spin.lua --games 40 --time 0.3 --jobs 1 --seed 3 --no-progress --quiet --out $tmp/race"
# (run as "$prog" $race, not through a function: $! is then the program's pid)
# a run killed early: its journal has a few games, its lock went with it
"$prog" $race &
pid=$!
n=0
i=0
while [ "$n" -lt 2 ] && [ $i -lt 600 ] && kill -0 $pid 2>/dev/null; do
    sleep 0.1
    i=$((i + 1))
    n=$(cat "$tmp/race/journal.tsv" 2>/dev/null | grep -c '^G')
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
before=$(grep -c '^G' "$tmp/race/journal.tsv")
check "race: the killed run left games ($before)" test "$before" -ge 1
# the first --resume: wait until it holds the lock (its pid in journal.lock)
"$prog" $race --resume 2>"$tmp/first.err" &
first=$!
i=0
while [ "$(cat "$tmp/race/journal.lock" 2>/dev/null)" != "$first" ] && [ $i -lt 600 ]; do
    sleep 0.1
    i=$((i + 1))
done
"$prog" $race --resume 2>"$tmp/second.err"
rc=$?
"$prog" merge "$tmp/race" --out "$tmp/race" --quiet 2>"$tmp/merge.err"
merge_rc=$?
kill -0 $first 2>/dev/null
running=$?
check "race: the second --resume exits 1" test $rc -eq 1
check "race: the first still ran when the second was refused" test $running -eq 0
check "race: the second names the first's pid" \
    grep -q "race is in use: process $first is writing to it (it holds .*race/journal.lock)" "$tmp/second.err"
check "race: merge --out on it exits 1" test $merge_rc -eq 1
check "race: merge names the first's pid" grep -q "race is in use: process $first is writing to it" "$tmp/merge.err"
wait $first
check "race: the first finishes (exit 0)" test $? -eq 0
check "race: every game once in the journal" \
    test "$(grep '^G' "$tmp/race/journal.tsv" | cut -f 2 | sort -n | uniq | wc -l)" -eq 40
check "race: no game twice" test "$(grep -c '^G' "$tmp/race/journal.tsv")" -eq 40
"$prog" replay "$tmp/race/journal.tsv" 40 >/dev/null 2>"$tmp/err"
check "race: replay reads the journal back" test $? -eq 0
"$prog" merge "$tmp/race" --quiet 2>"$tmp/err"
check "race: merge reads the journal back" test $? -eq 0
"$prog" $race --resume 2>"$tmp/err"
check "race: another --resume reads it back (exit 0)" test $? -eq 0
check "race: results.json counts every game" json_has "$tmp/race/results.json" 'd.games_played === 40'

# ---- UTF-8: raw bytes in a forfeit reason and in a player's name
printf 'return function() error("\\xff\\xfe bad \\xc0\\xaf", 0) end\n' >"$tmp/bad_utf8.lua"
named="$tmp/$(printf 'n\377me').lua"
cp "$tmp/bad_utf8.lua" "$named"
"$prog" tournament ai1 "$tmp/bad_utf8.lua" "$named" --games 2 --jobs 1 --no-progress --out "$tmp/u8" \
    >"$tmp/u8.out" 2>"$tmp/u8.err"
check "UTF-8: the tournament finishes (exit 0)" test $? -eq 0
check "UTF-8: results.json parses (strict UTF-8, JSON.parse)" json_has "$tmp/u8/results.json" 'd.forfeits.length > 0'
check "UTF-8: the reason shows U+FFFD" json_has "$tmp/u8/results.json" \
    'd.forfeits.some(f => f.reason === "error: \ufffd\ufffd bad \ufffd\ufffd")'
check "UTF-8: the name shows U+FFFD" json_has "$tmp/u8/results.json" \
    'd.players.some(p => p.name === "n\ufffdme" && p.spec.endsWith("/n\ufffdme.lua"))'
check "UTF-8: journal.tsv is valid UTF-8" utf8 "$tmp/u8/journal.tsv"
check "UTF-8: results.csv is valid UTF-8" utf8 "$tmp/u8/results.csv"
check "UTF-8: ranking.svg is valid UTF-8" utf8 "$tmp/u8/ranking.svg"
check "UTF-8: report.html is valid UTF-8" utf8 "$tmp/u8/report.html"
check "UTF-8: the printed table is valid UTF-8" utf8 "$tmp/u8.out"
check "UTF-8: the printed table shows the reason" grep -q 'error: �� bad ��' "$tmp/u8.out"
"$prog" tournament ai1 "$tmp/bad_utf8.lua" "$named" --games 2 --jobs 1 --no-progress --quiet --out "$tmp/u8" \
    --resume 2>"$tmp/err"
check "UTF-8: --resume reads the journal back (exit 0)" test $? -eq 0
"$prog" replay "$tmp/u8/journal.tsv" 1 >"$tmp/replay.out" 2>&1
check "UTF-8: replay exit 0" test $? -eq 0
check "UTF-8: replay's output is valid UTF-8" utf8 "$tmp/replay.out"
# a journal edited to hold raw bytes in a reason (written by another
# program, or before this check): merge, report.html and serve's data
mkdir "$tmp/raw"
sed 's/ bad / \xc3\x28 /' "$tmp/u8/journal.tsv" >"$tmp/raw/journal.tsv"
check "raw journal: it holds invalid UTF-8" test "$(utf8 "$tmp/raw/journal.tsv"; echo $?)" -ne 0
"$prog" merge "$tmp/raw" --out "$tmp/raw_m" >"$tmp/merge.out" 2>&1
check "raw journal: merge exit 0" test $? -eq 0
check "raw journal: merge's table is valid UTF-8" utf8 "$tmp/merge.out"
check "raw journal: results.json parses, U+FFFD in the reason" json_has "$tmp/raw_m/results.json" \
    'd.forfeits.some(f => f.reason === "error: \ufffd\ufffd \ufffd( \ufffd\ufffd")'
check "raw journal: report.html is valid UTF-8" utf8 "$tmp/raw_m/report.html"
cp "$tmp/raw/journal.tsv" "$tmp/raw_m/journal.tsv"
cat >"$tmp/serve_data.lua" <<'LUA'
-- what `serve --results DIR` answers for GET /api/results and /api/results/journal
local r = load(mb.embedded("lib/report"), "=report", "t")(mb, require "marubatsu.host")
local data, journal = r.data(arg[1])
io.write(data)
io.stderr:write(journal)
LUA
"$prog" run "$tmp/serve_data.lua" "$tmp/raw_m" >"$tmp/serve.json" 2>"$tmp/serve.journal"
check "raw journal: serve's results data parses, U+FFFD" json_has "$tmp/serve.json" \
    'd.results.forfeits.length > 0'
check "raw journal: serve's journal text is valid UTF-8" utf8 "$tmp/serve.journal"
check "raw journal: serve's journal text shows U+FFFD" grep -q '�(' "$tmp/serve.journal"

summary
