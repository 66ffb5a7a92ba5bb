#!/usr/bin/env python3
"""Acceptance check of `ccl4j distances --json` against SciPy's shortest paths on SNAP graphs.

For every SNAP edge list given (default: every *.txt of /work/shared/graphs, read in place), runs
`ccl4j distances FILE --format snap --json` on every backend asked for and compares each row with
scipy.sparse.csgraph.shortest_path (unweighted, undirected, breadth-first) computed here, component
by component (scipy.sparse.csgraph.connected_components) and in chunks of sources, so that no n x n
matrix is held:
  - the component of a row: the one holding the row's vertex (`fileId`, the file's id of the
    component's smallest vertex, when ccl4j renumbered the ids; else `label`);
  - vertices, pathSum (the sum of d(u, v) over ordered pairs of distinct vertices) and diameter:
    exactly; meanPathLength: pathSum / (k (k - 1)) to 1e-12 relative (0 for a single vertex);
  - the row count: every component once, in increasing order of smallest vertex.
Self loops and repeated or reversed edges of the file change no distance; both sides read the
file as an undirected graph. Prints a row of backends per graph as soon as it is done, and exits 1
on any mismatch or failed run (the differences and the command go to standard error).

Usage: scripts/verify/distances.py [--ccl4j CMD] [--backends cpu,cpu-serial,java,cuda]
                                   [--floyd-warshall N] [FILE ...]
"""
import argparse
import glob
import json
import os
import shlex
import subprocess
import sys
import time

import numpy as np
import scipy.sparse
import scipy.sparse.csgraph

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
GRAPHS = "/work/shared/graphs"
CHUNK = 256  # sources per shortest_path call: CHUNK x k doubles at a time
RTOL = 1e-12


def read_snap(path):
    """The file's edges as two int64 arrays of file ids ('#' lines are comments)."""
    pairs = np.loadtxt(path, comments="#", dtype=np.int64, ndmin=2)
    if pairs.size == 0:
        return np.empty(0, np.int64), np.empty(0, np.int64)
    return pairs[:, 0], pairs[:, 1]


class Reference:
    """The rows of a SNAP graph from SciPy: per component, keyed by each of its file ids."""

    def __init__(self, path):
        sources, targets = read_snap(path)
        ids = np.unique(np.concatenate([sources, targets]))
        self.ids = ids
        n = len(ids)
        u = np.searchsorted(ids, sources)
        v = np.searchsorted(ids, targets)
        keep = u != v  # a self loop is no path
        a = scipy.sparse.coo_matrix((np.ones(int(keep.sum()), np.int8), (u[keep], v[keep])), shape=(n, n)).tocsr()
        self.graph = ((a + a.T) > 0).astype(np.int8).tocsr()
        self.count, self.component = scipy.sparse.csgraph.connected_components(self.graph, directed=False)
        self.rows = {}  # component index -> (vertices, path sum, diameter)

    def row_of(self, file_id):
        """The (vertices, path sum, diameter) of the component holding `file_id`, computed once."""
        at = np.searchsorted(self.ids, file_id)
        if at >= len(self.ids) or self.ids[at] != file_id:
            raise KeyError(f"vertex {file_id} is not in the file")
        c = int(self.component[at])
        if c not in self.rows:
            members = np.flatnonzero(self.component == c)
            sub = self.graph[members][:, members]
            total = 0
            diameter = 0
            for first in range(0, len(members), CHUNK):
                d = scipy.sparse.csgraph.shortest_path(sub, method="D", directed=False, unweighted=True,
                                                       indices=np.arange(first, min(first + CHUNK, len(members))))
                if not np.isfinite(d).all():
                    raise RuntimeError(f"component {c} is not connected in SciPy's own search")
                total += int(d.sum(dtype=np.float64))  # integers below 2^53: exact
                diameter = max(diameter, int(d.max()))
            self.rows[c] = (len(members), total, diameter)
        return c, self.rows[c]


def available_backends(ccl4j):
    """The backends `ccl4j info --json` lists, but auto."""
    info = json.loads(subprocess.run(ccl4j + ["info", "--json"], cwd=ROOT, check=True, capture_output=True,
                                     text=True).stdout)
    return [b for b in info["backends"] if b != "auto"]


def compare(result, ref, name):
    """The differences between ccl4j's JSON and the reference, as lines (empty: none)."""
    problems = []
    rows = result["rows"]
    if result["components"] != ref.count or len(rows) != ref.count:
        problems.append(f"{name}: {result['components']} components ({len(rows)} rows), SciPy finds {ref.count}")
    seen = set()
    for row in rows:
        file_id = row.get("fileId", row["label"])
        try:
            c, (k, total, diameter) = ref.row_of(file_id)
        except KeyError as e:
            problems.append(f"{name}: row {row}: {e}")
            continue
        if c in seen:
            problems.append(f"{name}: component of vertex {file_id} reported twice")
        seen.add(c)
        mean = 0.0 if k < 2 else total / (k * (k - 1))
        got = (row["vertices"], row["pathSum"], row["diameter"])
        if got != (k, total, diameter):
            problems.append(f"{name}: component of vertex {file_id}: (vertices, pathSum, diameter) = {got},"
                            f" SciPy {(k, total, diameter)}")
        if abs(row["meanPathLength"] - mean) > RTOL * max(1.0, abs(mean)):
            problems.append(f"{name}: component of vertex {file_id}: mean {row['meanPathLength']!r}, SciPy {mean!r}")
    if problems:
        return problems
    labels = [row["label"] for row in rows]
    if labels != sorted(labels):
        problems.append(f"{name}: rows not in increasing order of their smallest vertex")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help=f"SNAP edge lists (default: {GRAPHS}/*.txt)")
    parser.add_argument("--ccl4j", default="./ccl4j",
                        help="the command that runs the CLI, from the repository root (default: ./ccl4j)")
    parser.add_argument("--backends", help="comma-separated (default: every backend `ccl4j info` lists)")
    parser.add_argument("--floyd-warshall", type=int, default=0, metavar="N",
                        help="also run --algorithm floyd-warshall (CPU and Java backends) on graphs of at most N"
                             " vertices (default: 0, none; O(n^3))")
    args = parser.parse_args()
    ccl4j = shlex.split(args.ccl4j)
    backends = args.backends.split(",") if args.backends else available_backends(ccl4j)
    files = args.files or sorted(glob.glob(os.path.join(GRAPHS, "*.txt")))
    if not files:
        sys.exit(f"no graphs given and none in {GRAPHS}")

    failed = False
    for path in files:
        start = time.time()
        ref = Reference(path)
        name = os.path.basename(path)
        print(f"{name}: {len(ref.ids)} vertices, {ref.count} components", file=sys.stderr)
        runs = [(b, "bfs") for b in backends]
        if len(ref.ids) <= args.floyd_warshall:
            runs += [(b, "floyd-warshall") for b in backends if b != "cuda"]
        cells = []
        for backend, algorithm in runs:
            command = ccl4j + ["distances", path, "--format", "snap", "--json", "--backend", backend,
                               "--algorithm", algorithm]
            done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
            what = f"{name} {backend}/{algorithm}"
            if done.returncode != 0:
                print(f"{what}: exit {done.returncode}: {done.stdout}{done.stderr}\n  {shlex.join(command)}",
                      file=sys.stderr)
                cells.append(f"{backend}/{algorithm}: FAILED")
                failed = True
                continue
            result = json.loads(done.stdout)
            problems = compare(result, ref, what)
            for p in problems:
                print(p, file=sys.stderr)
            if problems:
                print("  " + shlex.join(command), file=sys.stderr)
                failed = True
            ms = result["timingsMs"]["total"]
            cells.append(f"{backend}/{algorithm}: {'ok' if not problems else 'MISMATCH'} ({ms:.0f} ms)")
        print(f"{name}: done in {time.time() - start:.1f} s", file=sys.stderr)
        # each graph's row as soon as it is done, so that a run cut short still reports its graphs
        print(f"{name:24s} {len(ref.ids):8d} vertices {ref.count:6d} components  " + "  ".join(cells), flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
