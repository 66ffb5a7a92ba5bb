#!/usr/bin/env bash
# Run on the GPU machine, from the repository root (prepare here first with scripts/gpu/prepare.sh
# and carry .gpu-carry, which holds the graph generator): Hawick's graph Kernels 1-3 and Komura's
# label reduction on the GPU.
#   1. builds test_graph_algorithms, test_cuda_graph_algorithms and bench_algorithms with that
#      machine's cmake and nvcc;
#   2. runs both tests, then test_cuda_graph_algorithms --quick under compute-sanitizer
#      (memcheck and synccheck);
#   3. generates the graph suite of shared/BENCHMARKS.md with gengraph (into /tmp/ccl4j-graphs,
#      reusing graphs already there);
#   4. runs bench_algorithms (ECL-CC, Kernels 1-3, Komura) over the suite and prints its table
#      last: graph, algorithm, kernel ms (median), iterations.
#
#   bash scripts/gpu/graph-algorithms.sh [--skip-tests] [--skip-sanitizer] [--skip-bench]
#        [--graphs "NAME ..."] [--algorithms ecl,edge,vertex,bfs,komura] [--budget-s S] [--runs R]
#
# --budget-s bounds the time of each (graph, algorithm) pair (default 4 s): Kernels 1-3 need
# about a launch per level or edge of distance, and the pairs that cannot finish within it are
# reported as "gave up". Logs go to $OUT when set (the device tool brings them back), else to
# /tmp/ccl4j-gpu-logs. Exits non-zero if a step fails; later steps still run.
set -u -o pipefail

skip_tests=0
skip_sanitizer=0
skip_bench=0
only_graphs=""
algorithms=ecl,edge,vertex,bfs,komura
budget=4
runs=9
while [ $# -gt 0 ]; do
  case $1 in
    --skip-tests) skip_tests=1 ;;
    --skip-sanitizer) skip_sanitizer=1 ;;
    --skip-bench) skip_bench=1 ;;
    --graphs) only_graphs=$2; shift ;;
    --algorithms) algorithms=$2; shift ;;
    --budget-s) budget=$2; shift ;;
    --runs) runs=$2; shift ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done

logs=${OUT:-/tmp/ccl4j-gpu-logs}
graphs=/tmp/ccl4j-graphs
build=build
mkdir -p "$logs" "$graphs"
# Everything printed also goes to graph-algorithms.log.
exec > >(tee -a "$logs/graph-algorithms.log") 2>&1
status=0
step() { echo; echo "== $(date +%T) $*"; }
failed() { echo "FAILED: $*"; status=1; }

step "machine"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv
nvcc --version | tail -1

step "build"
targets=(test_graph_algorithms test_cuda_graph_algorithms bench_algorithms)
if ! { cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCCL4J_BENCH=ON &&
       cmake --build "$build" -j "$(nproc)" --target "${targets[@]}"; } >"$logs/graph-algorithms-build.log" 2>&1; then
  tail -40 "$logs/graph-algorithms-build.log"
  failed "build"
  exit 1
fi
grep -E "warning" "$logs/graph-algorithms-build.log" | head -20
find_binary() { find "$build" -name "$1" -type f -perm -u+x | head -1; }
test_cpu=$(find_binary test_graph_algorithms)
test_gpu=$(find_binary test_cuda_graph_algorithms)
bench=$(find_binary bench_algorithms)

if [ $skip_tests = 0 ]; then
  step "test_graph_algorithms (CPU versions, the C ABI on every backend)"
  "$test_cpu" 2>&1 | tail -30 || failed "test_graph_algorithms"
  step "test_cuda_graph_algorithms (GPU versions against the CPU versions)"
  "$test_gpu" 2>&1 | tail -40 || failed "test_cuda_graph_algorithms"
fi

if [ $skip_tests = 0 ] && [ $skip_sanitizer = 0 ]; then
  for tool in memcheck synccheck; do
    step "compute-sanitizer $tool on test_cuda_graph_algorithms --quick"
    timeout 240 compute-sanitizer --tool $tool --error-exitcode 3 "$test_gpu" --quick \
      >"$logs/graph-algorithms-$tool.log" 2>&1 || failed "$tool (see graph-algorithms-$tool.log)"
    grep -E "ERROR SUMMARY|passed, .* failed" "$logs/graph-algorithms-$tool.log"
  done
fi

[ $skip_bench = 1 ] && exit $status

# name | gengraph arguments | components (shared/BENCHMARKS.md, as in scripts/gpu/native-check.sh)
suite="
grid2d_4096|grid2d 4096|1
bond2d_4096_p05|bond2d 4096 0.5|1650445
grid3d_256|grid3d 256|1
r4_2e23|uniform 23 4|1
rmat22|rmat 22 8|2187144
kron21|rmat 21 44|586040
ws_2e23|ws 23 10 0.1|1
powerlaw_2e22|powerlaw 22 16|3870
line_2e24|line 24|1
shuffledline_2e24|shuffledline 24|1
disjoint_5m|disjoint 5000000 30000000 100|130"

step "generate the suite"
g++ -O3 -fopenmp .gpu-carry/gengraph.cpp -o /tmp/gengraph ||
  { failed "gengraph build (run scripts/gpu/prepare.sh and carry .gpu-carry)"; exit 1; }
bench_args=()
generators=()
while IFS='|' read -r name args components; do
  [ -z "$name" ] && continue
  case " ${only_graphs:-$name} " in *" $name "*) ;; *) continue ;; esac
  bench_args+=("$name=$graphs/$name.egr:$components")
  [ -s "$graphs/$name.egr" ] && continue
  kind=${args%% *}
  # The random generators draw per OpenMP thread: the published counts were made with 16.
  threads=4
  case $kind in rmat|powerlaw) threads=16 ;; esac
  OMP_NUM_THREADS=$threads /tmp/gengraph "$kind" "$graphs/$name.egr" ${args#"$kind"} &
  generators+=($!)
done <<<"$suite"
for pid in "${generators[@]}"; do wait "$pid" || failed "gengraph"; done

step "bench_algorithms --algorithms $algorithms --budget-s $budget --runs $runs"
out=$(mktemp)
"$bench" --algorithms "$algorithms" --budget-s "$budget" --runs "$runs" "${bench_args[@]}" 2>&1 |
  tee "$out" | sed -u '/^Graph algorithms on/,$d' || failed "bench_algorithms"

step "table"
sed -n '/^Graph algorithms on/,$p' "$out"
exit $status
