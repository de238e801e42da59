#!/bin/sh
# ladder.sh: a gauntlet of our AIs against external Gomocup brains on
# 15x15 freestyle five in a row, at equal time, in pairs of games from the
# same three-stone opening (tests/bench/openings15.txt: each opening played
# once with each colour), with --jobs 1 so that the players never share the
# machine with another game. For each AI and each brain it runs one
# two-player tournament and prints its ranking table, then one summary line
# per pairing: W-L-D, the score, the Elo difference from the game pairs
# (pentanomial, 95% interval) and from the fitted ratings (95% error bar).
#
# Usage: sh tests/bench/ladder.sh [options] BRAIN...
#   BRAIN                 a brain's program (a path), as brain:PATH takes it
#   --ais "A B ..."       our AIs (default: gomoku), NAME:key=value allowed
#   --move-time S         seconds per move for both sides (default 1)
#   --games N             games per pairing, even (default 60)
#   --openings FILE       one opening per line (default tests/bench/openings15.txt)
#   --out DIR             keep each tournament's directory under DIR
#                         (default: a temporary directory, removed)
#   --program PATH        the marubatsu program (default build/marubatsu)
#   --resume              continue the tournaments in --out
# Example (the README's measurement):
#   sh tests/bench/ladder.sh --games 60 --move-time 1 --out runs /path/to/pbrain-pela
set -u
cd "$(dirname "$0")/../.." || exit 2
ais=gomoku
move_time=1
games=60
openings=tests/bench/openings15.txt
out=
program=build/marubatsu
resume=
while [ $# -gt 0 ]; do
    case $1 in
    --ais) ais=$2; shift 2 ;;
    --move-time) move_time=$2; shift 2 ;;
    --games) games=$2; shift 2 ;;
    --openings) openings=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --program) program=$2; shift 2 ;;
    --resume) resume=--resume; shift ;;
    --help|-h) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --*) echo "ladder.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
if [ $# -eq 0 ]; then
    echo "ladder.sh: give at least one brain (--help for the usage)" >&2
    exit 2
fi
[ -x "$program" ] || { echo "ladder.sh: no program $program (make first)" >&2; exit 2; }
[ -r "$openings" ] || { echo "ladder.sh: cannot read $openings" >&2; exit 2; }
tmp=
if [ -z "$out" ]; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    out=$tmp
fi
mkdir -p "$out" || exit 1
summary=$out/summary.txt
: >"$summary"
n=0
status=0
for ai in $ais; do
    for brain in "$@"; do
        n=$((n + 1))
        dir=$out/pairing$n
        echo "== $ai vs $brain: $games games, $move_time s a move"
        "$program" tournament "$ai" "brain:$brain" --width 15 --height 15 --k 5 \
            --games "$games" --move-time "$move_time" --jobs 1 --openings "$openings" \
            --out "$dir" --no-progress $resume >"$dir.log" 2>&1
        rc=$?
        sed -n '1,/^$/p;/^rank/,/^$/p' "$dir.log" | grep -v '^$'
        if [ $rc -ne 0 ]; then
            echo "ladder.sh: the tournament failed (exit $rc); its output: $dir.log" >&2
            status=1
            continue
        fi
        # the AI's line of results.csv: W-L-D, the score, the Elo difference
        # from the game pairs (pentanomial) with its 95% interval, and the
        # fitted rating's difference with its bar (a name with commas has
        # them as semicolons, as results_csv.awk reads it)
        awk -v ai="$ai" -v b="$brain" -v t="$move_time" -f tests/bench/results_csv.awk -f /dev/stdin \
            "$dir/results.csv" >>"$summary" <<'EOF'
BEGIN { name = ai; gsub(/,/, ";", name) }
f[col["name"]] == name {
    printf "%s vs %s at %s s a move: %d-%d-%d (W-L-D), score %.1f%%, " \
           "Elo %+.0f [%+.0f, %+.0f] from %d pairs, rating difference %+.0f +- %.0f\n",
           ai, b, t, f[col["win"]], f[col["loss"]], f[col["draw"]], 100 * f[col["score"]],
           f[col["pairs_elo"]], f[col["pairs_elo_low"]], f[col["pairs_elo_high"]],
           f[col["pairs"]], 2 * f[col["elo"]], 2 * f[col["elo_error"]]
}
EOF
    done
done
echo
echo "summary (Elo: the AI's difference to the brain, 95% intervals)"
cat "$summary"
exit $status
