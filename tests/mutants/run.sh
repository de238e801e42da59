#!/bin/sh
# tests/mutants/run.sh (make mutate): each patch tests/mutants/NAME.patch is
# a small, realistic slip (a `<` for a `<=`, a dropped condition, swapped
# arguments: its first line says which). For each, in a copy of the tree,
# the patch is applied, the release build is remade (only what the patch
# touched recompiles), and the quick release suites run in turn until one
# fails: the mutant is caught. A mutant that passes every suite survived,
# which means a test is missing. The patch is then taken back before the
# next one. Ends with "N caught, N survived" and exits 1 if any survived
# or a patch no longer applies (update it to the code it mutates).
# Add a mutant for every bug fixed: make the slip in a clean tree, then
#   { echo '# what it breaks'; git diff; } > tests/mutants/NAME.patch
# and git checkout the file.
# Usage: sh tests/mutants/run.sh [NAME...]   (default: every patch)
set -u
cd "$(dirname "$0")/../.." || exit 2
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'exit 143' TERM INT # the copy is removed when stopped too (.ci/run's time limit)
log=$work/log

# the tree as it is now (tracked files, with their uncommitted changes)
git ls-files | tar -cf - -T - | tar -xf - -C "$work" || exit 2
mkdir -p "$work/tree"
(cd "$work" && ls -A | grep -v '^tree$' | grep -v '^log$' | xargs -I{} mv {} tree/)
tree=$work/tree
targets="build/marubatsu build/marubatsu.so build/test_engine"
echo "building the unmutated tree in $tree ..."
if ! make -C "$tree" -j2 $targets >"$log" 2>&1; then
    tail -n 20 "$log"
    echo "the unmutated tree does not build"
    exit 2
fi

# the quick release suites, in the order they usually catch a slip
suites() {
    echo "engine:build/test_engine"
    echo "lua:sh tests/lua/run.sh so"
    echo "cli:sh tests/cli/run.sh build/marubatsu"
    echo "brain-fields:sh tests/brain/fields.sh build/marubatsu"
    echo "tournament:sh tests/tournament/run.sh build/marubatsu"
}

if [ $# -gt 0 ]; then
    patches=""
    for n in "$@"; do patches="$patches tests/mutants/$n.patch"; done
else
    patches=$(ls tests/mutants/*.patch)
fi
caught=0
survived=0
for p in $patches; do
    name=$(basename "$p" .patch)
    what=$(sed -n '1s/^# //p' "$p")
    if ! (cd "$tree" && patch -s -p1 --no-backup-if-mismatch <"$root/$p") >"$log" 2>&1; then
        cat "$log"
        echo "STALE    $name: the patch no longer applies"
        survived=$((survived + 1))
        continue
    fi
    by=""
    if ! make -C "$tree" -j2 $targets >"$log" 2>&1; then
        by="the build"
    else
        for s in $(suites | tr ' ' '#'); do
            label=${s%%:*}
            cmd=$(printf '%s' "${s#*:}" | tr '#' ' ')
            if ! (cd "$tree" && $cmd) >"$log" 2>&1; then
                by=$label
                break
            fi
        done
    fi
    if [ -n "$by" ]; then
        caught=$((caught + 1))
        echo "caught   $name (by $by): $what"
    else
        survived=$((survived + 1))
        echo "SURVIVED $name: $what"
    fi
    (cd "$tree" && patch -s -R -p1 --no-backup-if-mismatch <"$root/$p") || exit 2
done
echo "$caught caught, $survived survived"
[ "$survived" -eq 0 ]
