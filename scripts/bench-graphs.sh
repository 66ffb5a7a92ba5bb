#!/usr/bin/env bash
# Generates benchmark graphs with shared/tools/gengraph.cpp into target/bench-graphs (cached).
#   scripts/bench-graphs.sh                      the small CPU set: grid2d_1024 rmat_18_8
#   scripts/bench-graphs.sh NAME...              named graphs, NAME = KIND_ARGS joined by '_'
#                                                (grid2d_4096, bond2d_4096_0.5, rmat_22_8, line_24, ...)
# The generator is looked up in ../shared/tools (beside the checkout) or $CCL4J_GENGRAPH_SRC.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${CCL4J_BENCH_GRAPHS:-$root/target/bench-graphs}
src=${CCL4J_GENGRAPH_SRC:-$root/../shared/tools/gengraph.cpp}
mkdir -p "$out" "$root/target/tools"
gen="$root/target/tools/gengraph"
if [ ! -x "$gen" ] || [ "$src" -nt "$gen" ]; then
  [ -f "$src" ] || { echo "gengraph source not found at $src (set CCL4J_GENGRAPH_SRC)" >&2; exit 2; }
  g++ -O3 -fopenmp "$src" -o "$gen"
fi
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(grid2d_1024 rmat_18_8)
for name in "${names[@]}"; do
  file="$out/$name.egr"
  [ -f "$file" ] && continue
  IFS=_ read -r -a parts <<< "$name"
  "$gen" "${parts[0]}" "$file" "${parts[@]:1}"
done
