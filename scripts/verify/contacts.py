#!/usr/bin/env python3
"""Acceptance check of `ccl4j mesh --contacts` against a numpy count of cc3d's contacts.

Generates multilabel images and volumes (runs of a few values along x, and smoothed noise cut into
bands), labels each with `ccl4j mesh FILE --mode same-value --out LABELS.npy --contacts CSV` for
every backend asked for, every labelling connectivity and every contacts connectivity (4 and 8 in
2D; 6, 18 and 26 in 3D), with open and periodic boundaries and an anisotropy, and compares the CSV
with the contacts counted here from the labels ccl4j wrote, with the definition of cc3d's
`contacts(labels, connectivity, surface_area, anisotropy)`: for each pair of labels a < b, the
pairs of neighbouring cells one of each (surface_area=False), and the area of the faces they share
(surface_area=True): a face across x has the area wy*wz, across y wx*wz, across z wx*wy (in 2D wy
and wx); edges and corners none. Written from that definition with numpy (cc3d is not needed):
each offset of the lower half of the stencil compared as two shifted views of the array (np.roll
across periodic axes). Counts must be equal, areas equal to 1e-12 relative.

Prints one line per check and exits 1 on any difference or failed run.

Needs python3 with numpy. From the repository root:

    scripts/verify/contacts.py java/cli/target/ccl4j-cli-0.1.0-SNAPSHOT-all.jar
    scripts/verify/contacts.py ./ccl4j --backends cpu,java
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile

import numpy as np

from launcher import command

FAILURES = []


def offsets(connectivity, three_d):
    """The lower half of the stencil as (dz, dy, dx): the offsets before a cell in x-fastest order."""
    if not three_d:
        connectivity = 4 if connectivity in (4, 6) else 8  # the planar stencils of a single layer
    result = []
    for dz in (-1, 0) if three_d else (0,):
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                before = dz < 0 or dy < 0 or (dy == 0 and dx < 0)
                nonzero = (dx != 0) + (dy != 0) + (dz != 0)
                if not before:
                    continue
                if connectivity in (4, 6) and nonzero > 1:
                    continue
                if connectivity == 18 and nonzero > 2:
                    continue
                result.append((dz, dy, dx))
    return result


def shifted(labels, offset, periodic):
    """Cells and their neighbours at offset (dz, dy, dx) as two flat arrays, in the array or across periodic axes."""
    a = labels
    b = labels
    for axis, d in enumerate(offset):  # axes of the (z, y, x) array
        if d == 0:
            continue
        if periodic[axis]:
            b = np.roll(b, -d, axis=axis)  # b[i] = labels[i + d], wrapped
        else:
            n = labels.shape[axis]
            keep = [slice(None)] * 3
            take = [slice(None)] * 3
            keep[axis] = slice(max(0, -d), n - max(0, d))
            take[axis] = slice(max(0, d), n + min(0, d))
            a = a[tuple(keep)]
            b = b[tuple(take)]
    return a.ravel(), b.ravel()


def reference(labels, connectivity, periodic, voxel):
    """{(a, b): [contacts, x faces, y faces, z faces, area]} of labels shaped (z, y, x)."""
    three_d = labels.shape[0] > 1
    wx, wy, wz = voxel
    rows = {}
    for offset in offsets(connectivity, three_d):
        a, b = shifted(labels, offset, periodic)
        touch = (a >= 0) & (b >= 0) & (a != b)
        lo = np.minimum(a[touch], b[touch]).astype(np.int64)
        hi = np.maximum(a[touch], b[touch]).astype(np.int64)
        pairs, counts = np.unique(np.stack([lo, hi], axis=1), axis=0, return_counts=True) if lo.size else ([], [])
        dz, dy, dx = offset
        face = None if abs(dx) + abs(dy) + abs(dz) != 1 else (0 if dx else 1 if dy else 2)
        for (p, q), c in zip(pairs, counts):
            row = rows.setdefault((int(p), int(q)), [0, 0, 0, 0])
            row[0] += int(c)
            if face is not None:
                row[1 + face] += int(c)
    for row in rows.values():
        x, y, z = row[1], row[2], row[3]
        row.append(x * (wy * wz) + y * (wx * wz) + z * (wx * wy) if three_d else x * wy + y * wx)
    return rows


def read_csv(path):
    with open(path) as f:
        r = csv.reader(f)
        header = next(r)
        if header != ["label1", "label2", "contacts", "x_faces", "y_faces", "z_faces", "area"]:
            return header, None
        return header, [(int(a), int(b), int(c), int(x), int(y), int(z), float(area))
                        for a, b, c, x, y, z, area in r]


def compare(got, want):
    """Why the CSV rows differ from the reference, or None."""
    keys = [(g[0], g[1]) for g in got]
    if keys != sorted(want):
        missing = sorted(set(want) - set(keys))[:3]
        extra = sorted(set(keys) - set(want))[:3]
        return "pairs differ: %d rows, %d expected; missing %s, extra %s" % (len(keys), len(want), missing, extra)
    for g in got:
        w = want[(g[0], g[1])]
        if list(g[2:6]) != w[:4] or abs(g[6] - w[4]) > 1e-12 * max(1.0, abs(w[4])):
            return "pair %s: %s, expected %s" % ((g[0], g[1]), g[2:], w)
    return None


def fields(rng):
    """(name, array shaped (z, y, x)) of a few values each."""
    out = []
    for shape in [(1, 47, 61), (1, 128, 96), (9, 23, 31), (24, 32, 40)]:
        runs = rng.integers(0, 5, size=shape)
        keep = rng.random(shape) < 0.6
        flat = runs.reshape(-1)
        for i in range(1, flat.size):  # runs along x, so that regions are larger than a cell
            if keep.reshape(-1)[i]:
                flat[i] = flat[i - 1]
        out.append(("runs %s" % "x".join(map(str, shape[::-1])), runs.astype(np.uint8)))
        noise = rng.random(shape)
        for axis in range(3):
            if shape[axis] > 2:
                noise = (noise + np.roll(noise, 1, axis) + np.roll(noise, -1, axis)) / 3
        bands = np.digitize(noise, np.quantile(noise, [0.25, 0.5, 0.75])).astype(np.uint8)
        out.append(("bands %s" % "x".join(map(str, shape[::-1])), bands))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ccl4j", help="./ccl4j, a command line, or the CLI's jar")
    parser.add_argument("--backends", default="cpu,cpu-serial,java", help="comma-separated (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=47)
    args = parser.parse_args()
    ccl4j = command(args.ccl4j)
    rng = np.random.default_rng(args.seed)
    voxel = (0.5, 1.25, 4.0)
    checks = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, cells in fields(rng):
            three_d = cells.shape[0] > 1
            path = os.path.join(tmp, "cells.npy")
            np.save(path, cells if three_d else cells[0])
            for backend in args.backends.split(","):
                for labelling in (6, 26) if three_d else (4, 8):
                    for contact in (6, 18, 26) if three_d else (4, 8):
                        for periodic in ("", "xz" if three_d else "y"):
                            case = "%s, %s, labelled %d, contacts %d%s" % (
                                name, backend, labelling, contact, ", periodic " + periodic if periodic else "")
                            out = os.path.join(tmp, "labels.npy")
                            table = os.path.join(tmp, "contacts.csv")
                            run = ccl4j + ["mesh", path, "--mode", "same-value", "--backend", backend,
                                           "--connectivity", str(labelling), "--contacts", table,
                                           "--contacts-connectivity", str(contact), "--spacing",
                                           ",".join(map(str, voxel)), "--out", out]
                            if periodic:
                                run += ["--periodic-axes", periodic]
                            p = subprocess.run(run, capture_output=True, text=True)
                            checks += 1
                            if p.returncode != 0:
                                FAILURES.append(case)
                                print("FAIL %s: exit %d: %s" % (case, p.returncode, (p.stdout + p.stderr).strip()))
                                continue
                            labels = np.load(out).reshape(cells.shape)
                            axes = ["z" in periodic, "y" in periodic, "x" in periodic]
                            want = reference(labels, contact, axes, voxel)
                            header, got = read_csv(table)
                            why = "header %s" % header if got is None else compare(got, want)
                            if why is None and not want:
                                why = "no contacts: the field should have some"
                            if why is None:
                                print("ok   %s: %d pairs" % (case, len(want)))
                            else:
                                FAILURES.append(case)
                                print("FAIL %s: %s" % (case, why))
    print("%d checks, %d failed" % (checks, len(FAILURES)))
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
