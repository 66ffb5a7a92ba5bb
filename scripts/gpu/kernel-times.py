#!/usr/bin/env python3
"""Kernel durations from `ncu --metrics gpu__time_duration.sum,... --csv` (profile-statistics.sh).

Prints, per ncu run, every kernel launch in order (short name, grid, microseconds, and the
elapsed SM cycles and warp instructions where measured), then the median time per short name.
    kernel-times.py kernels.csv [...]
"""
import csv
import re
import statistics
import sys


def short(name):
    name = re.sub(r"^void ", "", name)
    name = re.sub(r"\(.*$", "", name)
    depth, out = 0, []
    for ch in name:  # drop template arguments
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out).split("::")[-1]


def main(paths):
    for path in paths:
        launches = {}
        with open(path, newline="") as f:
            lines = [line for line in f if line.startswith('"')]
        for r in csv.DictReader(lines):
            launch = launches.setdefault(r["ID"], {"name": short(r["Kernel Name"]), "grid": r.get("Grid Size", "")})
            value = float(r["Metric Value"].replace(",", ""))
            if r["Metric Name"] == "gpu__time_duration.sum":
                unit = r.get("Metric Unit", "ns")
                launch["us"] = value / 1000 if unit in ("nsecond", "ns") else value * 1000 if unit in ("msecond", "ms") else value
            elif r["Metric Name"] == "sm__cycles_elapsed.max":
                launch["cycles"] = value
            elif r["Metric Name"] == "smsp__inst_executed.sum":
                launch["instructions"] = value
        rows = [(l["name"], l["grid"], l.get("us", 0.0), l.get("cycles", 0.0), l.get("instructions", 0.0))
                for _, l in sorted(launches.items(), key=lambda kv: int(kv[0]))]
        print(f"== {path}: {len(rows)} launches")
        for name, grid, us, cycles, instructions in rows:
            print(f"  {name:40s} {grid:>18s} {us:10.1f} us {cycles:12.0f} cycles {instructions:14.0f} inst")
        by = {}
        for name, _, us, _, _ in rows:
            by.setdefault(name, []).append(us)
        print("  -- median per kernel (count)")
        for name, values in sorted(by.items(), key=lambda kv: -statistics.median(kv[1])):
            print(f"  {name:40s} {statistics.median(values):10.1f} us  ({len(values)})")


if __name__ == "__main__":
    main(sys.argv[1:])
