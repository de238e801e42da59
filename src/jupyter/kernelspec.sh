#!/bin/sh
# src/jupyter/kernelspec.sh: write the kernelspec of the Jupyter kernel
# `marubatsu` (kernel.json from kernel.json.in beside this script).
# Usage: sh src/jupyter/kernelspec.sh SPECDIR KERNELDIR PROGRAM [PYTHON]
#   SPECDIR    the kernelspec directory to write, e.g.
#              /usr/local/share/jupyter/kernels/marubatsu (make install), or
#              ~/.local/share/jupyter/kernels/marubatsu to try the build tree
#   KERNELDIR  where marubatsu_kernel.py and driver.lua are (absolute)
#   PROGRAM    the marubatsu program the kernel runs (absolute)
#   PYTHON     Debian's python3, which has ipykernel (default /usr/bin/python3)
set -eu
[ $# -ge 3 ] || { echo "usage: $0 SPECDIR KERNELDIR PROGRAM [PYTHON]" >&2; exit 2; }
spec=$1 kdir=$2 program=$3 python=${4:-/usr/bin/python3}
for p in "$kdir" "$program" "$python"; do
    case $p in
    /*) ;;
    *) echo "$0: '$p' is not an absolute path" >&2; exit 2 ;;
    esac
    case $p in
    *[\"\\\|]*) echo "$0: '$p' holds a character kernel.json cannot take here (\" \\ |)" >&2; exit 2 ;;
    esac
done
mkdir -p "$spec"
sed -e "s|@PYTHON@|$python|" -e "s|@KERNELDIR@|$kdir|" -e "s|@PROGRAM@|$program|" \
    "$(dirname "$0")/kernel.json.in" > "$spec/kernel.json.tmp"
mv "$spec/kernel.json.tmp" "$spec/kernel.json"
