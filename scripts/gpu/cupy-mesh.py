#!/usr/bin/env python3
"""cupyx.scipy.ndimage.label on bench_mesh's fields, on the very cells bench_mesh labels.

Run on the GPU machine (python3 with numpy and cupy; no scipy, Java or network needed), best in
the same lease as bench_mesh: `bash scripts/gpu/native-check.sh --mesh --cupy` runs both.

    python3 scripts/gpu/cupy-mesh.py [--fields NAME,...] [--runs N] [--seed N] [--cpu] [--compare FILE]

Fields are named as native/bench/bench_mesh.cpp names them: 2d_N_pD (N x N) or 3d_N_pD (N x N x N),
occupation probability D read with the point after its first digit (p05 = 0.5, p025 = 0.25),
face-connected (4 in 2D, 6 in 3D) unless the name ends in _c8 (2D) or _c26 (3D); _c4 and _c6
name face connectivity explicitly. Default: bench_mesh's ten fields. Any such name is accepted,
so that small fields can be checked without a GPU (--cpu).

Cells: bench_mesh's generate(), vectorised (on the GPU with cupy): u8 cells in row-major order,
x fastest; cell i is 1 when splitmix64's finaliser of (seed * 0x100000001b3 ^ i), in 64-bit
arithmetic, is below p * 2^64 (truncated). The occupied and cluster counts must therefore equal
bench_mesh's for the same --seed (default 1, bench_mesh's default).

Labelling: label(cells, generate_binary_structure(ndim, 1)) for face connectivity, (ndim, ndim)
for 8 / 26. Kernel-only time: cells already on the device, CUDA events around label() (which
includes cupy's own read-back of the count), median and min of --runs runs (default 9) after 2
warm-ups. --cpu: numpy and scipy.ndimage.label on the host instead, timed by the host clock (for
checking cells and counts on a machine without a GPU).

Output: a header, then one line per field: name, connectivity, cells, occupied, clusters, median
ms, min ms, Gpx/s (cells per median). With --compare FILE (bench_mesh's output), also bench_mesh's
cluster count and union-find median and cupy's time over the union-find's; the exit status is 1
when a field's occupied or cluster count differs from bench_mesh's, 0 otherwise.
"""
import argparse
import re
import statistics
import sys
import time

import numpy as np

DEFAULT_FIELDS = ("2d_8192_p05,2d_8192_p06,2d_16384_p06,3d_512_p025,3d_512_p035,"
                  "2d_8192_p05_c8,2d_8192_p06_c8,2d_16384_p06_c8,3d_512_p025_c26,3d_512_p035_c26")
NAME = re.compile(r"([23])d_(\d+)_p(\d+)(?:_c(\d+))?")
WARMUP = 2
CHUNK = 1 << 24  # cells hashed at a time: 128 MB of uint64 temporaries
MASK = (1 << 64) - 1


class Field:
    def __init__(self, name):
        m = NAME.fullmatch(name)
        if not m:
            raise ValueError(f"unknown field '{name}': expected 2d_N_pD or 3d_N_pD (N cells a side, occupation"
                             " probability D with the point after its first digit) with an optional _c4/_c8 (2D)"
                             " or _c6/_c26 (3D), e.g. 2d_8192_p05_c8")
        self.name = name
        self.ndim = int(m.group(1))
        n = int(m.group(2))
        self.shape = (n,) * self.ndim  # (depth,) height, width: x fastest, as bench_mesh's index
        digits = m.group(3)
        self.p = float(digits[0] + "." + digits[1:])
        if n < 1 or self.p >= 1:
            raise ValueError(f"field '{name}': N must be positive and p below 1")
        face = 4 if self.ndim == 2 else 6
        full = 8 if self.ndim == 2 else 26
        self.connectivity = int(m.group(4) or face)
        if self.connectivity not in (face, full):
            raise ValueError(f"field '{name}': connectivity {self.connectivity} does not fit {self.ndim}D"
                             f" (_c{face} or _c{full})")
        self.cells = n ** self.ndim


def generate(xp, field, seed):
    """bench_mesh's cells of field (see the top), as a C-ordered u8 array of xp (numpy or cupy)."""
    cells = xp.empty(field.cells, dtype=xp.uint8)
    key = np.uint64((seed * 0x100000001B3) & MASK)
    threshold = np.uint64(int(field.p * 18446744073709551616.0))  # as the C++ cast truncates p * 2^64
    for first in range(0, field.cells, CHUNK):
        last = min(field.cells, first + CHUNK)
        x = xp.arange(first, last, dtype=xp.uint64) ^ key
        x += np.uint64(0x9E3779B97F4A7C15)  # splitmix64's finaliser; uint64 arrays wrap around
        x ^= x >> np.uint64(30)
        x *= np.uint64(0xBF58476D1CE4E5B9)
        x ^= x >> np.uint64(27)
        x *= np.uint64(0x94D049BB133111EB)
        x ^= x >> np.uint64(31)
        cells[first:last] = x < threshold
    return cells.reshape(field.shape)


def label_times(field, cells, ndimage, runs, cp):
    """(kernel ms of each timed run, cluster count): CUDA events with cupy, the host clock without."""
    structure = ndimage.generate_binary_structure(field.ndim, 1 if field.connectivity in (4, 6) else field.ndim)
    times = []
    for i in range(WARMUP + runs):
        if cp:
            start, end = cp.cuda.Event(), cp.cuda.Event()
            start.record()
            _, clusters = ndimage.label(cells, structure)
            end.record()
            end.synchronize()
            ms = cp.cuda.get_elapsed_time(start, end)
        else:
            begin = time.perf_counter()
            _, clusters = ndimage.label(cells, structure)
            ms = (time.perf_counter() - begin) * 1e3
        if i >= WARMUP:
            times.append(ms)
    return times, int(clusters)


def bench_mesh_results(path):
    """{field: (occupied, clusters, union-find median ms or None)} from bench_mesh's output."""
    found = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"(\S+): \d+ cells, (\d+) occupied, connectivity \d+, (\d+) clusters", line)
            if m:
                found[m.group(1)] = (int(m.group(2)), int(m.group(3)), None)
                continue
            m = re.match(r"(\S+)\s+union-find\s+\d+\s+([\d.]+)\s", line)  # its table, at the end
            if m and m.group(1) in found:
                occupied, clusters, _ = found[m.group(1)]
                found[m.group(1)] = (occupied, clusters, float(m.group(2)))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fields", default=DEFAULT_FIELDS, help="comma-separated field names (default: bench_mesh's ten)")
    parser.add_argument("--runs", type=int, default=9, help="timed runs per field (default: 9)")
    parser.add_argument("--seed", type=int, default=1, help="the cells' seed (default: 1, bench_mesh's)")
    parser.add_argument("--cpu", action="store_true", help="numpy and scipy.ndimage.label on the host instead of cupy")
    parser.add_argument("--compare", metavar="FILE", help="bench_mesh's output: compare counts and times with it")
    args = parser.parse_args()
    try:
        fields = [Field(name) for name in args.fields.split(",")]
    except ValueError as e:
        parser.error(str(e))
    if args.runs < 1 or not 0 <= args.seed <= MASK:
        parser.error("--runs must be at least 1 and --seed an unsigned 64-bit integer")
    if args.cpu:
        cp = None
        xp = np
        from scipy import ndimage
        device = "the host (scipy.ndimage.label, one thread; host clock around label())"
    else:
        import cupy as cp
        from cupyx.scipy import ndimage
        xp = cp
        device = (cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)["name"].decode()
                  + f" (cupyx.scipy.ndimage.label, cupy {cp.__version__}; kernel-only: cells on the device,"
                    " CUDA events around label())")
    try:
        reference = bench_mesh_results(args.compare) if args.compare else None
    except OSError as e:
        parser.error(f"--compare: {e}")

    print(f"cupy-mesh on {device}: ms, median and min of {args.runs} runs after {WARMUP} warm-ups,"
          f" cells of bench_mesh's generator, seed {args.seed}", flush=True)
    header = f"{'field':<15} {'conn':>4} {'cells':>11} {'occupied':>11} {'clusters':>10} {'median':>9} {'min':>9} {'Gpx/s':>8}"
    if reference is not None:
        header += f"  {'bench_mesh clusters':>19} {'union-find':>10} {'cupy/us':>8}  status"
    print(header, flush=True)
    all_same = True
    for field in fields:
        cells = generate(xp, field, args.seed)
        occupied = int(cells.sum(dtype=xp.int64))
        times, clusters = label_times(field, cells, ndimage, args.runs, cp)
        median = statistics.median(times)
        line = (f"{field.name:<15} {field.connectivity:>4} {field.cells:>11} {occupied:>11} {clusters:>10}"
                f" {median:>9.3f} {min(times):>9.3f} {field.cells / median / 1e6:>8.2f}")
        if reference is not None:
            if field.name not in reference:
                line += f"  {'-':>19} {'-':>10} {'-':>8}  not in {args.compare}"
            else:
                their_occupied, their_clusters, union_find_ms = reference[field.name]
                same = their_occupied == occupied and their_clusters == clusters
                all_same &= same
                ratio = f"{median / union_find_ms:.2f}" if union_find_ms else "-"
                ms = f"{union_find_ms:.3f}" if union_find_ms else "-"
                line += (f"  {their_clusters:>19} {ms:>10} {ratio:>8}  "
                         + ("same cells and clusters" if same else
                            f"DIFFERENT: bench_mesh has {their_occupied} occupied, {their_clusters} clusters"))
        print(line, flush=True)
        del cells
    return 0 if all_same else 1


if __name__ == "__main__":
    sys.exit(main())
