#!/bin/sh
# tests/slurm/run.sh: the README's Slurm job array for a sharded tournament,
# run on a real single-node Slurm (Debian's slurmctld, slurmd and munge,
# started as root in a temporary directory by tests/slurm/cluster.sh).
# Checks: the job script the README shows ("Shards") is
# examples/slurm/tournament-shards.sh line for line, and its sbatch and merge
# commands are the ones run here; the cluster starts; the README's sbatch
# command, with --array=1-4 --cpus-per-task=1 and --games 100 instead of
# 10000 (same players, same seed), ends with exit 0, every array task
# COMPLETED with exit code 0:0 on the test's node, each having played a
# quarter of the games (150 of 600); the README's merge of the shards writes a
# results.json byte-identical to one local run's; the job script refuses an
# array not numbered 1-N (every task fails, exit 2). Every daemon, job and
# file is gone when the test ends, however it ends; every wait is bounded
# (MB_SLURM_JOB_SECONDS, default 120 s, per array). `marubatsu tune
# --slurm 2` (each iteration's games as an array of 2 shards, merged) writes
# the same journal as a local run of the same tuning. Prints the time the
# cluster took to start, the array to run, and the whole test.
# Without the packages (or not root) the cluster part is skipped, and the
# summary says so: "N passed, N failed, 1 skipped".
# Usage: sh tests/slurm/run.sh PROGRAM      (make test-slurm)
set -u
prog=$1
cd "$(dirname "$0")/../.." || exit 2
repo=$(pwd)
case $prog in
/*) ;;
*) prog=$repo/$prog ;;
esac
script=examples/slurm/tournament-shards.sh
job_seconds=${MB_SLURM_JOB_SECONDS:-120}
pass=0
fail=0
skip=0
t_begin=$(date +%s.%N)

. tests/slurm/cluster.sh

tmp=$(mktemp -d)
waiting=
cleanup() {
    [ -n "$waiting" ] && kill -TERM "$waiting" 2>/dev/null
    slurm_stop
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

check() {
    name=$1
    shift
    if "$@"; then
        echo "ok $name"
        pass=$((pass + 1))
    else
        echo "FAIL $name"
        fail=$((fail + 1))
    fi
}
summary() {
    if [ "$skip" -gt 0 ]; then
        echo "$pass passed, $fail failed, $skip skipped"
    else
        echo "$pass passed, $fail failed"
    fi
    [ "$fail" -eq 0 ]
    exit
}
# seconds since $1 (from date +%s.%N), to a tenth
since() {
    echo "$1 $(date +%s.%N)" | awk '{ printf "%.1f", $2 - $1 }'
}

# ---- the README shows what runs here ----------------------------------------
# the job script, indented by 4 (blank lines stay blank), as one block
sed 's/^./    &/' "$script" >"$tmp/block"
readme_has_block() {
    first=$(head -n 1 "$tmp/block")
    lines=$(wc -l <"$tmp/block")
    for at in $(grep -n -x -F -e "$first" README.md | cut -d: -f1); do
        sed -n "${at},$((at + lines - 1))p" README.md | cmp -s - "$tmp/block" && return 0
    done
    return 1
}
check "README shows $script as it is" readme_has_block
# the sbatch line: its arguments are the tournament's, run here with fewer games
args=$(sed -n "s|^    sbatch $script ||p" README.md)
check "README has the sbatch line of $script" test -n "$args"
check "README's tournament plays --games 10000" \
    sh -c 'case " $1 " in *" --games 10000 "*) exit 0 ;; esac; exit 1' - "$args"
merge_line='marubatsu merge runs/shard* --out runs/all'
check "README has the merge line" grep -q -F "    $merge_line" README.md
set -f # the words as they stand, no file names
# shellcheck disable=SC2046
set -- $(printf '%s\n' "$args" | sed 's/--games 10000/--games 100/')
set +f

# ---- the cluster ------------------------------------------------------------
if slurm_missing; then
    echo "skipped: the Slurm cluster test: $slurm_why"
    skip=1
    summary
fi
if ! slurm_start "$tmp/cluster"; then
    echo "FAIL the single-node cluster starts: $slurm_why"
    fail=$((fail + 1))
    summary
fi
echo "ok the single-node cluster starts"
pass=$((pass + 1))

# the players' files where the job runs, marubatsu on the PATH the job gets
mkdir "$tmp/site" "$tmp/bin"
ln -s "$prog" "$tmp/bin/marubatsu"
cp examples/my_first_ai.lua "$tmp/site/my_ai.lua"
PATH=$tmp/bin:$PATH
export PATH
cd "$tmp/site" || exit 2

# a local run of the same tournament, in one piece
timeout 120 marubatsu tournament "$@" --jobs 2 --no-progress --out local >local.out 2>&1
check "local run: exit 0" test $? -eq 0
# all its games (6 pairings of 100 with the README's 4 players), a quarter a shard
total=$(sed -n 's/^\([0-9][0-9]*\) games of \1 .*/\1/p' local.out)
check "local run: all its games, a multiple of 4" test "${total:-0}" -gt 0 -a "$((${total:-1} % 4))" -eq 0
share=$((${total:-0} / 4))

# array_task_states JOBID: one line per task, "ID STATE EXIT NODE"
array_task_states() {
    scontrol -o show job "$1" 2>/dev/null |
        sed -n 's/.* ArrayTaskId=\([^ ]*\) .* JobState=\([^ ]*\) .* ExitCode=\([^ ]*\) .* NodeList=\([^ ]*\) .*/\1 \2 \3 \4/p' |
        sort -n
}
# run_array ARRAY: the README's sbatch with --array=ARRAY, waited for within
# job_seconds; sets jobid and rc
run_array() {
    jobid=
    array=$1
    shift
    # in the background: a TERM to the test ends the wait at once (the
    # trap stops it), not when sbatch returns
    timeout "$job_seconds" sbatch --wait --parsable --array="$array" --cpus-per-task=1 \
        "$repo/$script" "$@" >sbatch.out 2>sbatch.err &
    waiting=$!
    wait "$waiting"
    rc=$?
    waiting=
    jobid=$(head -n 1 sbatch.out | cut -d';' -f1)
    if [ "$rc" -eq 124 ]; then
        echo "the array --array=$array did not end within $job_seconds s; squeue:"
        squeue 2>&1 | head -n 20
    fi
}

t_array=$(date +%s.%N)
run_array 1-4 "$@"
array_seconds=$(since "$t_array")
check "sbatch --wait --array=1-4: exit 0" test "$rc" -eq 0
check "sbatch printed the job id" test -n "$jobid"
array_task_states "$jobid" >states
printf '%s\n' "1 COMPLETED 0:0 $slurm_node" "2 COMPLETED 0:0 $slurm_node" \
    "3 COMPLETED 0:0 $slurm_node" "4 COMPLETED 0:0 $slurm_node" >states.want
check "every task COMPLETED with exit 0:0 on the node" cmp -s states states.want
for i in 1 2 3 4; do
    check "task $i played its $share games" grep -q "^$share games of $share " "slurm-${jobid}_$i.out"
    check "shard $i's journal" test -s "runs/shard$i/journal.tsv"
done

# the README's merge, as it stands
timeout 60 sh -c "$merge_line" >merge.out 2>&1
check "merge: exit 0" test $? -eq 0
check "merge: all $total games" grep -q "^$total games of $total " merge.out
check "merged results.json = the local run's, byte for byte" \
    cmp local/results.json runs/all/results.json

# an array the script cannot map to shards: every task fails, sbatch says so
run_array 0-1 "$@"
check "--array=0-1: sbatch --wait exits 2 (the tasks' exit)" test "$rc" -eq 2
array_task_states "$jobid" >states
printf '%s\n' "0 FAILED 2:0 $slurm_node" "1 FAILED 2:0 $slurm_node" >states.want
check "--array=0-1: both tasks FAILED with exit 2" cmp -s states states.want
check "--array=0-1: the reason" grep -q 'give the array as --array=1-N' "slurm-${jobid}_0.out"

# tune --slurm: each iteration's games as an array of 2 tasks, merged; the
# journal equals a local run's, byte for byte (untimed games: the shards'
# merged results are the one run's)
t_tune=$(date +%s.%N)
tune() {
    timeout "$job_seconds" marubatsu tune "$repo/tests/tune/peak.lua" --start x=2 --iterations 2 --pairs 4 \
        --confirm-games 0 --quiet "$@"
}
tune --out tune_local
check "tune, local: exit 0" test $? -eq 0
tune --slurm 2 --sbatch --cpus-per-task=1 --out tune_slurm
check "tune --slurm 2: exit 0" test $? -eq 0
check "tune --slurm 2: both iterations' shards" test -s tune_slurm/slurm/iteration2/shard2/journal.tsv
check "tune --slurm 2: tune.tsv = the local run's, byte for byte" cmp tune_local/tune.tsv tune_slurm/tune.tsv
tune_seconds=$(since "$t_tune")

cd "$repo" || exit 2
t_stop=$(date +%s.%N)
slurm_stop
echo "time: cluster start ${slurm_start_seconds} s, array of 4 shards $array_seconds s, tune $tune_seconds s," \
    "stop $(since "$t_stop") s, whole test $(since "$t_begin") s"
summary
