#!/usr/bin/env python3
"""Acceptance check of `ccl4j mesh --regions`: every value against OpenCV and scikit-image.

Generates 2D images and 3D volumes (smoothed-noise blobs, plain noise, scikit-image's coins and
camera thresholded), labels each with every mesh algorithm of every backend asked for, and compares
  - the labels (--out, canonical, mapped to raster numbering) with cv2.connectedComponentsWithStats
    (2D; its labels mapped to raster order too) and skimage.measure.label (2D and 3D): exactly;
  - the --regions CSV with OpenCV's stats and centroids (2D) and skimage's regionprops (bbox, area,
    centroid, intensity min/max/mean of an --intensity grid; 2D and 3D): integers exactly,
    centroids and means to 1e-9 relative; sums with numpy's exact integer sums; touches with the
    bounding box;
  - the --measure columns under --spacing with regionprops' area, moments_central (order 2),
    inertia_tensor_eigvals, orientation, axis_major_length, axis_minor_length, eccentricity,
    equivalent_diameter_area and perimeter, and skimage.measure.perimeter(image, 8): with
    regionprops(spacing=...) where scikit-image has it (0.20 and later; an anisotropic spacing),
    else at unit spacing scaled by an isotropic one; surface_area with numpy's count of exposed
    faces.
Connectivity 4/8 (2D) and 6/26 (3D) are skimage's connectivity 1 and ndim; OpenCV's 4 and 8.
Prints a table of cases x backend/algorithm and exits 1 on any mismatch or failed run.

Usage: scripts/verify/regionprops.py [--ccl4j CMD] [--backends cpu,cpu-serial,java,cuda] [--keep]
"""
import argparse
import csv
import inspect
import json
import math
import os
import shlex
import subprocess
import sys
import tempfile

import cv2
import numpy as np
import skimage.data
import skimage.filters
import skimage.measure

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# the mesh algorithms that run on each backend (`ccl4j mesh --help`); java runs on every backend
ALGORITHMS = {
    "cuda": ["neighbor", "local", "directional", "equivalence", "komura", "union-find", "java"],
    "cpu": ["cpu-raster", "cpu-equivalence", "cpu-parallel", "java"],
    "cpu-serial": ["cpu-raster", "cpu-equivalence", "cpu-parallel", "java"],
    "java": ["java"],
}
INTEGER_COLUMNS = ["label", "size", "xmin", "ymin", "zmin", "xmax", "ymax", "zmax"]
FLOAT_COLUMNS = ["cx", "cy", "cz", "sum", "min", "max", "mean"]
MEASURE_COLUMNS = ["area", "perimeter", "perimeter_8", "surface_area", "mu_xx", "mu_yy", "mu_zz", "mu_xy", "mu_xz",
                   "mu_yz", "eigval_0", "eigval_1", "eigval_2", "orientation", "axis_major_length",
                   "axis_minor_length", "eccentricity", "equivalent_diameter_area"]
RTOL = 1e-9
# regionprops(spacing=...) came with scikit-image 0.20; before, measures are compared at an
# isotropic spacing, from regionprops at unit spacing scaled
SKIMAGE_SPACING = "spacing" in inspect.signature(skimage.measure.regionprops).parameters


def spacing_for(ndim):
    """The spacing of a case, x first as ccl4j takes it."""
    if SKIMAGE_SPACING:
        return (0.75, 1.5) if ndim == 2 else (0.75, 1.5, 2.0)
    return (0.5,) * ndim


def blobs(rng, shape, sigma, fraction):
    """Thresholded smoothed noise: a mask with about `fraction` foreground, and the smoothed field as u8."""
    field = skimage.filters.gaussian(rng.random(shape), sigma=sigma)
    field = (field - field.min()) / (field.max() - field.min())
    mask = field > np.quantile(field, 1 - fraction)
    return mask, np.round(field * 255).astype(np.uint8)


def cases(seed):
    """(name, mask, intensity) with numpy shapes (H, W) or (D, H, W): x is the last axis."""
    rng = np.random.default_rng(seed)
    coins = skimage.data.coins()
    camera = skimage.data.camera()
    yield ("blobs-256x256",) + blobs(rng, (256, 256), 4, 0.4)
    yield ("blobs-1024x768",) + blobs(rng, (768, 1024), 8, 0.45)
    yield "noise-512x384", rng.random((384, 512)) < 0.45, rng.integers(0, 256, (384, 512), dtype=np.uint8)
    yield "coins", coins > skimage.filters.threshold_otsu(coins), coins
    yield "camera", camera < skimage.filters.threshold_otsu(camera), camera
    yield ("blobs-64x64x64",) + blobs(rng, (64, 64, 64), 3, 0.35)
    yield "noise-64x48x40", rng.random((40, 48, 64)) < 0.3, rng.integers(0, 256, (40, 48, 64), dtype=np.uint8)


def write(directory, name, array):
    """PNG for 2D, raw u8 for 3D; the ccl4j options that read it."""
    if array.ndim == 2:
        path = os.path.join(directory, name + ".png")
        if not cv2.imwrite(path, array):
            raise RuntimeError("cv2.imwrite failed: " + path)
        return path, []
    path = os.path.join(directory, name + ".raw")
    np.ascontiguousarray(array).tofile(path)
    d, h, w = array.shape
    return path, ["--dims", f"{w}x{h}x{d}", "--type", "u8"]


def exposed_faces(labels):
    """Per label 1..k and axis x, y(, z): the faces between its cells and other labels or the edge."""
    k = labels.max()
    faces = []
    for axis in reversed(range(labels.ndim)):  # numpy's last axis is x
        padded = np.pad(labels, [(1, 1) if a == axis else (0, 0) for a in range(labels.ndim)])
        low = np.take(padded, range(0, padded.shape[axis] - 1), axis=axis)
        high = np.take(padded, range(1, padded.shape[axis]), axis=axis)
        differ = low != high
        count = np.bincount(low[differ], minlength=k + 1) + np.bincount(high[differ], minlength=k + 1)
        faces.append(count[1:])
    return faces


def orientation_of(tensor):
    """regionprops' orientation from its inertia tensor; pi/4 or -pi/4 at equal diagonal entries by the
    sign of the mixed one, as scikit-image 0.20 and later (0.19 had the other sign there)."""
    a, b, _, c = tensor.flat
    if a - c == 0:
        return math.pi / 4 if b < 0 else -math.pi / 4
    return 0.5 * math.atan2(-2 * b, c - a)


def guarded(f):
    """f(), or NaN where scikit-image raises (the 3D minor axis of a flat region)."""
    try:
        return float(f())
    except (ValueError, NotImplementedError):
        return float("nan")


def measures(labels, spacing):
    """The --measure columns as scikit-image computes them (spacing x first)."""
    ndim = labels.ndim
    skimage_spacing = tuple(reversed(spacing))  # (y, x) or (z, y, x)
    scale = 1.0
    if SKIMAGE_SPACING:
        regions = skimage.measure.regionprops(labels, spacing=skimage_spacing)
    else:
        regions = skimage.measure.regionprops(labels)
        scale = spacing[0]  # isotropic: lengths scale by it, areas by its square, angles not at all
    # skimage's moment indices (row, col) or (plane, row, col) for ccl4j's products
    if ndim == 2:
        moments = {"mu_xx": (0, 2), "mu_yy": (2, 0), "mu_xy": (1, 1)}
    else:
        moments = {"mu_xx": (0, 0, 2), "mu_yy": (0, 2, 0), "mu_zz": (2, 0, 0), "mu_xy": (0, 1, 1),
                   "mu_xz": (1, 0, 1), "mu_yz": (1, 1, 0)}
    nan = float("nan")
    out = {c: [] for c in MEASURE_COLUMNS}
    for r in regions:
        out["area"].append(r.area * scale ** ndim)
        for c in ("mu_xx", "mu_yy", "mu_zz", "mu_xy", "mu_xz", "mu_yz"):
            out[c].append(r.moments_central[moments[c]] * scale ** 2 if c in moments else 0.0)
        eigen = list(r.inertia_tensor_eigvals) + [nan] * (3 - ndim)
        for i in range(3):
            out[f"eigval_{i}"].append(eigen[i] * scale ** 2)
        out["axis_major_length"].append(guarded(lambda: r.axis_major_length) * scale)
        out["axis_minor_length"].append(guarded(lambda: r.axis_minor_length) * scale)
        out["equivalent_diameter_area"].append(r.equivalent_diameter_area * scale)
        if ndim == 2:
            out["orientation"].append(orientation_of(r.inertia_tensor))
            out["eccentricity"].append(r.eccentricity)
            out["perimeter"].append(guarded(lambda: r.perimeter) * scale)
            isotropic = spacing[0] == spacing[1]
            out["perimeter_8"].append(skimage.measure.perimeter(r.image, 8) * spacing[0] if isotropic else nan)
        else:
            for c in ("orientation", "eccentricity", "perimeter", "perimeter_8"):
                out[c].append(nan)
    faces = exposed_faces(labels)
    s = list(spacing) + [1.0] * (3 - ndim)
    area = faces[0] * s[1] * s[2] + faces[1] * s[0] * s[2]
    if ndim == 3:
        area = area + faces[2] * s[0] * s[1]
    out["surface_area"] = area
    return {c: np.asarray(v, dtype=float) for c, v in out.items()}


class Reference:
    """What OpenCV (2D) and scikit-image say about a mask and an intensity grid."""

    def __init__(self, mask, intensity, connectivity):
        ndim = mask.ndim
        face = connectivity in (4, 6)
        self.shape = mask.shape
        self.labels = skimage.measure.label(mask, connectivity=1 if face else ndim)
        props = skimage.measure.regionprops_table(
            self.labels, intensity, properties=("label", "area", "bbox", "centroid", "intensity_min",
                                                "intensity_max", "intensity_mean"))
        self.count = len(props["label"])
        if not np.array_equal(props["label"], np.arange(1, self.count + 1)):
            raise RuntimeError("skimage's labels are not 1..k")
        # skimage's axes are (y, x) or (z, y, x); bbox maxima are exclusive
        axes = "yx" if ndim == 2 else "zyx"
        self.skimage = {"size": props["area"]}
        for i, a in enumerate(axes):
            self.skimage[a + "min"] = props[f"bbox-{i}"]
            self.skimage[a + "max"] = props[f"bbox-{i + ndim}"] - 1
            self.skimage["c" + a] = props[f"centroid-{i}"]
        if ndim == 2:
            self.skimage.update(zmin=np.zeros(self.count), zmax=np.zeros(self.count), cz=np.zeros(self.count))
        self.skimage.update(min=props["intensity_min"], max=props["intensity_max"], mean=props["intensity_mean"])
        # the exact integer sums, which regionprops does not give
        sums = np.zeros(self.count + 1, dtype=np.int64)
        np.add.at(sums, self.labels.ravel(), intensity.astype(np.int64).ravel())
        self.skimage["sum"] = sums[1:]
        self.spacing = spacing_for(ndim)
        self.measures = measures(self.labels, self.spacing)
        self.opencv = None
        if ndim == 2:
            n, labels, stats, centroids = cv2.connectedComponentsWithStats(
                mask.astype(np.uint8), connectivity=connectivity, ltype=cv2.CV_32S)
            # OpenCV's block-based 8-connected scan numbers its labels in another order: to raster order
            values, first = np.unique(labels.ravel(), return_index=True)
            order = values[values > 0][np.argsort(first[values > 0])]
            renumber = np.zeros(n, dtype=np.int64)
            renumber[order] = np.arange(1, len(order) + 1)
            self.opencv_labels = renumber[labels]
            s = stats[order]
            centroids = centroids[order]
            self.opencv = {"size": s[:, cv2.CC_STAT_AREA],
                           "xmin": s[:, cv2.CC_STAT_LEFT], "ymin": s[:, cv2.CC_STAT_TOP],
                           "xmax": s[:, cv2.CC_STAT_LEFT] + s[:, cv2.CC_STAT_WIDTH] - 1,
                           "ymax": s[:, cv2.CC_STAT_TOP] + s[:, cv2.CC_STAT_HEIGHT] - 1,
                           "cx": centroids[:, 0], "cy": centroids[:, 1]}


def raster(canonical, shape):
    """ccl4j's canonical labels (smallest cell index, -1 background) as 1..k in raster order, 0 background."""
    canonical = canonical.reshape(shape)
    out = np.zeros(shape, dtype=np.int64)
    foreground = canonical >= 0
    # the smallest index of each component orders them as a raster scan meets them
    _, rank = np.unique(canonical[foreground], return_inverse=True)
    out[foreground] = rank + 1
    return out


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    table = {c: np.array([int(r[c]) for r in rows], dtype=np.int64) for c in INTEGER_COLUMNS}
    table.update({c: np.array([float(r[c]) for r in rows]) for c in FLOAT_COLUMNS})
    table["touches"] = [r["touches"] for r in rows]
    for c in MEASURE_COLUMNS:
        table[c] = np.array([float(r[c]) for r in rows])
    return table


def differences(name, got, want, exact):
    """Messages for the rows where `got` and `want` differ (exactly, or beyond RTOL relative)."""
    got = np.asarray(got)
    want = np.asarray(want)
    if got.shape != want.shape:
        return [f"{name}: {got.shape[0]} values, expected {want.shape[0]}"]
    if exact:
        bad = np.nonzero(got != want)[0]
    else:
        bad = np.nonzero(np.abs(got - want) > RTOL * np.maximum(np.abs(got), np.abs(want)))[0]
    return [f"{name} of label {i + 1}: {got[i]!r}, expected {want[i]!r}" for i in bad[:3]] + \
        ([f"{name}: {len(bad) - 3} more"] if len(bad) > 3 else [])


def measure_differences(table, want):
    """Messages for the measures that differ: both NaN, or equal to 1e-9 relative to the row's scale
    (the squared moments' sum for moments, the largest eigenvalue for eigenvalues, the major axis
    to 1e-6 for lengths, which are square roots); the
    eccentricity to 1e-6 (a square root of rounding when the eigenvalues are equal), orientations
    modulo pi (+-pi/2 are one axis) and not for nearly round regions, whose axis is not defined."""
    errors = []
    spread = np.maximum(1.0, np.nan_to_num(want["eigval_0"]))
    length = np.maximum(1.0, np.nan_to_num(want["axis_major_length"]))
    for c in MEASURE_COLUMNS:
        got, exp = table[c], want[c]
        if got.shape != exp.shape:
            return [f"{c}: {got.shape[0]} values, expected {exp.shape[0]}"]
        if c.startswith("mu_"):  # mixed moments near 0 against the size of the squared ones
            tolerance = RTOL * np.maximum(1.0, want["mu_xx"] + want["mu_yy"] + want["mu_zz"])
        elif c.startswith("eigval"):
            tolerance = RTOL * spread
        elif c.startswith("axis"):
            tolerance = 1e-6 * length
        elif c == "eccentricity":
            tolerance = np.full(exp.shape, 1e-6)
        else:
            tolerance = RTOL * np.maximum(1.0, np.abs(np.nan_to_num(exp)))
        if c == "orientation":
            round_ = np.abs(want["eigval_0"] - want["eigval_1"]) <= 1e-9 * spread
            delta = np.abs(np.remainder(got - exp + np.pi / 2, np.pi) - np.pi / 2)
            bad = np.nonzero(~round_ & ~(np.isnan(got) & np.isnan(exp)) & ~(delta <= 1e-9))[0]
        elif c == "axis_minor_length":  # sqrt of a rounding-sized difference, or NaN where it is negative
            tiny = (np.nan_to_num(got, nan=0.0) <= 1e-3 * length) & (np.nan_to_num(exp, nan=0.0) <= 1e-3 * length)
            bad = np.nonzero(~tiny & ~(np.abs(got - exp) <= tolerance))[0]
        else:
            same_nan = np.isnan(got) & np.isnan(exp)
            bad = np.nonzero(~same_nan & ~(np.abs(got - exp) <= tolerance))[0]
        errors += [f"{c} of label {i + 1}: {got[i]!r}, expected {exp[i]!r}" for i in bad[:3]]
        if len(bad) > 3:
            errors.append(f"{c}: {len(bad) - 3} more")
    return errors


def expected_touches(t, shape):
    ndim = len(shape)
    w, h = shape[-1], shape[-2]
    d = shape[0] if ndim == 3 else 1
    out = []
    for i in range(len(t["label"])):
        s = ("x-" if t["xmin"][i] == 0 else "") + ("x+" if t["xmax"][i] == w - 1 else "") \
            + ("y-" if t["ymin"][i] == 0 else "") + ("y+" if t["ymax"][i] == h - 1 else "")
        if ndim == 3:
            s += ("z-" if t["zmin"][i] == 0 else "") + ("z+" if t["zmax"][i] == d - 1 else "")
        out.append(s)
    return out


def compare(table, labels, ref):
    """Every mismatch of one run's CSV and labels with the reference."""
    errors = []
    if len(table["label"]) != ref.count:
        return [f"{len(table['label'])} rows, skimage finds {ref.count} components"]
    errors += differences("label", table["label"], np.arange(1, ref.count + 1), True)
    if not np.array_equal(labels, ref.labels):
        errors.append(f"labels differ from skimage's in {np.count_nonzero(labels != ref.labels)} cells")
    for column, want in ref.skimage.items():
        errors += differences("skimage " + column, table[column], want, column in INTEGER_COLUMNS + ["sum"])
    if ref.opencv is not None:
        if not np.array_equal(labels, ref.opencv_labels):
            errors.append(f"labels differ from OpenCV's in {np.count_nonzero(labels != ref.opencv_labels)} cells")
        for column, want in ref.opencv.items():
            errors += differences("opencv " + column, table[column], want, column in INTEGER_COLUMNS)
    want_touches = expected_touches(table, ref.shape)
    bad = [i for i, (a, b) in enumerate(zip(table["touches"], want_touches)) if a != b]
    errors += [f"touches of label {i + 1}: {table['touches'][i]!r}, expected {want_touches[i]!r}" for i in bad[:3]]
    errors += measure_differences(table, ref.measures)
    return errors


def available_backends(ccl4j):
    """The backends `ccl4j info --json` lists, but auto."""
    info = json.loads(subprocess.run(ccl4j + ["info", "--json"], cwd=ROOT, check=True, capture_output=True,
                                     text=True).stdout)
    return [b for b in info["backends"] if b != "auto"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ccl4j", default="./ccl4j",
                        help="the command that runs the CLI, from the repository root (default: ./ccl4j)")
    parser.add_argument("--backends", help="comma-separated (default: every backend `ccl4j info` lists)")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory and print it")
    args = parser.parse_args()
    ccl4j = shlex.split(args.ccl4j)
    backends = args.backends.split(",") if args.backends else available_backends(ccl4j)
    runs = [(b, a) for b in backends for a in ALGORITHMS[b]]

    directory = tempfile.mkdtemp(prefix="ccl4j-regionprops-")
    results = []  # (case, {(backend, algorithm): ok})
    failed = False
    for name, mask, intensity in cases(args.seed):
        mask_file, read_options = write(directory, name, mask.astype(np.uint8) * 255)
        intensity_file, _ = write(directory, name + "-intensity", intensity)
        for connectivity in ((4, 8) if mask.ndim == 2 else (6, 26)):
            case = f"{name} c{connectivity}"
            ref = Reference(mask, intensity, connectivity)
            row = {}
            for backend, algorithm in runs:
                csv_file = os.path.join(directory, "regions.csv")
                out_file = os.path.join(directory, "labels.raw")
                command = ccl4j + ["mesh", mask_file] + read_options + [
                    "--connectivity", str(connectivity), "--backend", backend, "--algorithm", algorithm,
                    "--intensity", intensity_file, "--regions", csv_file, "--out", out_file,
                    "--spacing", ",".join(map(str, ref.spacing))]
                done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
                if done.returncode != 0:
                    errors = [f"exit {done.returncode}: {done.stderr.strip()}"]
                else:
                    labels = raster(np.fromfile(out_file, dtype="<i4"), mask.shape)
                    errors = compare(read_csv(csv_file), labels, ref)
                row[(backend, algorithm)] = not errors
                if errors:
                    failed = True
                    print(f"FAIL {case} {backend}/{algorithm}: {shlex.join(command)}", file=sys.stderr)
                    for e in errors:
                        print("  " + e, file=sys.stderr)
            results.append((f"{case} ({ref.count})", row))
            print(f"{case}: {ref.count} components, "
                  f"{sum(row.values())}/{len(row)} runs pass", file=sys.stderr, flush=True)

    names = [f"{b}/{a}" for b, a in runs]
    width = max(len(c) for c, _ in results)
    print(" " * width + " | " + " | ".join(names))
    for case, row in results:
        print(case.ljust(width) + " | " + " | ".join(
            ("pass" if row[r] else "FAIL").center(len(n)) for r, n in zip(runs, names)))
    print(f"{sum(sum(r.values()) for _, r in results)} of {len(results) * len(runs)} runs pass")
    if args.keep:
        print("files: " + directory)
    else:
        for f in os.listdir(directory):
            os.remove(os.path.join(directory, f))
        os.rmdir(directory)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
