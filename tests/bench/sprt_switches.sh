#!/bin/sh
# sprt_switches.sh: is each of gomoku's search heuristics worth keeping? For
# each setting it runs an SPRT between gomoku with the setting and gomoku
# without it (H0: the setting gains nothing, elo0 = 0; H1: it gains elo1),
# both players stopping after the same number of positions a move
# (gomoku:nodes=N, so the games do not depend on the machine's load and
# rerun the same) or, with --move-time, thinking the same time a move (as
# in real games, where a switch's cost in speed counts too; give those
# runs an otherwise idle machine), 15x15 freestyle k = 5, in pairs of games from one
# four-stone opening each (tests/bench/openings15_4k.txt: 2000 openings,
# none played twice). It prints one line per setting: the games, W-L-D of
# the setting, the Elo difference from the game pairs with its 95%
# interval, the LLR and the decision (H1: keep it, H0: it does not gain
# elo1, none: no decision within --games). docs/engine.md has the table.
#
# Usage: sh tests/bench/sprt_switches.sh [options] [SETTING[/AGAINST]...]
#   SETTING               the option(s) under test, as gomoku takes them
#                         ("killers=true"); AGAINST the other side's
#                         (default: the same key set to false). Default: the
#                         switches of docs/engine.md's table.
#   --nodes N             positions a move for both (default 30000)
#   --move-time S         seconds a move for both instead of --nodes
#   --games N             at most N games a setting, even (default 2000)
#   --elo1 E              the gain H1 claims (default 30; elo0 is 0)
#   --jobs J              worker processes (default 2)
#   --out DIR             keep each tournament's directory under DIR
#                         (default: a temporary directory, removed)
#   --program PATH        the marubatsu program (default build/marubatsu)
# Examples (docs/engine.md's measurements):
#   sh tests/bench/sprt_switches.sh --out sprt
#   sh tests/bench/sprt_switches.sh --move-time 0.05 --out sprt-time
set -u
cd "$(dirname "$0")/../.." || exit 2
nodes=30000
move_time=
games=2000
elo1=30
jobs=2
out=
program=build/marubatsu
openings=tests/bench/openings15_4k.txt
while [ $# -gt 0 ]; do
    case $1 in
    --nodes|--move-time|--games|--elo1|--jobs|--out|--program)
        [ $# -ge 2 ] || { echo "sprt_switches.sh: $1 needs a value" >&2; exit 2; } ;;
    esac
    case $1 in
    --nodes) nodes=$2; shift 2 ;;
    --move-time) move_time=$2; shift 2 ;;
    --games) games=$2; shift 2 ;;
    --elo1) elo1=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --program) program=$2; shift 2 ;;
    --help|-h) sed -n '2,31p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --*) echo "sprt_switches.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
if [ $# -eq 0 ]; then
    set -- killers=true history=true tt=true aspiration=true lmr=true prune=true \
        forced=true vcf=true root_vct=10/root_vct=0 tempo=800/tempo=0 \
        guard=true qdefend=true verify=true
fi
[ -x "$program" ] || { echo "sprt_switches.sh: no program $program (make first)" >&2; exit 2; }
tmp=
if [ -z "$out" ]; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    out=$tmp
fi
mkdir -p "$out" || exit 1
prefix=gomoku:nodes=$nodes,
limit=
if [ -n "$move_time" ]; then
    prefix=gomoku:
    limit="--move-time $move_time"
fi
status=0
for spec in "$@"; do
    case $spec in
    */*) on=${spec%%/*}; off=${spec#*/} ;;
    *=*) on=$spec; off=${spec%%=*}=false ;;
    *) echo "sprt_switches.sh: $spec is not KEY=VALUE[/KEY=VALUE]" >&2; exit 2 ;;
    esac
    dir=$out/$(printf '%s' "$on" | tr -c 'A-Za-z0-9_.=\n' _)
    a=$prefix$on
    b=$prefix$off
    # shellcheck disable=SC2086 # $limit: the option and its value, or nothing
    "$program" tournament "$a" "$b" $limit --width 15 --height 15 --k 5 --games "$games" \
        --jobs "$jobs" --openings "$openings" --out "$dir" --no-progress \
        --sprt "elo0=0,elo1=$elo1,alpha=0.05,beta=0.05" >"$dir.log" 2>&1
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "sprt_switches.sh: the tournament $a vs $b failed (exit $rc): $dir.log" >&2
        status=1
        continue
    fi
    # the setting's row of results.csv (a name with commas has them as
    # semicolons, as results_csv.awk reads it) and the SPRT's line of the report
    awk -v on="$on" -v off="$off" -v prefix="$prefix" -v sprt="$(grep '^SPRT' "$dir.log")" \
        -f tests/bench/results_csv.awk -f /dev/stdin "$dir/results.csv" <<'EOF'
BEGIN { me = prefix on; gsub(/,/, ";", me) }
f[col["name"]] == me {
    llr = sprt; sub(/.*LLR /, "", llr); sub(/ .*/, "", llr)
    d = sprt; sub(/.*: /, "", d); sub(/ .*/, "", d)
    if (d != "H0" && d != "H1") d = "none"
    printf "%-14s vs %-14s %5d games  %4d-%4d-%3d  Elo %+6.1f [%+.1f, %+.1f]  LLR %6s  %s\n",
           on, off, f[col["games"]], f[col["win"]], f[col["loss"]], f[col["draw"]],
           f[col["pairs_elo"]], f[col["pairs_elo_low"]], f[col["pairs_elo_high"]], llr, d
}
EOF
done
exit $status
