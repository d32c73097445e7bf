#!/usr/bin/env bash
# The wisdom entries (their picks, one a line) that src/fft/wisdom/hopper.tsv adds or changes
# since the commit REV (default HEAD), for a short GPU check of a regenerated table:
#   bash scripts/wisdom_changed_picks.sh HEAD~1 > .gpu/picks.txt      (after `gpu.sh stage`)
#   COALESCE_WISDOM_PICKS=.gpu/picks.txt TESTS=fft_tuning TEST_FILTER=wisdom_kernels bash .gpu/gpu.sh run tests-parallel
set -euo pipefail
cd "$(dirname "$0")/.."
table=src/fft/wisdom/hopper.tsv
# A pick is listed where its faster kernel is new (a gain that moved alone runs no new kernel).
entries() { grep -v '^#' | cut -f1,2 | sort; }
comm -13 <(git show "${1:-HEAD}:$table" | entries) <(entries < "$table") | cut -f1
