#!/bin/sh
# tests/fuzz/run.sh: the fuzz suite. Runs the libFuzzer target over the text
# parsers (tests/fuzz/fuzz_parsers.c) for a bounded time, starting from a
# copy of the committed seed corpus, and counts it as one test: it passes
# when every seed and every generated input ran without a crash, a sanitizer
# report, a failed property or a timeout. Ends with "1 passed, 0 failed" or
# "0 passed, 1 failed"; on failure prints the end of libFuzzer's log and the
# input that failed (kept in build/fuzz/artifacts/).
# Usage: sh tests/fuzz/run.sh build/fuzz/fuzz_parsers
#   MB_FUZZ_SECONDS  how long to fuzz (default 30)
#   Reproduce a failure: build/fuzz/fuzz_parsers build/fuzz/artifacts/crash-...
#   Grow the committed corpus with what a run found (review first):
#     build/fuzz/fuzz_parsers -merge=1 -max_len=4096 tests/fuzz/corpus build/fuzz/corpus
set -u
cd "$(dirname "$0")/../.." || exit 2
fuzzer=${1:-build/fuzz/fuzz_parsers}
seconds=${MB_FUZZ_SECONDS:-30}
work=build/fuzz/corpus
artifacts=build/fuzz/artifacts
log=build/fuzz/fuzz.log

if [ ! -x "$fuzzer" ]; then
    echo "fuzz: $fuzzer is not built (make build/fuzz/fuzz_parsers)"
    echo "0 passed, 1 failed"
    exit 1
fi
rm -rf "$work" "$artifacts"
mkdir -p "$work" "$artifacts"
cp tests/fuzz/corpus/* "$work"/

# -timeout: seconds one input may take; -rss_limit_mb: the whole process
"$fuzzer" -max_total_time="$seconds" -max_len=4096 -timeout=5 -rss_limit_mb=2048 \
    -artifact_prefix="$artifacts/" -print_final_stats=1 "$work" >"$log" 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "fuzz: ${runs:-?} inputs in ${seconds}s, corpus $(ls "$work" | wc -l) files, no failure"
    echo "1 passed, 0 failed"
    exit 0
fi
echo "fuzz: libFuzzer exited with status $rc; the end of $log:"
tail -n 40 "$log"
for f in "$artifacts"/*; do
    [ -e "$f" ] || continue
    echo "fuzz: failing input $f (run: $fuzzer $f):"
    od -c "$f" | head -n 12
done
echo "0 passed, 1 failed"
exit 1
