#!/bin/sh
# tests/install/check.sh: `make install` into a temporary DESTDIR, then use
# the installed copy as a user would: run the program from there (it must
# find the installed scripts), require the module from stock lua5.4, and
# build examples/engine_demo.c against the installed library with pkg-config;
# the installed bash completion completes a command; Jupyter finds the
# kernel's kernelspec, and a cell runs on the installed kernel.
# Prints "N passed, N failed" like every suite.
set -u
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
check() { # NAME COMMAND...: one check
    name=$1
    shift
    if "$@" >"$tmp/log" 2>&1; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $name"
        tail -n 20 "$tmp/log"
    fi
}
prefix=/usr/local
check install make -s install PREFIX=$prefix DESTDIR="$tmp/root"
check program_runs sh -c "'$tmp/root$prefix/bin/marubatsu' show B2 | grep -qx '.O.'"
root="$tmp/root$prefix"
check program_finds_scripts sh -c "'$root/bin/marubatsu' -e 'print(mb.scripts_dir)' | \
    grep -qx '$root/share/lua/5.4/marubatsu'"
check program_match sh -c "'$root/bin/marubatsu' match ai2 ai2 -n 10 --seed 0 | grep -qx 'total       7      12       1'"
check module_in_stock_lua sh -c "LUA_CPATH='$root/lib/lua/5.4/?.so' lua5.4 -e '
    local mb = require \"marubatsu\"
    assert(mb.scripts_dir == \"$root/share/lua/5.4/marubatsu\", mb.scripts_dir)
    mb.seed(0)
    local t = mb.ai_match{ai = {\"ai2\", \"ai2\"}, match_num = 10, quiet = true}
    assert(t.total.win == 7 and t.total.lose == 12, \"match\")'"
check man_page sh -c "man -l '$root/share/man/man1/marubatsu.1' 2>/dev/null | grep -q 'AI sandbox' || \
    grep -q '^.TH MARUBATSU 1' '$root/share/man/man1/marubatsu.1'"
# the installed bash completion completes a command name
complete_tou() {
    bash -c '. "$1/share/bash-completion/completions/marubatsu"
        COMP_WORDS=("$1/bin/marubatsu" tou); COMP_CWORD=1; _marubatsu; echo "${COMPREPLY[*]}"' \
        sh "$root" | grep -qx tournament
}
check completion_installed complete_tou
check installed_repl sh -c "printf 'mb.ai(\"ai14s\").name\n' | '$root/bin/marubatsu' -E | grep -qx ai14s"
check headers_installed test -f "$tmp/root$prefix/include/marubatsu/marubatsu.h"
export PKG_CONFIG_PATH="$tmp/root$prefix/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$tmp/root"
check pkg_config pkg-config --exists marubatsu
check demo_builds sh -c "cc -std=c11 -Wall -Werror examples/engine_demo.c \
    \$(pkg-config --cflags marubatsu) \$(pkg-config --libs --static marubatsu) -o '$tmp/demo'"
check demo_runs sh -c "'$tmp/demo' | grep -qx '1000 random games: o 558, x 300, draw 142'"
spec="$root/share/jupyter/kernels/marubatsu"
check kernelspec_paths /usr/bin/python3 -c "
import json
k = json.load(open('$spec/kernel.json'))
assert k['argv'][-3:] == ['$prefix/share/marubatsu/jupyter/marubatsu_kernel.py', '-f', '{connection_file}'], k
assert k['env']['MARUBATSU_PROGRAM'] == '$prefix/bin/marubatsu', k"
check kernelspec_found sh -c "JUPYTER_PATH='$root/share/jupyter' /usr/bin/python3 -c '
from jupyter_client.kernelspec import KernelSpecManager
assert KernelSpecManager().find_kernel_specs()[\"marubatsu\"] == \"$spec\"'"
# the installed kernel's files, on the installed program (kernel.json names
# the final paths, so a spec for the staged copy is made beside it)
check installed_kernel_runs sh -c "sh src/jupyter/kernelspec.sh '$tmp/kj/kernels/marubatsu' \
    '$root/share/marubatsu/jupyter' '$root/bin/marubatsu' && mkdir -p '$tmp/home' && \
    HOME='$tmp/home' JUPYTER_PATH='$tmp/kj' JUPYTER_RUNTIME_DIR='$tmp/kjrt' PYDEVD_DISABLE_FILE_VALIDATION=1 \
    /usr/bin/python3 tests/jupyter/client.py 'mb.ai(\"ai14s\").name, mb.scripts_dir' '$root/share/lua/5.4/marubatsu'"
check uninstall sh -c "make -s uninstall PREFIX=$prefix DESTDIR='$tmp/root' && \
    test ! -e '$root/bin/marubatsu' && test ! -e '$root/lib/lua/5.4/marubatsu.so' && \
    test ! -e '$root/share/lua/5.4/marubatsu' && test ! -e '$root/share/man/man1/marubatsu.1' && \
    test ! -e '$root/share/bash-completion/completions/marubatsu' && \
    test ! -e '$spec' && test ! -e '$root/share/marubatsu'"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
