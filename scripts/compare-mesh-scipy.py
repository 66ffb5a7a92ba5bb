#!/usr/bin/env python3
"""Checks `ccl4j mesh` against scipy.ndimage.label on images and volumes written here.

Random fields of several sizes and densities are made with numpy and written as binary PGM, PNG
(a small numpy + zlib writer), raw uint8 and raw little-endian int32 files; each is labelled by
`ccl4j mesh FILE --json --out LABELS` with every CPU algorithm and the Java backend, and by
scipy.ndimage.label (structure for 4/8 neighbours in 2D, 6/26 in 3D; same-value fields one value
at a time). For every run the cluster count, the largest cluster and the sorted cluster sizes must
agree, the raw labels must give exactly scipy's partition of the cells, and the `--stats` part of
the JSON (size summary, exact and log2 histograms, the 10 largest clusters with their labels) must
be what scipy's clusters give.

Needs python3 with numpy and scipy. Exit status 0 when everything agrees, 1 otherwise.

    scripts/compare-mesh-scipy.py                    # the full set (2000x1500 images, a 160^3 volume, ...)
    scripts/compare-mesh-scipy.py --quick            # smaller fields, a few seconds per run
    scripts/compare-mesh-scipy.py --ccl4j "java --enable-native-access=ALL-UNNAMED -jar java/cli/target/ccl4j-cli-0.1.0-SNAPSHOT-all.jar"
"""
import argparse
import json
import os
import shlex
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

import numpy as np
from scipy import ndimage

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNS = [
    ("cpu-raster", ["--algorithm", "cpu-raster"]),
    ("cpu-equivalence", ["--algorithm", "cpu-equivalence"]),
    ("cpu-parallel", ["--algorithm", "cpu-parallel", "--backend", "cpu"]),
    ("java", ["--backend", "java"]),
]


def write_pgm(path, image):
    """Binary P5 greymap of a 2D uint8 array."""
    h, w = image.shape
    with open(path, "wb") as f:
        f.write(b"P5\n%d %d\n%d\n" % (w, h, max(1, int(image.max()))))
        f.write(np.ascontiguousarray(image, dtype=np.uint8).tobytes())


def write_png(path, image):
    """8-bit PNG of a 2D uint8 array (greyscale) or an HxWx3 uint8 array (RGB), filter 0 on every row."""
    h, w = image.shape[:2]
    colour_type = 2 if image.ndim == 3 else 0
    rows = np.ascontiguousarray(image, dtype=np.uint8).reshape(h, -1)
    raw = np.hstack([np.zeros((h, 1), dtype=np.uint8), rows]).tobytes()

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, colour_type, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 6)))
        f.write(chunk(b"IEND", b""))


def scipy_labels(cells, connectivity, same_value):
    """Cluster numbers (0 = background, 1..n) by scipy.ndimage.label, and n."""
    rank = cells.ndim
    structure = ndimage.generate_binary_structure(rank, 1 if connectivity in (4, 6) else rank)
    if not same_value:
        return ndimage.label(cells != 0, structure=structure)
    out = np.zeros(cells.shape, dtype=np.int64)
    total = 0
    for value in np.unique(cells):
        labels, n = ndimage.label(cells == value, structure=structure)
        out[labels > 0] = labels[labels > 0] + total
        total += n
    return out, total


def compare(expected, count, ours):
    """None when the canonical labels `ours` (-1 background) give scipy's partition, else what differs."""
    ours = ours.reshape(-1)
    expected = expected.reshape(-1)
    if not np.array_equal(ours >= 0, expected > 0):
        return "the background differs"
    fg = ours >= 0
    our_sizes = np.sort(np.unique(ours[fg], return_counts=True)[1]) if fg.any() else np.array([], dtype=np.int64)
    scipy_sizes = np.sort(np.bincount(expected[fg])[1:]) if fg.any() else np.array([], dtype=np.int64)
    if len(our_sizes) != count:
        return "%d clusters in the labels, scipy finds %d" % (len(our_sizes), count)
    if not np.array_equal(our_sizes, scipy_sizes):
        return "the cluster sizes differ"
    # equal counts and every (scipy, ours) pair distinct per cluster: the partitions are the same
    pairs = np.unique(expected[fg].astype(np.int64) * (ours.size + 1) + ours[fg])
    if len(pairs) != count:
        return "the clusters differ (same sizes, other cells)"
    # canonical: every label is the smallest index of its cluster
    index = np.arange(ours.size)[fg]
    first = np.full(ours.size, ours.size, dtype=np.int64)
    np.minimum.at(first, ours[fg], index)
    if not np.array_equal(first[ours[fg]], ours[fg]):
        return "the labels are not the smallest index of their cluster"
    return None


def stats_problem(expected, count, report):
    """None when the --stats keys of `report` match scipy's clusters, else what differs."""
    flat = expected.reshape(-1)
    fg = flat > 0
    if count == 0:
        return None if report["sizes"]["components"] == 0 else "sizes: components should be 0"
    sizes = np.bincount(flat[fg], minlength=count + 1)[1:]
    first = np.full(count + 1, flat.size, dtype=np.int64)
    np.minimum.at(first, flat[fg], np.nonzero(fg)[0])      # the canonical label of each cluster
    first = first[1:]
    exact = {}
    for size in sizes:
        exact[int(size)] = exact.get(int(size), 0) + 1
    log2 = {1 << b: 0 for b in range(int(sizes.max()).bit_length())}
    for size in sizes:
        log2[1 << (int(size).bit_length() - 1)] += 1
    order = sorted(range(count), key=lambda c: (-sizes[c], first[c]))[:10]
    want = {
        "sizes": {"components": count, "min": int(sizes.min()), "max": int(sizes.max()),
                  "mean": round(float(sizes.mean()), 4), "median": round(float(np.median(sizes)), 4)},
        "histogram": {"exact": [{"size": a, "count": c} for a, c in sorted(exact.items())],
                      "log2": [{"min": b, "max": 2 * b - 1, "count": c} for b, c in sorted(log2.items())]},
        "top": [{"label": int(first[c]), "size": int(sizes[c])} for c in order],
    }
    got = {key: report.get(key) for key in want}
    if got["sizes"]:
        got["sizes"] = dict(got["sizes"], mean=round(got["sizes"]["mean"], 4), median=round(got["sizes"]["median"], 4))
    for key in want:
        if got[key] != want[key]:
            return "--stats: %s differs" % key
    return None


def cases(quick, rng):
    """(name, file writer, cells as labelled, mesh options, connectivities, same value) for each field."""
    s = 4 if quick else 1
    w2, h2 = 2000 // s, 1500 // s
    n3 = 160 // s

    a = (rng.random((h2, w2)) < 0.55).astype(np.uint8) * 255
    yield "png 0/255 p=0.55", "a.png", lambda p: write_png(p, a), a, [], (4, 8), False

    b = (rng.random((h2, w2)) < 0.6).astype(np.uint8)
    yield "pgm 0/1 p=0.6", "b.pgm", lambda p: write_pgm(p, b), b, [], (4, 8), False

    c = (rng.random((h2 // 2, w2 // 2)) < 0.5927).astype(np.uint8)
    yield "pgm 0/1 p=0.5927 (site threshold)", "c.pgm", lambda p: write_pgm(p, c), c, [], (4, 8), False

    grey = ndimage.gaussian_filter(rng.random((1200 // s, 1700 // s)), 4)
    grey = ((grey - grey.min()) / (grey.max() - grey.min()) * 255).astype(np.uint8)
    yield ("pgm smooth grey, --threshold 128", "d.pgm", lambda p: write_pgm(p, grey), (grey >= 128).astype(np.uint8),
           ["--threshold", "128"], (4, 8), False)

    row = (rng.random((1, 5000)) < 0.7).astype(np.uint8)
    yield "pgm one row p=0.7", "row.pgm", lambda p: write_pgm(p, row), row, [], (4, 8), False
    column = (rng.random((5000, 1)) < 0.7).astype(np.uint8)
    yield "png one column p=0.7", "column.png", lambda p: write_png(p, column * 200), column, [], (4, 8), False

    palette = np.array([[255, 0, 0], [0, 160, 0], [20, 40, 255]], dtype=np.uint8)
    colours = rng.integers(0, 3, (300 // s + 1, 500 // s + 1))
    rgb = palette[colours]
    yield ("png rgb 3 colours, same-value", "e.png", lambda p: write_png(p, rgb), colours,
           ["--color", "rgb", "--mode", "same-value"], (4, 8), True)

    v = (rng.random((n3, n3, n3)) < 0.3).astype(np.uint8)
    yield ("raw u8 %d^3 p=0.3" % n3, "v.raw", lambda p: v.tofile(p), v, ["--dims", "%dx%dx%d" % (n3, n3, n3)],
           (6, 26), False)

    d3, h3, w3 = 64 // s, 80 // s, 96 // s
    occupied = rng.random((d3, h3, w3)) < 0.25
    values = rng.integers(-2**31, 2**31 - 1, (d3, h3, w3), dtype=np.int64).astype(np.int32)
    values[values == 0] = 1
    i32 = np.where(occupied, values, 0).astype("<i4")
    yield ("raw i32 %dx%dx%d p=0.25" % (w3, h3, d3), "w.raw", lambda p: i32.tofile(p), i32,
           ["--dims", "%dx%dx%d" % (w3, h3, d3), "--type", "i32"], (6, 26), False)

    spins = rng.integers(0, 2, (d3, h3, w3)).astype("<i4") * 7 - 3
    yield ("raw i32 %dx%dx%d two values, same-value" % (w3, h3, d3), "s.raw", lambda p: spins.tofile(p), spins,
           ["--dims", "%dx%dx%d" % (w3, h3, d3), "--type", "i32", "--mode", "same-value"], (6,), True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ccl4j", default=os.path.join(ROOT, "ccl4j"), help="the command that runs ccl4j")
    parser.add_argument("--quick", action="store_true", help="fields a quarter of the size")
    parser.add_argument("--seed", type=int, default=20101, help="numpy seed of the fields")
    parser.add_argument("--keep", metavar="DIR", help="write the files into DIR and keep them")
    args = parser.parse_args()
    command = shlex.split(args.ccl4j)
    work = args.keep or tempfile.mkdtemp(prefix="ccl4j-scipy-")
    os.makedirs(work, exist_ok=True)
    failures = 0
    checks = 0
    try:
        rng = np.random.default_rng(args.seed)
        for name, file_name, write, cells, options, connectivities, same_value in cases(args.quick, rng):
            path = os.path.join(work, file_name)
            write(path)
            for connectivity in connectivities:
                start = time.perf_counter()
                expected, count = scipy_labels(cells, connectivity, same_value)
                scipy_ms = (time.perf_counter() - start) * 1000
                largest = int(np.bincount(expected.reshape(-1))[1:].max()) if count else 0
                print("%s, connectivity %d: %d cells, scipy %d clusters, largest %d (%.0f ms)"
                      % (name, connectivity, cells.size, count, largest, scipy_ms))
                for algorithm, run_options in RUNS:
                    out = os.path.join(work, "labels.bin")
                    cmd = command + ["mesh", path, "--json", "--stats", "--out", out, "--connectivity", str(connectivity)] \
                        + options + run_options
                    result = subprocess.run(cmd, capture_output=True, text=True)
                    checks += 1
                    if result.returncode != 0:
                        failures += 1
                        print("  %-16s FAILED: exit %d: %s" % (algorithm, result.returncode, result.stderr.strip()))
                        continue
                    report = json.loads(result.stdout)
                    problem = None
                    if report["clusters"] != count or report["largestCluster"] != largest:
                        problem = "JSON says %d clusters, largest %d" % (report["clusters"], report["largestCluster"])
                    elif report["cells"] != cells.size:
                        problem = "JSON says %d cells" % report["cells"]
                    else:
                        problem = compare(expected, count, np.fromfile(out, dtype="<i4")) \
                            or stats_problem(expected, count, report)
                    status = "ok" if problem is None else "MISMATCH: " + problem
                    failures += problem is not None
                    print("  %-16s %-4s %s, %d clusters, largest %d, %.1f ms"
                          % (algorithm, status, report["backend"], report["clusters"], report["largestCluster"],
                             report["timingsMs"]["total"]))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print("%d of %d runs agree with scipy.ndimage.label" % (checks - failures, checks))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
