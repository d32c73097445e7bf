#!/usr/bin/env python3
"""The wisdom entries whose kernel was not timed in the last round that timed their pick, as
`gpu_ab.sh` VAR_RUNS entries that time them again beside the pick.

A gain is over the pick's code of its run, and that code changes under an unchanged kernel
name. So an entry that won in an older run, and that no later run timed while a later run did
time its pick, may no longer be faster: in the sixty-second session C2C 547's entry had dropped
out (0.993x in that session's rounds), and a rival of the fifty-first session that no run had
timed since took its place and ran 0.95x of the pick's speed in the sweep.

    python3 scripts/stale_wisdom.py [--since REV] [--out .gpu]

For each such entry, and with --since for each entry the table changed since the commit REV
(the old entry's path too, so that one run times both), it writes the lengths of each (suite,
path) to OUT/stale-K.txt and prints the VAR_RUNS string; run there as
`BINS=new ROUNDS=0 VAR_ROUNDS=2 VAR_RUNS="..." bash .gpu/gpu_ab.sh`, then regenerate the table
with the CSVs added (`--variants PATH` times the path, the table's own entry and the pick).
"""
import argparse
import collections
import csv
import gzip
import io
import os
import subprocess
import sys

TABLE = "src/fft/wisdom/hopper.tsv"
SUITES = {  # (kind, precision) of the pick's kernel name -> the variants suite
    ("c2c", "f32"): "variants", ("c2c", "f64"): "variants-f64",
    ("r2c", "f32"): "variants-r2c", ("c2r", "f32"): "variants-c2r",
    ("r2c", "f64"): "variants-r2c-f64", ("c2r", "f64"): "variants-c2r-f64",
}


def entries(text):
    """pick -> (faster kernel, variant path) of a table's text."""
    out = {}
    for line in text.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        pick, faster, variant, _gain = line.split("\t")
        out[pick] = (faster, variant)
    return out


def sources(text):
    """The CSVs the table's header names, in the order given (the campaigns' order)."""
    line = next(l for l in text.splitlines() if "fft_wisdom --" in l)
    return line.split("fft_wisdom --")[1].split("`")[0].split()


def rounds_timed(files):
    """(pick, variant, kernel) -> rounds that timed it; pick -> its last round."""
    timed, last = collections.defaultdict(set), {}
    for i, path in enumerate(files):
        text = gzip.open(path, "rt").read() if path.endswith(".gz") else open(path).read()
        rows = list(csv.DictReader(io.StringIO(text)))
        picks = {r["n"]: r["kernel"] for r in rows if r["variant"] == "heuristic"}
        for r in rows:
            pick = picks.get(r["n"])
            if pick:
                last[pick] = max(last.get(pick, -1), i)
                timed[(pick, r["variant"], r["kernel"])].add(i)
    return timed, last


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--since", help="also each entry the table changed since this commit, with its old path")
    ap.add_argument("--out", default=".gpu", help="folder for the length lists (default .gpu)")
    args = ap.parse_args()
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    text = open(TABLE).read()
    table = entries(text)
    timed, last = rounds_timed(sources(text))
    runs = collections.defaultdict(set)  # (suite, path) -> lengths
    stale = 0
    for pick, (faster, path) in table.items():
        rounds = timed.get((pick, path, faster), set())
        if rounds and max(rounds) < last.get(pick, -1):
            stale += 1
            runs[(pick, path)].add(path)
    changed = 0
    if args.since:
        old = entries(subprocess.run(["git", "show", f"{args.since}:{TABLE}"], capture_output=True, text=True, check=True).stdout)
        for pick, (faster, path) in table.items():
            if pick in old and old[pick][0] != faster:
                changed += 1
                runs[(pick, path)].update([path, old[pick][1]])
    by_run = collections.defaultdict(set)
    for (pick, _), paths in runs.items():
        _fft, kind, precision, n = pick.split("_")[:4]
        for path in paths:
            by_run[(SUITES[(kind, precision)], path)].add(int(n[1:]))
    os.makedirs(args.out, exist_ok=True)
    var_runs = []
    for k, ((suite, path), lengths) in enumerate(sorted(by_run.items())):
        name = f"stale-{k}.txt"
        with open(os.path.join(args.out, name), "w") as f:
            f.write(",".join(map(str, sorted(lengths))) + "\n")
        var_runs.append(f"{suite}|@{name}|{path}")
    print(f"{stale} stale entries, {changed} changed since {args.since}; {len(var_runs)} runs "
          f"(one a suite and path), {sum(map(len, by_run.values()))} timings of a path",
          file=sys.stderr)
    print(";".join(var_runs))


if __name__ == "__main__":
    main()
