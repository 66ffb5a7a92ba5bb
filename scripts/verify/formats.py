#!/usr/bin/env python3
"""Acceptance check of ccl4j's NumPy, NRRD, NIfTI-1 and TIFF files against numpy, tifffile and nibabel.

Writes: a random 3D volume is labelled by `ccl4j mesh` with `--out` in every format (.npy, .nrrd,
.nii, .nii.gz, .tif, .tiff; int32, and int64 with --int64-labels where the format holds it) and
saved with `--save` in every format; numpy (np.load, and the NRRD header parsed here), nibabel and
tifffile must read back exactly the labels of the raw `--out` and the cells of the volume, with the
dtype written.

Reads: arrays of every dtype ccl4j reads (uint8, int8, uint16, int16, int32, uint32, float32) are
written by numpy (.npy versions 1.0-3.0, C and Fortran order, both byte orders), by nibabel (.nii,
.nii.gz) and by tifffile (multi-page stacks), and as NRRD (raw and gzip, both byte orders; the
header written here); `ccl4j mesh` must find in each the cluster count it finds in the raw int32
(float32: raw float32) file of the same values, in foreground and same-value modes (floats also
within --delta and through --threshold).

Prints one line per check and exits 1 on any difference or failed run.

Needs python3 with numpy, tifffile and nibabel (Debian: `apt-get install python3-numpy
python3-tifffile python3-nibabel`). From the repository root:

    scripts/verify/formats.py ./ccl4j
    scripts/verify/formats.py java/cli/target/ccl4j-cli-0.1.0-SNAPSHOT-all.jar
"""
import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile

import nibabel
import numpy as np
import tifffile

from launcher import command

FAILURES = []


def run(ccl4j, args):
    """Runs `ccl4j mesh ARGS --json`; returns the JSON object, or None after recording the failure."""
    p = subprocess.run(ccl4j + ["mesh"] + args + ["--json"], capture_output=True, text=True)
    if p.returncode != 0:
        fail("ccl4j mesh " + " ".join(args), "exit %d: %s" % (p.returncode, (p.stdout + p.stderr).strip()))
        return None
    return json.loads(p.stdout)


def fail(case, why):
    FAILURES.append(case)
    print("FAIL %s: %s" % (case, why))


def check(case, ok, why=""):
    if ok:
        print("ok   %s" % case)
    else:
        fail(case, why)


def read_nrrd(path):
    """The array of an attached NRRD file with raw or gzip data, in numpy's (D, H, W) order."""
    with open(path, "rb") as f:
        content = f.read()
    end = content.index(b"\n\n")
    fields = {}
    for line in content[:end].decode("latin-1").split("\n")[1:]:
        if line.startswith("#") or ":=" in line:
            continue
        key, value = line.split(": ", 1)
        fields[key] = value
    types = {"uint8": "u1", "int32": "i4", "int64": "i8"}
    dtype = np.dtype(types[fields["type"]]).newbyteorder("<" if fields.get("endian", "little") == "little" else ">")
    data = content[end + 2:]
    if fields["encoding"] == "gzip":
        data = gzip.decompress(data)
    sizes = [int(s) for s in fields["sizes"].split()]
    return np.frombuffer(data, dtype=dtype).reshape(sizes[::-1]), fields["type"]


def read_back(path):
    """(array in (D, H, W) order, dtype name) as numpy, nibabel or tifffile reads the file."""
    name = path.lower()
    if name.endswith(".npy"):
        a = np.load(path)
        return a, a.dtype.name
    if name.endswith(".nrrd"):
        a, kind = read_nrrd(path)
        return a, kind
    if name.endswith(".nii") or name.endswith(".nii.gz"):
        image = nibabel.load(path)
        a = np.asanyarray(image.dataobj)
        # nibabel's axes are (i, j, k), i fastest: x, y, z
        return a.transpose(2, 1, 0), a.dtype.name
    a = tifffile.imread(path)
    return a.reshape((-1,) + a.shape[-2:]), a.dtype.name


def writes(ccl4j, work, rng):
    shape = (7, 13, 19)  # (D, H, W)
    volume = (rng.random(shape) < 0.45).astype(np.uint8)
    raw = os.path.join(work, "volume.raw")
    volume.tofile(raw)
    dims = "%dx%dx%d" % (shape[2], shape[1], shape[0])
    reference = {}
    for wide in (False, True):
        out = os.path.join(work, "labels%s.raw" % ("64" if wide else ""))
        extra = ["--int64-labels"] if wide else []
        if run(ccl4j, [raw, "--dims", dims, "--connectivity", "26", "--out", out] + extra) is None:
            return
        reference[wide] = np.fromfile(out, dtype="<i8" if wide else "<i4").reshape(shape)
    for name in ("labels.npy", "labels.nrrd", "labels.nii", "labels.nii.gz", "labels.tif", "labels.tiff"):
        for wide in (False, True):
            if wide and ".tif" in name:
                continue
            path = os.path.join(work, ("w" if wide else "") + name)
            extra = ["--int64-labels"] if wide else []
            if run(ccl4j, [raw, "--dims", dims, "--connectivity", "26", "--out", path] + extra) is None:
                continue
            a, kind = read_back(path)
            want = "int64" if wide else "int32"
            check("--out %-14s %s read back" % (os.path.basename(path), want),
                  kind == want and a.shape == shape and np.array_equal(a, reference[wide]),
                  "dtype %s, shape %s, %d cells differ" % (kind, a.shape, np.sum(a != reference[wide])
                                                          if a.shape == shape else -1))
    for name in ("saved.npy", "saved.nrrd", "saved.nii", "saved.nii.gz", "saved.tif"):
        path = os.path.join(work, name)
        if run(ccl4j, [raw, "--dims", dims, "--save", path]) is None:
            continue
        a, kind = read_back(path)
        check("--save %-14s uint8 read back" % name, kind == "uint8" and a.shape == shape and np.array_equal(a, volume),
              "dtype %s, shape %s" % (kind, a.shape))


def nrrd_bytes(a, kind, big, compress):
    """An attached NRRD file of the (D, H, W) array `a`: x fastest, sizes W H D."""
    order = ">" if big else "<"
    data = a.astype(np.dtype(a.dtype).newbyteorder(order)).tobytes()
    header = "NRRD0004\ntype: %s\ndimension: 3\nsizes: %d %d %d\nencoding: %s\nendian: %s\n\n" % (
        kind, a.shape[2], a.shape[1], a.shape[0], "gzip" if compress else "raw", "big" if big else "little")
    return header.encode("ascii") + (gzip.compress(data) if compress else data)


def reads(ccl4j, work, rng):
    shape = (6, 11, 17)
    dims = "%dx%dx%d" % (shape[2], shape[1], shape[0])
    nrrd_types = {"uint8": "uchar", "int8": "signed char", "uint16": "ushort", "int16": "short", "int32": "int",
                  "uint32": "uint", "float32": "float"}
    for dtype in ("uint8", "int8", "uint16", "int16", "int32", "uint32", "float32"):
        floating = dtype == "float32"
        reference = os.path.join(work, "ref-%s.raw" % dtype)
        if floating:
            # steps of a quarter, some cells zero: a tolerance of 0.3 joins neighbours one step apart
            values = (np.round(rng.normal(size=shape) * 4) / 4 * (rng.random(shape) < 0.7)).astype(np.float32)
            values.astype("<f4").tofile(reference)
            ref_args = [reference, "--dims", dims, "--type", "f32"]
        else:
            low = -2 if np.dtype(dtype).kind == "i" else 0
            # sparse, so that the counts are many and a transposed or byte-swapped read would differ
            values = (rng.integers(low, 3, size=shape) * (rng.random(shape) < 0.3)).astype(dtype)
            values.astype("<i4").tofile(reference)
            ref_args = [reference, "--dims", dims, "--type", "i32"]
        modes = [["--mode", "foreground"], ["--mode", "same-value"]]
        if floating:
            modes += [["--delta", "0.3"], ["--threshold", "1"]]
        expected = {}
        for mode in modes:
            result = run(ccl4j, ref_args + mode)
            if result is None:
                return
            expected[mode[1]] = result["clusters"]
        files = []
        # each header version, order and byte order at least once
        for version, fortran, big in (((1, 0), False, False), ((2, 0), True, True), ((3, 0), False, True),
                                      ((1, 0), True, False)):
            a = values.astype(values.dtype.newbyteorder(">" if big else "<"), order="F" if fortran else "C")
            path = os.path.join(work, "in-%s-v%d-%s-%s.npy" % (dtype, version[0], "F" if fortran else "C",
                                                               "be" if big else "le"))
            with open(path, "wb") as f:
                np.lib.format.write_array(f, a, version=version)
            files.append(path)
        for suffix in (".nii", ".nii.gz"):
            path = os.path.join(work, "in-%s%s" % (dtype, suffix))
            image = nibabel.Nifti1Image(values.transpose(2, 1, 0), np.eye(4))
            image.set_data_dtype(values.dtype)
            nibabel.save(image, path)
            files.append(path)
        path = os.path.join(work, "in-%s.tif" % dtype)
        tifffile.imwrite(path, values)  # one page per z-slice
        files.append(path)
        for big, compress in ((False, False), (True, True)):
            path = os.path.join(work, "in-%s-%s%s.nrrd" % (dtype, "be" if big else "le", "-gz" if compress else ""))
            with open(path, "wb") as f:
                f.write(nrrd_bytes(values, nrrd_types[dtype], big, compress))
            files.append(path)
        for path in files:
            for mode in modes:
                result = run(ccl4j, [path] + mode)
                if result is None:
                    continue
                check("read %-28s %-10s %d clusters" % (os.path.basename(path), mode[1], result["clusters"]),
                      result["clusters"] == expected[mode[1]] and result["depth"] == shape[0]
                      and result["height"] == shape[1] and result["width"] == shape[2],
                      "%d clusters, %dx%dx%d; the raw file gives %d" % (result["clusters"], result["width"],
                                                                       result["height"], result["depth"],
                                                                       expected[mode[1]]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("ccl4j", help="the ./ccl4j launcher, the shaded jar, or a command line")
    parser.add_argument("--seed", type=int, default=47)
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args()
    ccl4j = command(args.ccl4j)
    rng = np.random.default_rng(args.seed)
    work = tempfile.mkdtemp(prefix="ccl4j-formats-")
    try:
        writes(ccl4j, work, rng)
        reads(ccl4j, work, rng)
    finally:
        if args.keep:
            print("files kept in " + work)
        else:
            subprocess.run(["rm", "-rf", work])
    print("%d failures" % len(FAILURES))
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
