#!/usr/bin/env bash
# GPU machine: `ccl4j bench` through the jar and runtime that scripts/gpu/prepare.sh put in
# .gpu-carry/java, graphs generated with .gpu-carry/gengraph.cpp into /tmp/ccl4j-graphs.
# Arguments go to `ccl4j bench` (e.g. --suite full --algorithm all --markdown $OUT/bench.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)}  # gengraph's R-MAT and power-law graphs depend on it
bash "$(dirname "$0")/unpack-jre.sh"
exec .gpu-carry/java/jre/bin/java --enable-native-access=ALL-UNNAMED -Xmx16g -jar .gpu-carry/java/ccl4j.jar bench \
  --dir /tmp/ccl4j-graphs --gengraph .gpu-carry/gengraph.cpp "$@"
