#!/bin/sh
# One shard of a tournament per task of a Slurm job array (--array=1-N:
# N shards). The arguments are the tournament's players and options.
#SBATCH --array=1-16
#SBATCH --cpus-per-task=8
set -eu
i=${SLURM_ARRAY_TASK_ID:?submit this script with sbatch}
n=$SLURM_ARRAY_TASK_COUNT
if [ "$SLURM_ARRAY_TASK_MIN" != 1 ] || [ "$SLURM_ARRAY_TASK_MAX" != "$n" ]; then
    echo "tournament-shards.sh: give the array as --array=1-N" >&2
    exit 2
fi
exec marubatsu tournament "$@" --jobs "${SLURM_CPUS_PER_TASK:-1}" --no-progress \
    --shard "$i/$n" --out "runs/shard$i"
