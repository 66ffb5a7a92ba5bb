#!/usr/bin/env bash
# GPU machine: the JMH benchmarks jar that scripts/gpu/prepare.sh put in .gpu-carry/java, on the
# runtime there; suite graphs generated with .gpu-carry/gengraph.cpp into /tmp/ccl4j-graphs.
# Arguments go to JMH, e.g.
#   bash scripts/gpu/java-jmh.sh 'Cuda.*Phases' -p graph=grid2d_4096,rmat22 -wi 1 -i 3 -rf csv -rff $OUT/jmh.csv
# With --phase-check first, checks the phase runs against the union-find instead (PhaseCheck):
#   bash scripts/gpu/java-jmh.sh --phase-check cuda ecl,komura grid2d_4096 test-graphs/random.egr
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)}  # gengraph's R-MAT and power-law graphs depend on it
export CCL4J_BENCH_GRAPHS=${CCL4J_BENCH_GRAPHS:-/tmp/ccl4j-graphs}
export CCL4J_GENGRAPH_SRC=${CCL4J_GENGRAPH_SRC:-$root/.gpu-carry/gengraph.cpp}
bash "$(dirname "$0")/unpack-jre.sh"
java=(.gpu-carry/java/jre/bin/java --enable-native-access=ALL-UNNAMED -Xmx16g)
jar=.gpu-carry/java/ccl4j-benchmarks.jar
if [ "${1:-}" = --phase-check ]; then
  shift
  exec "${java[@]}" -cp "$jar" org.ccl4j.bench.PhaseCheck "$@"
fi
exec "${java[@]}" -jar "$jar" "$@"
