#!/usr/bin/env python3
"""One round's variants CSVs of many `gpu_ab.sh` VAR_RUNS entries, merged into one CSV a suite,
as `fft_wisdom` takes a round.

    python3 scripts/merge_variant_runs.py OUTDIR ab/var1-variants-1.csv ab/var2-variants-c2r-1.csv ...

Each file is `varK-SUITE-ROUND.csv` (gpu_ab.sh's name); the files of one round, in the order of
their runs. Writes OUTDIR/SUITE.csv for each suite named.

Why merge, and why keep only a row's first timing: `fft_wisdom` counts each CSV as one round,
and a (pick, variant, kernel) that one CSV holds twice it drops as ambiguous. A length that
several runs time (`fft_wisdom --stale` gave one run to each path until the eighty-second
session, and `--variants PATH` times the table's own entry beside it each time; a campaign may
time a length in two runs) would lose its entry that way. Each row's gain
is over the pick timed in its own run, so any one of its timings stands; the first is kept.
"""
import collections
import os
import re
import sys


def merge(paths):
    """SUITE -> (header, rows) over the files, each (n, variant, kernel) once."""
    merged, seen = {}, collections.defaultdict(set)
    for path in paths:
        m = re.search(r"var\d+-(.+)-\d+\.csv$", os.path.basename(path))
        if not m:
            sys.exit(f"merge_variant_runs.py: {path} is not named varK-SUITE-ROUND.csv (gpu_ab.sh's name)")
        suite = m.group(1)
        lines = open(path).read().splitlines()
        header, rows = merged.setdefault(suite, (lines[0], []))
        if lines[0] != header:
            sys.exit(f"merge_variant_runs.py: {path} has another header than the {suite} files before it")
        for line in filter(None, lines[1:]):
            key = tuple(line.split(",")[:3])
            if key not in seen[suite]:
                seen[suite].add(key)
                rows.append(line)
    return merged


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for suite, (header, rows) in merge(sys.argv[2:]).items():
        with open(os.path.join(out, f"{suite}.csv"), "w") as f:
            f.write(header + "\n" + "\n".join(rows) + "\n")
        print(f"{out}/{suite}.csv: {len(rows)} rows")


if __name__ == "__main__":
    main()
