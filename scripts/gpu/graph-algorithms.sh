#!/usr/bin/env bash
# Run on the GPU machine, from the repository root (prepare here first with scripts/gpu/prepare.sh
# and carry .gpu-carry, whose Java runtime and CLI jar generate the graphs): Hawick's graph
# Kernels 1-3, Komura's label reduction and Afforest on the GPU.
#   1. builds test_graph_algorithms, test_cuda_graph_algorithms and bench_algorithms with that
#      machine's cmake and nvcc;
#   2. runs both tests, then test_cuda_graph_algorithms --quick under compute-sanitizer
#      (memcheck and synccheck);
#   3. generates the graph suite of shared/BENCHMARKS.md with `ccl4j generate-graph` (into
#      /tmp/ccl4j-graphs, reusing graphs already there);
#   4. runs bench_algorithms (ECL-CC, Kernels 1-3, Komura, Afforest) over the suite and prints its table
#      last: graph, algorithm, kernel ms (median), iterations.
#
#   bash scripts/gpu/graph-algorithms.sh [--skip-tests] [--skip-sanitizer] [--skip-bench]
#        [--graphs "NAME ..."] [--algorithms ecl,edge,vertex,bfs,komura,afforest] [--budget-s S] [--runs R]
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
algorithms=ecl,edge,vertex,bfs,komura,afforest
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

source "$(dirname "$0")/common.sh" graph-algorithms.log
describe_machine
build_native graph-algorithms-build.log test_graph_algorithms test_cuda_graph_algorithms bench_algorithms
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

generate_suite "$only_graphs"
bench_args=()
for row in "${suite_rows[@]}"; do
  IFS='|' read -r name file components ref <<<"$row"
  bench_args+=("$name=$file:$components")
done

step "bench_algorithms --algorithms $algorithms --budget-s $budget --runs $runs"
out=$(mktemp)
"$bench" --algorithms "$algorithms" --budget-s "$budget" --runs "$runs" "${bench_args[@]}" 2>&1 |
  tee "$out" | sed -u '/^Graph algorithms on/,$d' || failed "bench_algorithms"

step "table"
sed -n '/^Graph algorithms on/,$p' "$out"
exit $status
