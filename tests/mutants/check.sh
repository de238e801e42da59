#!/bin/sh
# tests/mutants/check.sh: every mutant of tests/mutants/ still applies to
# the tree as it is (patch --dry-run), so that a change to the code a
# mutant slips into is caught by make test, not at the next make mutate;
# then that a made-up patch that does not apply is reported (so the check
# can fail). Prints "N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
pass=0
fail=0
check() { # check OK WHAT
    if [ "$1" = 0 ]; then
        pass=$((pass + 1))
        echo "ok $2"
    else
        fail=$((fail + 1))
        echo "not ok $2"
    fi
}
for p in tests/mutants/*.patch; do
    patch --dry-run -s -p1 <"$p" >/dev/null 2>&1
    check $? "$(basename "$p" .patch) applies"
done
bad=$(mktemp)
trap 'rm -f "$bad"' EXIT
printf '%s\n' '# a made-up slip' '--- a/src/clock.c' '+++ b/src/clock.c' '@@ -1,1 +1,1 @@' \
    '-/* no such line */' '+/* a slip */' >"$bad"
patch --dry-run -s -p1 <"$bad" >/dev/null 2>&1
[ $? -ne 0 ]
check $? "a patch that does not apply is found"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
