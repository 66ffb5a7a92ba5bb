#!/usr/bin/env python3
# Checks `ccl4j label GRAPH.egr --stats --json` against scipy's connected_components (an independent
# computation): the component count, the size summary, both histograms and the 10 largest.
#   python3 scripts/check-stats.py GRAPH.egr STATS.json
import json, sys
import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

egr, js = sys.argv[1], sys.argv[2]
raw = np.fromfile(egr, dtype=np.int32)
n, m = int(raw[0]), int(raw[1])
offsets = raw[2:3 + n].astype(np.int64)
neighbors = raw[3 + n:3 + n + m]
g = csr_matrix((np.ones(m, dtype=np.int8), neighbors, offsets), shape=(n, n))
k, comp = connected_components(g, directed=False)
sizes = np.bincount(comp, minlength=k)
first = np.full(k, n, dtype=np.int64)
np.minimum.at(first, comp, np.arange(n))           # smallest vertex of each component = its canonical label
out = json.loads(open(js).read())
exact = {}
for s in sizes: exact[int(s)] = exact.get(int(s), 0) + 1
log2 = {}
for b in range(int(sizes.max()).bit_length()): log2[1 << b] = 0
for s in sizes: log2[1 << (int(s).bit_length() - 1)] += 1
order = sorted(range(k), key=lambda c: (-sizes[c], first[c]))[:10]
expected = {
    "components": k,
    "sizes": {"components": k, "min": int(sizes.min()), "max": int(sizes.max()),
              "mean": round(float(sizes.mean()), 4), "median": round(float(np.median(sizes)), 4)},
    "histogram": {"exact": [{"size": s, "count": c} for s, c in sorted(exact.items())],
                  "log2": [{"min": b, "max": 2 * b - 1, "count": c} for b, c in sorted(log2.items())]},
    "top": [{"label": int(first[c]), "size": int(sizes[c])} for c in order],
}
got = {key: out[key] for key in expected}
got["sizes"] = dict(got["sizes"], mean=round(got["sizes"]["mean"], 4), median=round(got["sizes"]["median"], 4))
ok = got == expected
for key in expected:
    print(f"{key}: {'match' if got[key] == expected[key] else 'DIFFERENT'}")
print(f"{egr}: n={n} arcs={m} components={k} largest={int(sizes.max())} distinct sizes={len(exact)} -> "
      f"{'MATCH' if ok else 'MISMATCH'}")
sys.exit(0 if ok else 1)
