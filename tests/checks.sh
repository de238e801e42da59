# tests/checks.sh: the pass/fail counting that the shell suites share
# (sourced; the suite sets tmp to its scratch directory first).
#   check NAME COMMAND...              passes when the command succeeds
#   same NAME EXPECTED_FILE ACTUAL     passes when the files are equal
#                                      (else the first 40 lines of the diff)
#   summary                            the last line "N passed, N failed";
#                                      its status is non-zero on a failure
pass=0
fail=0
check() {
    name=$1
    shift
    if "$@"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "not ok: $name"
    fi
}
same() {
    if diff -u "$2" "$3" >"$tmp/diff"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "not ok: $1"
        head -n 40 "$tmp/diff"
    fi
}
summary() {
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}
