#!/usr/bin/env bash
# Same-run A/Bs and variant sweeps on the GPU machine, several CLIs in one call.
#
# Here: `bash scripts/gpu.sh stage`, then put the CLIs to compare under .gpu/bins/NAME (e.g. an
# older commit's build as .gpu/bins/old, this one's as .gpu/bins/new) and any size lists as
# .gpu/FILE (comma-separated). There (device tool, carrying .gpu):
#   BINS="old new" AB_RUNS="sweep|@lengths.txt;real|3089,3194" VAR_RUNS="variants|@f.txt|bluestein whole" \
#       bash .gpu/gpu_ab.sh
# Each CLI first compiles every kernel it will time, SHARDS (14) processes at once into its own
# kernel cache; then for ROUNDS (2) rounds each CLI in turn times `bench fft --suite S --sizes
# LIST` of each AB_RUNS entry (in reverse order in even rounds); then the CLI named new times each VAR_RUNS entry's `--suite S
# --sizes LIST --variants NAMES` VAR_ROUNDS (1) times (NAMES empty: every variant). CSVs and
# logs come back in $OUT/ab.tar.gz as ab/S-BIN-ROUND.csv and ab/varK-S-ROUND.csv (and under
# $OUT/ab as they are written, should the call run out of time), beside ab/power.csv (the SM
# clock, power and temperature from nvidia-smi twice a second) and ab/runs.txt (when each timed
# run started). A sizes field @FILE reads .gpu/FILE.
# Here, `python3 scripts/ab_compare.py FILES_AT/ab.tar.gz [--changed OLD.tsv NEW.tsv]` sums up the A/B.
# Variants CSVs kept for the wisdom go into docs/fft gzipped (`gzip -9n`, as docs/fft/variants-*.csv.gz):
# the tracked tree travels to the GPU machine with .gpu, 64 MiB in all.
set -u
cd "$(dirname "$0")/.."
# NVRTC and cuFFT as gpu.sh finds them (staged beside this script as .gpu/gpu.sh).
export LD_LIBRARY_PATH="$(bash .gpu/gpu.sh libpath):${LD_LIBRARY_PATH:-}"
mkdir -p $OUT/ab
SHARDS=${SHARDS:-14}; ROUNDS=${ROUNDS:-2}; VAR_ROUNDS=${VAR_ROUNDS:-1}
# Every CLI named must be there (`stage` empties .gpu/: put them back after it).
for b in $BINS; do
  [ -x .gpu/bins/$b ] || { echo "gpu_ab.sh: no CLI at .gpu/bins/$b (after staging, e.g. strip -o .gpu/bins/$b target/release/coalesce)" >&2; exit 2; }
done
shard() { # sizes list, i -> every SHARDS-th element
  echo "$1" | tr ',' '\n' | awk -v s=$SHARDS -v i=$2 'NR%s==i' | paste -sd, ; }
t0=$(date +%s)
# Warm-up: compile every kernel into each bin's cache, in parallel shards. A CLI that has
# `--compile-only` (sixtieth session) only compiles; an older one times each shard once too
# (in the sixtieth session's first call that warm-up took 337 of 595 s). Suites in passes
# (large-1d, 2d, 3d, layouts, strided) have no `--compile-only`: they compile as round 1
# times them.
compiles_only() { case "$1" in sweep|f64|real|r2c|c2r|real-f64|variants*) true ;; *) false ;; esac; }
expand() { case "$1" in @*) cat ".gpu/${1#@}";; *) echo "$1";; esac; }
IFS=';' read -ra AB <<< "${AB_RUNS:-}"
IFS=';' read -ra VR <<< "${VAR_RUNS:-}"
for b in $BINS; do
  only=""; .gpu/bins/$b bench --help 2>/dev/null | grep -q -- --compile-only && only=--compile-only
  for i in $(seq 0 $((SHARDS-1))); do
    (
      for run in "${AB[@]}"; do s=${run%%|*}; [ -n "$only" ] && ! compiles_only $s && continue; z=$(shard "$(expand "${run#*|}")" $i); [ -n "$z" ] && COALESCE_CACHE=/tmp/cc-$b .gpu/bins/$b bench fft --suite $s --sizes $z $only >/dev/null 2>>$OUT/ab/warm-$b.err; done
      if [ $b = new ]; then for run in "${VR[@]}"; do IFS='|' read -r s z v <<< "$run"; z=$(shard "$(expand "$z")" $i); [ -n "$z" ] && COALESCE_CACHE=/tmp/cc-$b .gpu/bins/$b bench fft --suite $s --sizes $z ${v:+--variants "$v"} $only >/dev/null 2>>$OUT/ab/warm-$b.err; done; fi
    ) &
  done
done
wait
echo "warm-up $(( $(date +%s) - t0 )) s"
# The device's clock, power and temperature beside the timed runs, every half second, and when
# each run started (runs.txt, in nvidia-smi's time format): an H200 reaches its 700 W software
# cap within seconds of a run and clocks lower as it warms, which moved the real suite's count
# at 0.85 of copy from 337 to 258 between runs of one session (eighty-second session).
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv -lms 500 >$OUT/ab/power.csv 2>&1 &
  SMI=$!
  trap 'kill $SMI 2>/dev/null' EXIT
  trap 'exit 143' TERM
fi
mark() { echo "$(date '+%Y/%m/%d %H:%M:%S.%3N') $1" >>$OUT/ab/runs.txt; }
# Even rounds run the CLIs in reverse order: in the thirty-ninth session's real suite the CLI
# that ran second in a pair was ~3% slower on identical kernels, whichever it was.
reversed() { echo "$@" | tr ' ' '\n' | tac | paste -sd' '; }
for r in $(seq 1 $ROUNDS); do
  order=$BINS; [ $((r % 2)) = 0 ] && order=$(reversed $BINS)
  for run in "${AB[@]}"; do s=${run%%|*}; z=$(expand "${run#*|}")
    for b in $order; do mark "$s-$b-$r"; COALESCE_CACHE=/tmp/cc-$b .gpu/bins/$b bench fft --suite $s --sizes $z --csv $OUT/ab/$s-$b-$r.csv > $OUT/ab/$s-$b-$r.log 2>&1 || echo "fail $s $b"; done
  done
done
echo "ab $(( $(date +%s) - t0 )) s"
for r in $(seq 1 $VAR_ROUNDS); do
  n=0; for run in "${VR[@]}"; do IFS='|' read -r s z v <<< "$run"; z=$(expand "$z"); n=$((n+1))
    mark "var$n-$s-$r"
    COALESCE_CACHE=/tmp/cc-new .gpu/bins/new bench fft --suite $s --sizes $z ${v:+--variants "$v"} --csv $OUT/ab/var$n-$s-$r.csv > $OUT/ab/var$n-$s-$r.log 2>&1 || echo "fail var $n round $r"
  done
done
echo "variants $(( $(date +%s) - t0 )) s"
[ -n "${SMI:-}" ] && kill $SMI 2>/dev/null
cd $OUT && tar czf ab.tar.gz ab && rm -rf ab
