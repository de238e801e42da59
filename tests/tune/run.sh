#!/bin/sh
# tests/tune/run.sh: `marubatsu tune` from the command line (issue 27), on
# the synthetic AI tests/tune/peak.lua (strongest at x = 5). Checks:
# --list prints the declared parameters; --help exits 0; no AI, an AI
# without a declaration and bad options exit 2 with a message; a run with
# --out writes tune.tsv (a line per iteration), tune.csv (a row per
# iteration and the start), tune.svg (one trajectory of N+1 points),
# tuned.txt and tuned.lua (the same values as summary.json, which also has
# the confirmation's SPRT) and confirm/results.json, and ends near 5; the
# same run killed (SIGKILL) halfway, or with its journal's last line cut
# short, then --resume'd, gives byte-identical files; Ctrl-C (SIGINT)
# stops it with exit 130 and a --resume hint, and --resume finishes it the
# same; an existing --out without --resume, and --resume with other
# settings (another seed), exit 1 naming the journal.
# Usage: sh tests/tune/run.sh PROGRAM
set -u
prog=$1
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/checks.sh
peak=tests/tune/peak.lua
run() { "$prog" tune "$peak" --start x=2 --iterations 24 --pairs 12 --confirm-games 40 --seed 5 "$@"; }
# iters FILE: the iteration lines of a journal (0 while there is none)
iters() {
    c=$(grep -c '^I' "$1" 2>/dev/null)
    echo "${c:-0}"
}
# the same in the background, $! the program itself (not a subshell)
run_bg() { (exec "$prog" tune "$peak" --start x=2 --iterations 24 --pairs 12 --confirm-games 40 --seed 5 "$@") & }

# --list, --help, usage errors
cat >"$tmp/list.want" <<'EOF'
parameter                   default        min        max     step  type
x                                 0        -10         20        1  real
EOF
"$prog" tune --list "$peak" >"$tmp/list" 2>&1
same "--list prints the declaration" "$tmp/list.want" "$tmp/list"
check "--help exits 0 and shows the usage" sh -c "'$prog' tune --help | grep -q '^usage: marubatsu tune AI'"
"$prog" tune >/dev/null 2>"$tmp/err"
check "no AI: exit 2" [ $? -eq 2 ]
check "no AI: the message" grep -q "an AI to tune is needed" "$tmp/err"
"$prog" tune ai2 >/dev/null 2>"$tmp/err"
check "no declaration: exit 2" [ $? -eq 2 ]
check "no declaration: the message" grep -q "^marubatsu tune: ai2 declares no tunable parameters" "$tmp/err"
"$prog" tune "$peak" --params y >/dev/null 2>"$tmp/err"
check "unknown parameter: exit 2" [ $? -eq 2 ]
check "unknown parameter: named" grep -q "has no tunable parameter 'y' (it has: x)" "$tmp/err"
"$prog" tune "$peak" --iterations 0 >/dev/null 2>"$tmp/err"
check "bad --iterations: exit 2" [ $? -eq 2 ]
"$prog" tune "$peak" --confirm-games 3 >/dev/null 2>"$tmp/err"
check "odd --confirm-games: exit 2" [ $? -eq 2 ]

# a whole run
run --jobs 1 --out "$tmp/a" --quiet
check "a run: exit 0" [ $? -eq 0 ]
check "journal: a line per iteration" [ "$(grep -c '^I' "$tmp/a/tune.tsv")" -eq 24 ]
check "csv: header, start and a row per iteration" [ "$(wc -l <"$tmp/a/tune.csv")" -eq 26 ]
check "csv: its columns" [ "$(head -n 1 "$tmp/a/tune.csv")" = "iteration,games,wins,losses,draws,x" ]
check "csv: the games add up" [ "$(tail -n 1 "$tmp/a/tune.csv" | cut -d, -f2)" -eq $((24 * 24)) ]
points=$(sed -n 's/.*<polyline[^>]*points="\([^"]*\)".*/\1/p' "$tmp/a/tune.svg" | wc -w)
check "svg: the trajectory's 25 points" [ "$points" -eq 25 ]
x=$(sed -n 's/^.*:x=\([-0-9.]*\)$/\1/p' "$tmp/a/tuned.txt")
check "tuned.txt: within 1 of the peak ($x)" awk -v x="$x" 'BEGIN { exit !(x >= 4 && x <= 6) }'
check "tuned.lua: the same value" lua5.4 -e "assert(dofile('$tmp/a/tuned.lua').x == $x)"
check "summary.json: the value and the SPRT" node -e '
    const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    if (Math.abs(d.tuned.x - Number(process.argv[2])) > 1e-3 || d.iterations !== 24 || d.games !== 576) process.exit(1);
    if (!(d.confirm.games > 0 && typeof d.confirm.llr === "number" && d.confirm.decision)) process.exit(1);' \
    "$tmp/a/summary.json" "$x"
check "confirm/results.json" [ -s "$tmp/a/confirm/results.json" ]

# the same files (the confirmation's results too)
same_run() {
    for f in tune.tsv tune.csv tuned.txt tuned.lua summary.json confirm/results.json; do
        same "$1: $f" "$tmp/a/$f" "$2/$f"
    done
}

# killed halfway (jobs 2), then --resume
run_bg --jobs 2 --out "$tmp/b" --quiet
pid=$!
i=0
while [ "$(iters "$tmp/b/tune.tsv")" -lt 8 ] && [ $i -lt 600 ]; do
    sleep 0.05
    i=$((i + 1))
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
n=$(grep -c '^I' "$tmp/b/tune.tsv")
check "killed before the end ($n iterations)" [ "$n" -ge 8 ] && [ "$n" -lt 24 ]
run --jobs 2 --out "$tmp/b" --resume --quiet
check "resumed after SIGKILL: exit 0" [ $? -eq 0 ]
same_run "resumed after SIGKILL" "$tmp/b"

# a last line cut short: that iteration is played again
cp -r "$tmp/a" "$tmp/c"
rm -r "$tmp/c/confirm" "$tmp/c/summary.json"
head -n 20 "$tmp/a/tune.tsv" >"$tmp/c/tune.tsv"
sed -n 21p "$tmp/a/tune.tsv" | head -c 9 >>"$tmp/c/tune.tsv"
run --jobs 1 --out "$tmp/c" --resume --quiet
check "a cut line: exit 0" [ $? -eq 0 ]
same_run "a cut line" "$tmp/c"

# Ctrl-C: exit 130, the hint; --resume finishes it
run_bg --jobs 1 --out "$tmp/d" 2>"$tmp/d.err" >/dev/null
pid=$!
i=0
while [ "$(iters "$tmp/d/tune.tsv")" -lt 3 ] && [ $i -lt 600 ]; do
    sleep 0.05
    i=$((i + 1))
done
kill -INT $pid
wait $pid
rc=$?
check "Ctrl-C: exit 130 (got $rc)" [ $rc -eq 130 ]
cat "$tmp/d.err" | tail -n 3
check "Ctrl-C: the --resume hint" grep -q "interrupted after .* iterations; the journal keeps them: run the same command with --resume" "$tmp/d.err"
check "Ctrl-C: the iteration lines before" grep -q "^iteration 3/24: x=" "$tmp/d.err"
run --jobs 1 --out "$tmp/d" --resume --quiet
same_run "resumed after Ctrl-C" "$tmp/d"

# refusals of an existing --out
run --jobs 1 --out "$tmp/a" --quiet 2>"$tmp/err"
check "existing --out: exit 1" [ $? -eq 1 ]
check "existing --out: names the journal" grep -q "tune.tsv exists: continue it with --resume" "$tmp/err"
"$prog" tune "$peak" --start x=2 --iterations 24 --pairs 12 --confirm-games 40 --seed 6 --out "$tmp/a" --resume --quiet 2>"$tmp/err"
check "another run's journal: exit 1" [ $? -eq 1 ]
check "another run's journal: the line" grep -q "the journal is of another tuning run (line 6 is" "$tmp/err"

summary
