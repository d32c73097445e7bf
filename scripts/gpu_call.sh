# Sourced at the start of a device-tool call, from the repository root there (`stage` copies it
# into .gpu/): `source .gpu/call.sh; ...`, or `LIMIT=150 source .gpu/call.sh; ...` for a call
# that must end within 150 s (default 590, under the tool's 600 s a call).
#
#   left [RESERVE]    seconds left of the limit, less RESERVE: for `timeout $(left 15) ...`
#   guarded_ab DIR VAR=VALUE...
#                     gpu_ab.sh with those variables (BINS, AB_RUNS, VAR_RUNS, ...), cut off
#                     $RESERVE (10) s before the limit, its CSVs packed into $OUT/DIR.tar.gz
#   suite_and_sanitizer [SAN_CASES]
#                     the whole test suite on cuda:0 (tests-parallel, the wisdom tests with an
#                     empty picks file: set COALESCE_WISDOM_PICKS first to check entries), and
#                     beside it cli-sanitizer on SAN_CASES if given; logs in $OUT/t.tar.gz
#
# The limit is read once, here: `LIMIT=N source` sets LIMIT for the sourcing alone.
CALL_T0=$(date +%s)
CALL_LIMIT=${LIMIT:-590}
left() { echo $((CALL_LIMIT - ($(date +%s) - CALL_T0) - ${1:-0})); }
export LD_LIBRARY_PATH="$(bash .gpu/gpu.sh libpath):${LD_LIBRARY_PATH:-}"

guarded_ab() {
    local d=$1
    shift
    mkdir -p "$OUT/$d"
    env "$@" OUT="$OUT/$d" timeout "$(left "${RESERVE:-10}")" bash .gpu/gpu_ab.sh >"$OUT/$d/ab.log" 2>&1
    echo "ab rc=$?"
    (cd "$OUT" && tar czf "$d.tar.gz" "$d" && rm -rf "$d")
}

suite_and_sanitizer() {
    if [ -z "${COALESCE_WISDOM_PICKS:-}" ]; then
        : >.gpu/picks0.txt
        export COALESCE_WISDOM_PICKS=$PWD/.gpu/picks0.txt
    fi
    if [ -n "${1:-}" ]; then
        (SAN_CASES="$1" OUT="$OUT/s" timeout "$(left 20)" bash .gpu/gpu.sh run cli-sanitizer >/dev/null 2>&1; echo "sanitizer rc=$?") &
    fi
    DEVICES=cuda:0 JOBS=${JOBS:-14} OUT="$OUT/t" timeout "$(left 15)" bash .gpu/gpu.sh run tests-parallel >"$OUT/tests.log" 2>&1
    echo "tests rc=$?"
    wait
    [ -f "$OUT/s/cli-sanitizer.txt" ] && cat "$OUT/s/cli-sanitizer.txt"
    tail -n 3 "$OUT/tests.log"
    (cd "$OUT" && tar czf t.tar.gz t $([ -d s ] && echo s) tests.log && rm -rf t s)
}
