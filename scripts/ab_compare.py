#!/usr/bin/env python3
"""Summarise a same-run A/B of `scripts/gpu_ab.sh`: the speed of one CLI over another per row.

gpu_ab.sh writes ab/SUITE-BIN-ROUND.csv (and SUITE-BIN-ROUND-2.csv where a suite prints a second
table: the real suite's C2R). For every table both CLIs wrote in every round, this prints the
rows' speed-ups (BASE's ms over BIN's, each round), their geometric mean, the rows faster and
slower by 3% in every round, the fewest and most, and where the CSV has them the rows slower
than cuFFT in every round and the median fraction of copy, before and after:

    python3 scripts/ab_compare.py /work/.device/4/ab.tar.gz        # or an extracted ab/ folder
    python3 scripts/ab_compare.py DIR --rows @lengths.txt          # only these rows ("n" / "case")
    python3 scripts/ab_compare.py DIR --changed OLD.tsv NEW.tsv    # only lengths whose wisdom
                                                                   # kernel changed between tables
    python3 scripts/ab_compare.py DIR --csv docs/fft/ab-NAME-h200.csv.gz   # and every row's times
                                                                   # in one CSV (gzipped if .gz)

With --changed, each row slower by 3% in every round is listed with its old and new wisdom
paths, and a VAR_RUNS line re-times both in one run (the variants suite times the planned
kernel beside the named one): candidates the wisdom ranked from different runs, or whose gain
did not repeat in one big search, are then compared side by side before the table is
regenerated (fifty-first session, docs/BENCHMARKS.md).
"""
import argparse
import csv
import gzip
import math
import os
import re
import statistics
import sys
import tarfile
import tempfile
from collections import defaultdict

SLOWER, FASTER = 0.97, 1.03
KERNEL = re.compile(r"fft_(c2c|r2c|c2r)_(f32|f64)_n(\d+)_")


def ab_folder(path):
    """The folder of CSVs: `path` itself, or where its tarball (ab.tar.gz) extracts to."""
    if os.path.isdir(path):
        return path
    out = tempfile.mkdtemp(prefix="ab_compare_")
    with tarfile.open(path) as tar:
        tar.extractall(out, filter="data")
    return os.path.join(out, "ab")


def tables(folder, base, new):
    """{(suite, table suffix): {bin: {round: path}}} for the two CLIs."""
    pattern = re.compile(rf"^(.+)-({re.escape(base)}|{re.escape(new)})-(\d+)(-2)?\.csv$")
    found = defaultdict(lambda: defaultdict(dict))
    for name in sorted(os.listdir(folder)):
        m = pattern.match(name)
        if m:
            suite, b, rnd, second = m.groups()
            found[(suite, second or "")][b][int(rnd)] = os.path.join(folder, name)
    return found


def rows_of(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    key = "n" if rows and "n" in rows[0] else "case"
    return {r[key]: r for r in rows}


def wisdom(path):
    """{(kind, precision, n): (faster kernel, variant path)} of a wisdom table."""
    table = {}
    with open(path) as f:
        for line in f:
            if line.startswith("fft_"):
                pick, faster, variant, _ = line.rstrip("\n").split("\t")
                m = KERNEL.match(pick)
                table[(m.group(1), m.group(2), int(m.group(3)))] = (faster, variant)
    return table


def variants_suite(kind, precision):
    """The variants suite of a kind and precision (`variants`, `variants-r2c-f64`, ...)."""
    return "-".join(["variants"] + ([kind] if kind != "c2c" else []) + ([precision] if precision != "f32" else []))


def number(row, column):
    try:
        return float(row[column])
    except (KeyError, ValueError):
        return math.nan


def per_row(name, keys, rounds, before, after, base, new):
    """The CSV lines of one table: each row's kernels, its ms in each round of each CLI and
    cuFFT's ms in round 1 of each CLI's run."""
    header = ["table", "n or case", f"kernel ({base})", f"kernel ({new})"]
    header += [f"ms {b} r{r}" for b in (base, new) for r in rounds] + [f"cuFFT ms r{rounds[0]} ({b} run)" for b in (base, new)]
    lines = []
    for k in keys:
        line = [name, k, before[0][k].get("kernel", ""), after[0][k].get("kernel", "")]
        line += [t[k].get("ms", "") for t in before + after] + [t[k].get("cuFFT ms", "") for t in (before[0], after[0])]
        lines.append(line)
    return header, lines


def summarise(name, runs, base, new, keep, old_wisdom, new_wisdom):
    """Prints the table's summary; returns its rows for --csv (None where nothing compares)."""
    rounds = sorted(set(runs[base]) & set(runs[new]))
    if not rounds:
        return None
    before = [rows_of(runs[base][r]) for r in rounds]
    after = [rows_of(runs[new][r]) for r in rounds]
    keys = [k for k in after[0] if all(k in t for t in before + after) and keep(after[0][k])]
    if not keys:
        return None
    gains = {k: [number(b[k], "ms") / number(a[k], "ms") for b, a in zip(before, after)] for k in keys}
    mean = {k: statistics.geometric_mean(g) for k, g in gains.items()}
    ranked = sorted(keys, key=lambda k: mean[k])
    faster = [k for k in keys if min(gains[k]) > FASTER]
    slower = [k for k in keys if max(gains[k]) < SLOWER]
    m = KERNEL.match(after[0][keys[0]].get("kernel", ""))
    if m:
        name += f" ({m.group(1).upper()} {m.group(2)})"
    print(f"{name}: {len(keys)} rows over {len(rounds)} rounds, {new} / {base} {statistics.geometric_mean(mean.values()):.3f}x; "
          f"faster by 3% in every round {len(faster)}, slower by 3% {len(slower)}")
    print("  least: " + ", ".join(f"{k} {mean[k]:.3f}" for k in ranked[:5]) + "; most: " + ", ".join(f"{k} {mean[k]:.3f}" for k in ranked[-3:]))
    if "speedup vs cuFFT" in after[0][keys[0]]:
        behind = lambda tables: sum(all(number(t[k], "speedup vs cuFFT") < 1.0 for t in tables) for k in keys)
        copy = lambda t: statistics.median(number(t[k], "of copy") for k in keys)
        print(f"  slower than cuFFT in every round: {behind(before)} -> {behind(after)}; median of copy {copy(before[0]):.3f} -> {copy(after[0]):.3f}")
    for k in sorted(slower, key=lambda k: mean[k]):
        row = after[0][k]
        line = f"  slower: {k} " + " ".join(f"{g:.3f}" for g in gains[k]) + f"  {before[0][k].get('kernel', '')} -> {row.get('kernel', '')}"
        m = KERNEL.match(row.get("kernel", ""))
        if m and old_wisdom is not None:
            at = (m.group(1), m.group(2), int(m.group(3)))
            old_path, new_path = (old_wisdom.get(at, ("", "-"))[1], new_wisdom.get(at, ("", "-"))[1])
            named = old_path if old_path != "-" else new_path
            line += f"\n      wisdom '{old_path}' -> '{new_path}'; re-time: {variants_suite(*at[:2])}|{k}|{named}"
        print(line)
    return per_row(name, keys, rounds, before, after, base, new)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("ab", help="ab.tar.gz of gpu_ab.sh, or its extracted ab/ folder")
    p.add_argument("--base", default="old", help="the CLI compared against (default old)")
    p.add_argument("--bin", default="new", help="the CLI measured (default new)")
    p.add_argument("--rows", help="only these rows: comma-separated, or @FILE")
    p.add_argument("--changed", nargs=2, metavar=("OLD_TSV", "NEW_TSV"), help="only lengths whose wisdom kernel changed")
    p.add_argument("--csv", help="write every compared row's kernels and times here (gzipped where the name ends .gz)")
    args = p.parse_args()
    keep = lambda row: True
    old_wisdom = new_wisdom = None
    if args.rows:
        text = open(args.rows[1:]).read() if args.rows.startswith("@") else args.rows
        wanted = {r.strip() for r in text.replace("\n", ",").split(",") if r.strip()}
        keep = lambda row: row.get("n", row.get("case")) in wanted
    if args.changed:
        old_wisdom, new_wisdom = wisdom(args.changed[0]), wisdom(args.changed[1])
        moved = {at for at in set(old_wisdom) | set(new_wisdom) if old_wisdom.get(at, ("",))[0] != new_wisdom.get(at, ("",))[0]}

        def keep_changed(row, keep=keep):
            m = KERNEL.match(row.get("kernel", ""))
            return keep(row) and m is not None and (m.group(1), m.group(2), int(m.group(3))) in moved

        keep = keep_changed
    found = tables(ab_folder(args.ab), args.base, args.bin)
    if not found:
        sys.exit(f"no SUITE-{args.base}-ROUND.csv or SUITE-{args.bin}-ROUND.csv under {args.ab}")
    written = []
    for (suite, second), runs in sorted(found.items()):
        table = summarise(suite + second, runs, args.base, args.bin, keep, old_wisdom, new_wisdom)
        if table:
            written.append(table)
    if args.csv and written:
        # Tables of different round counts would need different columns: one header, the longest.
        header = max((h for h, _ in written), key=len)
        opener = gzip.open if args.csv.endswith(".gz") else open
        with opener(args.csv, "wt", newline="") as f:
            out = csv.writer(f)
            out.writerow(header)
            for _, lines in written:
                out.writerows(lines)
        print(f"wrote {args.csv}: {sum(len(lines) for _, lines in written)} rows")


if __name__ == "__main__":
    main()
