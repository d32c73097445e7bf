#!/usr/bin/env bash
# Lengths whose kernel offers a variant, as the comma list a campaign's @FILE takes:
#   bash scripts/variant_lengths.sh 'rader codelets every prime' r2c: 2 4096 > rka-r2c.txt
#   bash scripts/variant_lengths.sh 'rader / rader codelets' '' > rader-rk.txt
# A single name is looked up among the variants of the heuristic's pick, a path 'A / B' among
# those of the recipe that A reaches from it, as the variants suite times them. (Until the
# sixty-second session a single name was looked up from the wisdom's kernel: 276 of the 2295
# lengths listed for `prime-factor convolution` then timed no such row.)
# PREFIX is fft_recipes's kind and precision ('' for C2C f32, r2c:, c2r:, f64:, f64:r2c:,
# f64:c2r:); real kinds keep even lengths only, as the variants-r2c / -c2r suites time them.
set -euo pipefail
cd "$(dirname "$0")/.."
variant=$1 prefix=${2:-} lo=${3:-2} hi=${4:-4096}
steps="@" last=$variant
if [[ $variant == *" / "* ]]; then
    steps="@${variant% / *}" last=${variant##* / }
fi
real=0
[[ $prefix == *r2c:* || $prefix == *c2r:* ]] && real=1
cargo build --release --example fft_recipes -q
# One argument a length (a path's steps may hold spaces).
mapfile -t lengths < <(seq "$lo" "$hi" | sed "s|^|$prefix|; s|\$|$steps|")
./target/release/examples/fft_recipes --variants "${lengths[@]}" |
    awk -v want="  variant $last:" -v real="$real" '
        /^fft_/ { match($0, /_n[0-9]+_/); n = substr($0, RSTART + 2, RLENGTH - 3) }
        index($0, want) == 1 && (!real || n % 2 == 0) { print n }' |
    sort -un | paste -sd,
