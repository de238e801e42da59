#!/bin/sh
# tests/jupyter/run.sh: the Jupyter kernel `marubatsu` (src/jupyter/) with
# PROGRAM as its engine: its protocol, display, completion, interrupts and
# restarts (kernel_test.py), and the example notebooks run headless with
# their outputs checked (notebooks_test.py). A kernelspec for the source
# tree is made in a temporary JUPYTER_PATH; HOME is a temporary directory
# too, so no init file or Jupyter setting of the user's comes in.
# Usage: sh tests/jupyter/run.sh PROGRAM [kernel|notebooks]...
# Prints "N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
[ $# -ge 1 ] || { echo "usage: $0 PROGRAM [kernel|notebooks]..." >&2; exit 2; }
program=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
parts=${*:-kernel notebooks}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sh src/jupyter/kernelspec.sh "$tmp/jupyter/kernels/marubatsu" "$PWD/src/jupyter" "$program" || exit 2
export JUPYTER_PATH="$tmp/jupyter" JUPYTER_RUNTIME_DIR="$tmp/runtime" JUPYTER_CONFIG_DIR="$tmp/config"
export HOME="$tmp/home" IPYTHONDIR="$tmp/ipython" MARUBATSU_PATH="$PWD/tests/cli/scripts"
export PYDEVD_DISABLE_FILE_VALIDATION=1
unset MARUBATSU_INIT MARUBATSU_KERNEL_ARGS MARUBATSU_PROGRAM
mkdir -p "$HOME"
pass=0
fail=0
for part in $parts; do
    /usr/bin/python3 "tests/jupyter/${part}_test.py" "$program" >"$tmp/log" 2>"$tmp/err"
    rc=$?
    grep -v '^ok ' "$tmp/log"
    p=$(grep -c '^ok ' "$tmp/log")
    f=$(grep -c '^FAIL ' "$tmp/log")
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "FAIL $part: exit $rc"
        tail -n 30 "$tmp/err"
        f=1
    fi
    pass=$((pass + p))
    fail=$((fail + f))
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
