#!/usr/bin/env bash
# The GPU machine has the CUDA driver, NVRTC and compute-sanitizer but no Rust toolchain:
# build here, carry the binaries, run them there.
#
#   scripts/gpu.sh stage      (here) build the release CLI and test binaries into .gpu/ (ignored)
#                             and print the command to run on the GPU machine
#   scripts/gpu.sh run [...]  (there, from the repo root) run what .gpu/ holds; writes logs to $OUT
#   scripts/gpu.sh libpath    (there) the folders of NVRTC and cuFFT, for LD_LIBRARY_PATH
#
# `run` steps, all by default, or name some: info tests sanitizer bench sweep
#   info       nvidia-smi and `coalesce info`
#   tests      every integration test binary (or those $TESTS names, a glob; only the tests
#              whose names contain $TEST_FILTER, if set), on every device,
#              with the exhaustive sweeps on; COALESCE_WISDOM_PICKS=FILE (pick names, one a line)
#              limits fft_tuning's wisdom tests to those entries, e.g. the ones a regeneration
#              of the table added or changed
#   tests-parallel  the same tests, each test on each device ($DEVICES, e.g. "opencl:0", or every
#              one `coalesce info` lists) a process of its own, $JOBS (12)
#              at a time, in $OUT/tests.txt one line a test (ok, FAILED or TIMEOUT, seconds),
#              then the logs of those not ok. The whole suite does not fit one call: in the
#              sixty-third session, JOBS=16 on an H200, 212 of 230 runs passed in 555 s, two
#              OpenCL ones timed out at 540 s beside 15 others (they took 148 s in a second
#              call, with the 16 not yet started); give the OpenCL runs of
#              `long_codelet_rows_every_kind` and the mirror-pairs quarters a call of their own
#              JOBS_FILE=FILE runs exactly the runs FILE names instead, "BINARY TEST DEVICE TOOL"
#              a line (TOOL "-" for none, else memcheck or racecheck on cuda), e.g. what a call
#              cut short left unrun
#   sanitizer-parallel  the sanitizer step the same way: each test under memcheck and under
#              racecheck on the CUDA device, a process each, into $OUT/sanitizer.txt
#   sanitizer  the tests on the CUDA device under compute-sanitizer memcheck and racecheck
#              (those of $TESTS, and $TEST_FILTER, as for tests)
#   cli-sanitizer  compute-sanitizer memcheck and racecheck on the CLI's `coalesce fft` of each
#              case in $SAN_CASES ("FILE ARGS;...": a .npy under .gpu/, made here with numpy after
#              `stage`, and the fft arguments, e.g. "san/c2r.npy --real --inverse --n 8192"): the
#              kernels a plan change adds, without the test suites' time
#   bench      `coalesce bench copy reduce transfer` with CSV
#   sweep      the copy kernel's tuning sweep
#   fft        `coalesce bench fft` (sweep, f64, real, plan) beside cuFFT, CSV + SVG plots;
#              extra arguments from $FFT_ARGS (e.g. "--suite sweep --sizes 2..512"); $FFT_BIN
#              runs another build instead (an older commit's CLI, staged beside, for A/B runs)
#   ab         same-run A/B: for each suite in $AB_SUITES (default "real"), `coalesce bench fft
#              --suite S $AB_ARGS` with the older CLI staged as .gpu/old/coalesce, then with this
#              one; CSVs and logs as ab/S-old-*.csv, ab/S-new-*.csv in $OUT/ab.tar.gz
#   accuracy   `coalesce bench fft --accuracy` (every N, f32 and f64, beside cuFFT), in
#              $ACCURACY_SHARDS (8) processes at once; merged CSVs accuracy-f32.csv, -f64.csv
#   permute    `coalesce bench permute` (seed cases, n^3 orders, 200 random permutations,
#              interlace, shifts) beside the naive gather, CSV; extra arguments from
#              $PERMUTE_ARGS (e.g. "--sweep" for the tile tuning table)
#   cases      `coalesce bench permute --sweep` on each permute in $PERMUTE_CASES ("SHAPE/AXES;...",
#              numpy order, e.g. "95,9,185,59,14/4,2,3,1,0"): every designed tile and block order
#   profile-permute  Nsight Compute on the tiled kernel of each permute in $PROFILE_PERMUTE (same
#              form; default $PERMUTE_CASES)
#   profile    Nsight Compute on the f32 kernel of kind $PROFILE_KIND (c2c, r2c or c2r; default
#              c2c) of each length in $PROFILE_SIZES (default "35 2904 4093"): throughput,
#              occupancy, bank conflicts, warp stalls
#   profile-bench  Nsight Compute on our kernels and cuFFT's in `bench fft $PROFILE_ARGS`
#              (default "--suite large-1d --sizes 1048576"); $PROFILE_COUNT launches of ours;
#              with $PROFILE_KERNELS ("REGEX REGEX ...", e.g. the hash suffixes fft_recipes
#              prints for a strided pass), instead the first $PROFILE_COUNT (1) launches of each
#   survey     registers and stack (nvcc -Xptxas -v, 16 at a time) of every kernel the fft_recipes
#              example designs for $SURVEY_ARGS (e.g. "$(seq 2 2048 | sed 's/^/f64:/')"), as CSV
#              name,registers,stack bytes,spill store bytes: a kernel of 32 registers and a
#              stack of kilobytes is one ptxas gave up on (see codegen's kernel_declaration)
#   registers  registers and spills (nvcc -Xptxas -v) of the kernel sources in .gpu/src, dumped
#              here after `stage` (which empties .gpu/) with
#              `cargo run --release --example fft_recipes -- --source .gpu/src N...`
set -u
cd "$(dirname "$0")/.."
STAGE=.gpu

stage() {
    set -e
    rm -rf "$STAGE"
    mkdir -p "$STAGE/tests" "$STAGE/lib"
    cargo build --release --bin coalesce --example fft_recipes
    cp target/release/coalesce target/release/examples/fft_recipes "$STAGE/"
    # Test executables, as cargo reports them.
    cargo test --release --no-run --message-format=json 2>/dev/null |
        python3 -c '
import json, sys
for line in sys.stdin:
    try: m = json.loads(line)
    except ValueError: continue
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["kind"] == ["test"]:
        print(m["target"]["name"], m["executable"])
' | while read -r name exe; do cp "$exe" "$STAGE/tests/$name"; done
    # The OpenCL ICD loader, so that the GPU's OpenCL driver (if the image has one) is tested too.
    for lib in /usr/lib/x86_64-linux-gnu/libOpenCL.so.1 /usr/lib/x86_64-linux-gnu/libOpenCL.so.1.*; do
        [ -f "$lib" ] && cp -L "$lib" "$STAGE/lib/libOpenCL.so.1" && break
    done
    cp scripts/gpu.sh scripts/gpu_ab.sh "$STAGE/"
    cp scripts/gpu_call.sh "$STAGE/call.sh"
    strip "$STAGE/coalesce" "$STAGE/fft_recipes" "$STAGE"/tests/* 2>/dev/null || true
    # Packed: the device tool carries 64 MiB at most, and the stripped test binaries come near
    # it (`run` unpacks them).
    (cd "$STAGE" && tar cJf tests.tar.xz tests && rm -rf tests)
    du -sh "$STAGE"
    echo
    echo "Run on the GPU machine (device tool), carrying $STAGE:"
    echo "  bash $STAGE/gpu.sh run"
    echo "or, from a call's command: source $STAGE/call.sh; suite_and_sanitizer (scripts/gpu_call.sh)"
}

# Folder of a CUDA library (nvrtc, cufft) on the GPU image: the toolkit's, or a Python wheel's.
find_cuda_lib_dir() {
    for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
        ls "$d"/lib"$1".so* >/dev/null 2>&1 && { echo "$d"; return; }
    done
    f=$(find / -xdev -name "lib$1.so*" -not -path '*/proc/*' 2>/dev/null | head -1)
    [ -n "$f" ] && dirname "$f"
}

# Each test of the binaries $TESTS names (those whose names hold $TEST_FILTER) on each device
# of $1 ("" for the default: every device), under each compute-sanitizer tool named after it
# ("-" for none), a process of its own, $JOBS (12) at a time: one after another the suite
# outlasts a call (the sixty-first session needed two calls and hand-made groups). Writes one
# line a test to $OUT/tests.txt (or sanitizer.txt), ok, FAILED or TIMEOUT and the seconds, then
# the logs of those not ok; fails if any is not ok, or if no test matches.
parallel_tests() {
    local devices=${1:-all} report="$OUT/tests.txt"
    shift
    [ "$1" = - ] || report="$OUT/sanitizer.txt"
    # A work folder of its own, so that runs started side by side (different $OUT) don't share
    # jobs.txt: in the sixty-second session two did and one ran the other's tests.
    local work
    work=$(mktemp -d /tmp/tests.XXXXXX)
    if [ -n "${JOBS_FILE:-}" ]; then
        # Exactly the runs a file names, "BINARY TEST DEVICE TOOL" a line (TOOL "-": no
        # sanitizer), e.g. those a call cut short left unrun.
        grep -v '^\s*$' "$JOBS_FILE" > "$work/jobs.txt.all"
    else
        for t in "$STAGE"/tests/${TESTS:-*}; do
            # shellcheck disable=SC2086
            "$t" --list ${TEST_FILTER:-} 2>/dev/null | sed -n 's/: test$//p' | while read -r name; do
                for d in $devices; do for tool in "$@"; do echo "$(basename "$t") $name $d $tool"; done; done
            done
        done > "$work/jobs.txt.all"
    fi
    # The longest tests first (a pattern of names, $LONG_FIRST), so that none starts late in a
    # call and runs past its end: the mirror-pairs quarters take 234-408 s each on an H200.
    local long=${LONG_FIRST:-quarter|wisdom_kernels|every_kind}
    { grep -E "$long" "$work/jobs.txt.all"; grep -vE "$long" "$work/jobs.txt.all"; } > "$work/jobs.txt"
    echo "$(wc -l < "$work/jobs.txt") runs (tests x devices x tools), ${JOBS:-12} at a time"
    [ -s "$work/jobs.txt" ] || { echo "!! no test matches TESTS='${TESTS:-*}' TEST_FILTER='${TEST_FILTER:-}'"; return 1; }
    # A sanitized test runs as the sanitizer step's did: not exhaustive, CUDA only.
    STAGE=$STAGE WORK=$work xargs -r -P "${JOBS:-12}" -L 1 bash -c '
        tag=${2/:/}; [ "$3" = - ] || tag=$tag-$3
        log=$WORK/$0-$1-$tag.log start=$(date +%s)
        [ "$2" = all ] || export COALESCE_TEST_DEVICES=$2
        export COALESCE_BIN="$PWD/$STAGE/coalesce"
        if [ "$3" = - ]; then
            COALESCE_FULL_TESTS=1 timeout 540 "$STAGE/tests/$0" --exact "$1" --test-threads 1 > "$log" 2>&1
        else
            COALESCE_UNDER_SANITIZER=1 timeout 540 compute-sanitizer --tool "$3" --target-processes application-only \
                --error-exitcode 9 "$STAGE/tests/$0" --exact "$1" --test-threads 1 > "$log" 2>&1
        fi
        rc=$? result=ok
        [ $rc = 124 ] && result=TIMEOUT
        [ $rc != 0 ] && [ $rc != 124 ] && result=FAILED
        # (A test that touches no GPU ends before the sanitizer checks anything.)
        [ $result = FAILED ] && grep -q "terminated before first instrumented API call" "$log" && result="ok (no GPU work)"
        echo "$result $(( $(date +%s) - start ))s $0 $1 $2 $3 $log"' < "$work/jobs.txt" > "$report.part"
    # (Line by line into .part as each test ends, so that a call cut short still shows them.)
    sort "$report.part" > "$report" && rm "$report.part"
    grep -v "^ok" "$report" | while read -r _ _ _ _ _ _ log; do
        echo "==== $log"; tail -n 40 "$log"
    done >> "$report"
    echo "$(grep -c "^ok" "$report") ok; not ok:"
    ! grep "^FAILED\|^TIMEOUT" "$report"
}

run() {
    local steps="${*:-info tests sanitizer bench sweep}"
    OUT=${OUT:-/tmp/coalesce-out}
    mkdir -p "$OUT"
    [ -d "$STAGE/tests" ] || [ ! -f "$STAGE/tests.tar.xz" ] || tar xJf "$STAGE/tests.tar.xz" -C "$STAGE"
    export LD_LIBRARY_PATH="$(find_cuda_lib_dir nvrtc):$(find_cuda_lib_dir cufft):${LD_LIBRARY_PATH:-}"
    export COALESCE_CACHE=/tmp/coalesce-kernel-cache
    # OpenCL through the carried loader; the NVIDIA ICD if the driver ships libnvidia-opencl.
    # The image's OCL_ICD_FILENAMES also names PoCL: CI tests PoCL, so device time here goes to
    # the GPU's two drivers (CUDA and NVIDIA's OpenCL) alone.
    unset OCL_ICD_FILENAMES
    if ldconfig -p | grep -q libnvidia-opencl.so.1; then
        mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
        export OCL_ICD_VENDORS=/tmp/icd OPENCL_DYLIB_PATH="$PWD/$STAGE/lib/libOpenCL.so.1"
    fi
    local status=0
    for step in $steps; do
        case $step in
        info)
            { nvidia-smi; "$STAGE/coalesce" info; } 2>&1 | tee "$OUT/info.txt" ;;
        tests)
            # (Loops piped into tee run in a subshell: failures are marked in the log with "!!".)
            for t in "$STAGE"/tests/${TESTS:-*}; do
                echo "== $(basename "$t")"
                # shellcheck disable=SC2086
                COALESCE_BIN="$PWD/$STAGE/coalesce" COALESCE_FULL_TESTS=1 timeout 540 "$t" --test-threads 4 ${TEST_FILTER:-} 2>&1 ||
                    echo "!! $(basename "$t") exited with $?"
            done | tee "$OUT/tests.txt"
            grep -q "^!!\|FAILED\|panicked" "$OUT/tests.txt" && status=1 ;;
        tests-parallel)
            parallel_tests "${DEVICES:-$("$STAGE/coalesce" info 2>/dev/null | grep -o '^\(cuda\|opencl\):[0-9]*' | sort -u)}" - || status=1 ;;
        sanitizer-parallel)
            parallel_tests cuda memcheck racecheck || status=1 ;;
        sanitizer)
            for tool in memcheck racecheck; do
                for t in "$STAGE"/tests/${TESTS:-*}; do
                    echo "== $tool $(basename "$t")"
                    log=$(COALESCE_BIN="$PWD/$STAGE/coalesce" COALESCE_TEST_DEVICES=cuda COALESCE_UNDER_SANITIZER=1 \
                        timeout 240 compute-sanitizer --tool "$tool" --target-processes application-only --error-exitcode 9 \
                        "$t" --test-threads 1 ${TEST_FILTER:-} 2>&1)
                    rc=$?
                    echo "$log" | tail -n 8
                    if [ $rc -ne 0 ] && echo "$log" | grep -q "terminated before first instrumented API call"; then
                        echo "(no GPU work in $(basename "$t"): nothing for the sanitizer to check)"
                    elif [ $rc -ne 0 ]; then
                        echo "!! $tool $(basename "$t") exited with $rc"
                    fi
                done
            done | tee "$OUT/sanitizer.txt"
            grep -q "^!!\|ERROR SUMMARY: [1-9]\|RACECHECK SUMMARY: [1-9]\|FAILED" "$OUT/sanitizer.txt" && status=1 ;;
        cli-sanitizer)
            IFS=';' read -ra cases <<< "${SAN_CASES:-}"
            for c in "${cases[@]}"; do
                read -r file args <<< "$c"
                for tool in memcheck racecheck; do
                    # shellcheck disable=SC2086
                    log=$(timeout 240 compute-sanitizer --tool "$tool" --error-exitcode 9 "$STAGE/coalesce" fft "$STAGE/$file" \
                        /tmp/san-out.npy --device cuda $args 2>&1)
                    rc=$?
                    echo "$file $args: $tool exit $rc $(echo "$log" | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | tail -n 1)"
                done
            done | tee "$OUT/cli-sanitizer.txt"
            grep -q "exit [1-9]\|ERROR SUMMARY: [1-9]\|RACECHECK SUMMARY: [1-9]" "$OUT/cli-sanitizer.txt" && status=1 ;;
        bench)
            mkdir -p /tmp/csv
            "$STAGE/coalesce" bench copy reduce transfer --csv /tmp/csv/bench.csv --markdown 2>&1 | tee "$OUT/bench.txt" ;;
        sweep)
            mkdir -p /tmp/csv
            "$STAGE/coalesce" bench copy --sweep --csv /tmp/csv/sweep.csv 2>&1 | tail -n 40 | tee "$OUT/sweep.txt" ;;
        fft)
            mkdir -p /tmp/csv
            # shellcheck disable=SC2086
            "${FFT_BIN:-$STAGE/coalesce}" bench fft ${FFT_ARGS:-} --csv /tmp/csv/fft.csv --markdown 2>&1 | tee "$OUT/fft.txt" ;;
        permute)
            mkdir -p /tmp/csv
            # shellcheck disable=SC2086
            "$STAGE/coalesce" bench permute ${PERMUTE_ARGS:-} --csv /tmp/csv/permute.csv --markdown 2>&1 | tee "$OUT/permute.txt" ;;
        cases)
            IFS=';' read -ra cases <<< "${PERMUTE_CASES:-95,9,185,59,14/4,2,3,1,0}"
            for c in "${cases[@]}"; do
                "$STAGE/coalesce" bench permute --sweep --shape "${c%/*}" --axes "${c#*/}" 2>&1
            done | tee "$OUT/cases.txt" ;;
        profile-permute)
            IFS=';' read -ra cases <<< "${PROFILE_PERMUTE:-${PERMUTE_CASES:-95,9,185,59,14/4,2,3,1,0}}"
            for c in "${cases[@]}"; do
                echo "== permute $c"
                ncu --clock-control none --kernel-name "regex:^permute_tiled" --launch-skip 3 --launch-count 1 \
                    --section SpeedOfLight --section Occupancy --section LaunchStats \
                    --section MemoryWorkloadAnalysis_Tables --section WarpStateStats \
                    "$STAGE/coalesce" bench permute --shape "${c%/*}" --axes "${c#*/}" 2>&1 | grep -v "^==PROF==" | tail -n 120
            done | tee "$OUT/profile-permute.txt" ;;
        ab)
            mkdir -p "$OUT/ab"
            for suite in ${AB_SUITES:-real}; do
                for side in old new; do
                    bin="$STAGE/coalesce"; [ $side = old ] && bin="$STAGE/old/coalesce"
                    rm -rf /tmp/ab-csv; mkdir -p /tmp/ab-csv
                    # shellcheck disable=SC2086
                    "$bin" bench fft --suite "$suite" ${AB_ARGS:-} --csv /tmp/ab-csv/fft.csv > "$OUT/ab/$suite-$side.txt" 2>&1 ||
                        { echo "!! $side CLI failed on --suite $suite"; status=1; }
                    for f in /tmp/ab-csv/*.csv; do [ -f "$f" ] && cp "$f" "$OUT/ab/$suite-$side-$(basename "$f")"; done
                done
            done
            # One archive: the device tool brings back at most 8 files.
            tar czf "$OUT/ab.tar.gz" -C "$OUT" ab && rm -rf "$OUT/ab" ;;
        accuracy)
            # One process compiled too slowly on a fresh machine (6144 kernels; over 420 s):
            # $ACCURACY_SHARDS (8) processes each take every 8th length, then one table per
            # precision is merged, rows by length, with the summary the CLI would print.
            mkdir -p /tmp/csv/accuracy
            local shards=${ACCURACY_SHARDS:-8}
            for i in $(seq 0 $((shards - 1))); do
                "$STAGE/coalesce" bench fft --accuracy ${ACCURACY_ARGS:-} --sizes "$(seq 1 4096 | awk -v s="$shards" -v i="$i" 'NR % s == i' | paste -sd,)" \
                    --csv "/tmp/csv/accuracy/part$i.csv" > "/tmp/csv/accuracy/part$i.txt" 2>&1 &
            done
            wait
            for i in $(seq 0 $((shards - 1))); do
                [ -f "/tmp/csv/accuracy/part$i.csv" ] || { echo "!! accuracy shard $i wrote no table:"; tail -n 3 "/tmp/csv/accuracy/part$i.txt"; status=1; }
            done
            for precision in f32 f64; do
                # Each shard writes f32's table as partI.csv and f64's as partI-2.csv.
                case $precision in f32) pattern='part[0-9]+\.csv$'; target=1e-6 ;; f64) pattern='part[0-9]+-2\.csv$'; target=2e-15 ;; esac
                files=$(ls /tmp/csv/accuracy/*.csv | grep -E "$pattern")
                [ -n "$files" ] || continue
                { head -n 1 $(echo "$files" | head -n 1); for f in $files; do tail -n +2 "$f"; done | sort -t, -k1 -n; } > "/tmp/csv/accuracy-$precision.csv"
                awk -F, -v p="$precision" -v t="$target" 'NR > 1 {
                        n++; for (c = 2; c <= 3; c++) { if ($c + 0 > w) { w = $c + 0; wn = $1 } if ($c !~ /^[0-9.e+-]+$/ || $c + 0 > t) over[$1] = 1 }
                        for (c = 4; c <= 5; c++) if ($c != "-" && $c + 0 > cw) { cw = $c + 0; cn = $1 } }
                    END { k = 0; for (x in over) k++
                        printf "%s: %d sizes; largest error %.2e (N=%d); target %s: %d sizes above it\n", p, n, w, wn, t, k
                        if (cn) printf "%s: cuFFT on the same inputs: largest error %.2e (N=%d)\n", p, cw, cn }' "/tmp/csv/accuracy-$precision.csv"
            done | tee "$OUT/accuracy.txt"
            rm -rf /tmp/csv/accuracy ;;
        profile-bench)
            # Nsight Compute on the kernels of one bench run: ours (names fft_*) and, in a second
            # run, the first $PROFILE_OTHERS (4) launches whose names do not start with f (cuFFT's).
            local patterns=("regex:^fft_" "regex:^[^f]")
            if [ -n "${PROFILE_KERNELS:-}" ]; then
                read -ra patterns <<< "$PROFILE_KERNELS"
                patterns=("${patterns[@]/#/regex:}")
            fi
            for pattern in "${patterns[@]}"; do
                local count=${PROFILE_COUNT:-4}; [ "$pattern" != "regex:^[^f]" ] || count=${PROFILE_OTHERS:-4}
                [ -z "${PROFILE_KERNELS:-}" ] || count=${PROFILE_COUNT:-1}
                echo "== $pattern"
                # shellcheck disable=SC2086
                ncu --clock-control none --kernel-name "$pattern" --launch-count "$count" \
                    --section SpeedOfLight --section Occupancy --section LaunchStats \
                    --section MemoryWorkloadAnalysis_Tables --section WarpStateStats \
                    "$STAGE/coalesce" bench fft ${PROFILE_ARGS:---suite large-1d --sizes 1048576} 2>&1 | grep -v "^==PROF==" | tail -n 400
            done | tee -a "$OUT/profile-bench.txt" ;;
        profile)
            kind=${PROFILE_KIND:-c2c}
            suite=sweep; [ "$kind" = c2c ] || suite=real
            for n in ${PROFILE_SIZES:-35 2904 4093}; do
                echo "== $kind n=$n"
                ncu --clock-control none --kernel-name "regex:^fft_${kind}_f32_n${n}_" --launch-count 1 \
                    --section SpeedOfLight --section Occupancy --section LaunchStats \
                    --section MemoryWorkloadAnalysis_Tables --section WarpStateStats \
                    "$STAGE/coalesce" bench fft --suite "$suite" --sizes "$n" 2>&1 | grep -v "^==PROF==" | tail -n 120
            done | tee -a "$OUT/profile.txt" ;;
        survey)
            rm -rf /tmp/survey && mkdir -p /tmp/survey
            # shellcheck disable=SC2086
            "$STAGE/fft_recipes" --source /tmp/survey ${SURVEY_ARGS:-} > /dev/null
            # shellcheck disable=SC2016
            find /tmp/survey -name '*.cu' | xargs -P 16 -I{} bash -c '
                r=$(nvcc -w -arch=sm_90 -cubin -o "${1%.cu}.cubin" -Xptxas -v "$1" 2>&1 | tr "\n" " ")
                rm -f "${1%.cu}.cubin"
                num() { echo "$r" | grep -o "[0-9]* $1" | head -1 | grep -o "^[0-9]*"; }
                echo "$(basename "$1" .cu),$(echo "$r" | grep -o "Used [0-9]* registers" | grep -o "[0-9]*"),$(num "bytes stack frame"),$(num "bytes spill stores")"
            ' _ {} | sort > "$OUT/survey.csv"
            echo "$(wc -l < "$OUT/survey.csv") kernels; given up on (32 registers or fewer, stack over 4 KB):"
            awk -F, '$2 <= 32 && $3 > 4096' "$OUT/survey.csv" ;;
        registers)
            for f in "$STAGE"/src/*.cu; do
                [ -f "$f" ] || { echo "no sources in $STAGE/src: dump them with the fft_recipes example"; break; }
                echo "$(basename "$f" .cu): $(nvcc -arch=sm_90 -cubin -o /tmp/k.cubin -Xptxas -v "$f" 2>&1 |
                    grep -E "registers|spill" | tr '\n' ' ' | sed -E 's/ptxas info *: //g; s/ +/ /g')"
            done | tee "$OUT/registers.txt" ;;
        *)
            echo "unknown step '$step': use info tests tests-parallel sanitizer sanitizer-parallel bench sweep fft ab permute cases accuracy profile profile-bench profile-permute survey registers"; exit 2 ;;
        esac
    done
    # CSVs travel as one archive: the device tool brings back at most 8 files.
    [ -d /tmp/csv ] && tar czf "$OUT/csv.tar.gz" -C /tmp csv
    echo "gpu.sh: steps [$steps] finished with status $status"
    return $status
}

case "${1:-}" in
stage) stage ;;
run) shift; run "$@" ;;
# The folders of NVRTC and cuFFT, for LD_LIBRARY_PATH (gpu_call.sh's).
libpath) echo "$(find_cuda_lib_dir nvrtc):$(find_cuda_lib_dir cufft)" ;;
*) echo "usage: scripts/gpu.sh stage | run [info tests sanitizer bench sweep fft ab permute accuracy profile survey registers] | libpath"; exit 2 ;;
esac
