#!/usr/bin/env bash
# Generates benchmark graphs into target/bench-graphs (cached) with `ccl4j generate-graph`.
#   scripts/bench-graphs.sh                      the small CPU set: grid2d_1024 rmat_18_8
#   scripts/bench-graphs.sh NAME...              named graphs, NAME = KIND_ARGS joined by '_'
#                                                (grid2d_4096, bond2d_4096_0.5, rmat_22_8, line_24, ...)
# (ccl4j bench and the JMH benchmarks make the suite graphs they need themselves, as NAME.egr.)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${CCL4J_BENCH_GRAPHS:-$root/target/bench-graphs}
mkdir -p "$out"
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(grid2d_1024 rmat_18_8)
for name in "${names[@]}"; do
  file="$out/$name.egr"
  [ -f "$file" ] && continue
  IFS=_ read -r -a parts <<< "$name"
  "$root/ccl4j" generate-graph "${parts[0]}" "$file" "${parts[@]:1}"
done
