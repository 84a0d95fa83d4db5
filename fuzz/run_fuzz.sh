#!/bin/sh
# run_fuzz.sh SECONDS TARGET... - run by `make fuzz` from the repository root:
# each build/fuzz/fuzz_TARGET for SECONDS with the dictionary, on a scratch
# copy of fuzz/corpus/fuzz_TARGET (build/fuzz/work/TARGET) so the committed
# seeds are not flooded. Every target runs with -timeout=10 and
# -rss_limit_mb=512, so an input that takes 10 s or 512 MiB is a finding.
# Prints the executions per target; exits 1 if any target found a crash,
# leak, UB report, timeout or out-of-memory (its reproducer is
# build/fuzz/crash-TARGET-*, its log build/fuzz/TARGET.log). Ends with "N passed,
# N failed", one check per target.
secs=$1
shift
bad=0
ok=0
for t in "$@"; do
    work=build/fuzz/work/$t
    rm -rf "$work"
    mkdir -p "$work"
    cp fuzz/corpus/fuzz_$t/* "$work"/ 2>/dev/null
    log=build/fuzz/$t.log
    printf 'fuzz_%s: %ss ... ' "$t" "$secs"
    # info says on stderr what it could not print, for most mutated
    # inputs: closed (sanitizer reports still reach the log)
    quiet=
    case $t in info) quiet=-close_fd_mask=2 ;; tools) quiet=-close_fd_mask=3 ;; esac
    build/fuzz/fuzz_$t -dict=fuzz/perfdata.dict -max_len=65536 -max_total_time="$secs" -timeout=10 -rss_limit_mb=512 \
        $quiet -print_final_stats=1 -artifact_prefix=build/fuzz/crash-$t- "$work" >"$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    if [ $rc -eq 0 ]; then
        ok=$((ok + 1))
        echo "ok, ${execs:-?} executions"
    else
        bad=1
        echo "FAILED (exit $rc), ${execs:-?} executions; log: $log"
        grep -E 'ERROR: |SUMMARY: |Test unit written|runtime error' "$log" | head -n 5 | sed 's/^/    /'
    fi
done
echo "$ok passed, $((${#} - ok)) failed"
exit $bad
