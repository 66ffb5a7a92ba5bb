#!/usr/bin/env bash
# Run on the GPU machine, from the repository root (prepare here first with scripts/gpu/prepare.sh
# and carry .gpu-carry):
#   1. builds the native code with that machine's cmake and nvcc, runs ctest;
#   2. runs test_cuda under compute-sanitizer memcheck;
#   3. generates the graph suite of shared/BENCHMARKS.md with gengraph (into /tmp/ccl4j-graphs);
#   4. runs bench_ecl over the suite and prints the benchmark tables last.
#
#   bash scripts/gpu/native-check.sh [--skip-tests] [--skip-sanitizer] [--skip-bench] [--variants]
#                                    [--configs "BLOCK:WARP:BLOCKTHRESHOLD ..."] [--graphs "NAME ..."]
#
# --variants adds the benchmark builds with volatile and ordinary parent accesses (what the
# atomics cost) and a run with 64-bit offsets; --configs adds launch settings to the main run;
# --graphs limits the suite. Logs go to $OUT when set (the device tool brings them back), else
# to /tmp/ccl4j-gpu-logs. Exits non-zero if a step fails; later steps still run.
set -u -o pipefail

skip_tests=0
skip_sanitizer=0
skip_bench=0
variants=0
configs=""
only_graphs=""
while [ $# -gt 0 ]; do
  case $1 in
    --skip-tests) skip_tests=1 ;;
    --skip-sanitizer) skip_sanitizer=1 ;;
    --skip-bench) skip_bench=1 ;;
    --variants) variants=1 ;;
    --configs) configs=$2; shift ;;
    --graphs) only_graphs=$2; shift ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done

logs=${OUT:-/tmp/ccl4j-gpu-logs}
graphs=/tmp/ccl4j-graphs
build=build
mkdir -p "$logs" "$graphs"
# Everything printed also goes to check.log (the device tool brings back at most 8 files).
exec > >(tee -a "$logs/check.log") 2>&1
status=0
step() { echo; echo "== $(date +%T) $*"; }
failed() { echo "FAILED: $*"; status=1; }

step "machine"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv
gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
nvcc --version | tail -1

step "build"
cmake_args=(-S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCCL4J_BENCH=ON)
if ! { cmake "${cmake_args[@]}" && cmake --build "$build" -j "$(nproc)"; } >"$logs/build.log" 2>&1; then
  tail -40 "$logs/build.log"
  failed "build"
  exit 1
fi
grep -E "warning" "$logs/build.log" | head -20
test_cuda=$(find "$build" -name test_cuda -type f -perm -u+x | head -1)
bench_dir=$(dirname "$(find "$build" -name bench_ecl -type f -perm -u+x | head -1)")

step "resource usage and parent-array instructions of the ECL-CC kernels (sm_90)"
object=$(find "$build" -name 'ecl_cc.cu.o' -path '*ccl4j_core*' | head -1)
cuobjdump --dump-resource-usage "$object" 2>/dev/null | grep -E "arch =|Function|REG" | sed -E 's/^\s+//' |
  sed -n '/sm_90/,$p'
cuobjdump -sass -arch sm_90 "$object" >"$logs/ecl_cc.sass" 2>/dev/null &&
  grep -oE "\b(LD|ST|LDG|STG|RED|REDG|ATOM|ATOMG)\.[A-Z0-9._]+" "$logs/ecl_cc.sass" | sort | uniq -c

if [ $skip_tests = 0 ]; then
  step "ctest"
  ctest --test-dir "$build" --output-on-failure 2>&1 | tail -25 || failed "ctest"
  "$test_cuda" 2>&1 | tail -5
fi

if [ $skip_tests = 0 ] && [ $skip_sanitizer = 0 ]; then
  step "compute-sanitizer memcheck on test_cuda"
  compute-sanitizer --tool memcheck --error-exitcode 3 "$test_cuda" >"$logs/memcheck.log" 2>&1 ||
    failed "memcheck (see memcheck.log)"
  grep -E "ERROR SUMMARY|passed, .* failed" "$logs/memcheck.log"
fi

[ $skip_bench = 1 ] && exit $status

# name | gengraph arguments | components | ECL-CC v1.1 kernel ms on H200 | on H100 (BENCHMARKS.md)
suite="
grid2d_4096|grid2d 4096|1|1.10|1.19
bond2d_4096_p05|bond2d 4096 0.5|1650445|1.25|1.45
grid3d_256|grid3d 256|1|0.56|0.75
r4_2e23|uniform 23 4|1|2.01|2.84
rmat22|rmat 22 8|2187144|1.47|1.55
kron21|rmat 21 44|586040|2.19|2.27
ws_2e23|ws 23 10 0.1|1|0.91|1.00
powerlaw_2e22|powerlaw 22 16|3870|2.19|2.32
line_2e24|line 24|1|6.19|6.74
shuffledline_2e24|shuffledline 24|1|1.71|2.18
disjoint_5m|disjoint 5000000 30000000 100|130|1.81|2.00"
case $gpu_name in *H200*) ref_column=4 ;; *H100*) ref_column=5 ;; *) ref_column=0 ;; esac

step "generate the suite"
g++ -O3 -fopenmp .gpu-carry/gengraph.cpp -o /tmp/gengraph || { failed "gengraph build (run scripts/gpu/prepare.sh and carry .gpu-carry)"; exit 1; }
bench_args=()
generators=()
while IFS='|' read -r name args components h200 h100; do
  [ -z "$name" ] && continue
  case " ${only_graphs:-$name} " in *" $name "*) ;; *) continue ;; esac
  ref=0
  [ $ref_column = 4 ] && ref=$h200
  [ $ref_column = 5 ] && ref=$h100
  bench_args+=("$name=$graphs/$name.egr:$components:$ref")
  [ -s "$graphs/$name.egr" ] && continue
  kind=${args%% *}
  # Several generators at once (most of their work is serial). The random ones draw per OpenMP
  # thread, so they need the 16 threads the published counts were made with.
  threads=4
  case $kind in rmat|powerlaw) threads=16 ;; esac
  OMP_NUM_THREADS=$threads /tmp/gengraph "$kind" "$graphs/$name.egr" ${args#"$kind"} &
  generators+=($!)
done <<<"$suite"
# (a bare `wait` would also wait for the tee behind check.log)
for pid in "${generators[@]}"; do wait "$pid" || failed "gengraph"; done

tables=$(mktemp)
run_bench() {  # binary, arguments...
  local binary=$1 out
  shift
  step "bench: $binary $*"
  out=$(mktemp)
  "$bench_dir/$binary" "$@" "${bench_args[@]}" 2>&1 | tee "$out" | sed -u '/^ECL-CC on/,$d' || failed "$binary $*"
  { echo; echo "$binary $*"; sed -n '/^ECL-CC on/,$p' "$out"; } >>"$tables"
  cat "$out" >>"$logs/bench.txt"
}

config_args=(--config 0:0:0)
for c in $configs; do config_args+=(--config "$c"); done
run_bench bench_ecl "${config_args[@]}"
if [ $variants = 1 ]; then
  run_bench bench_ecl --offsets64
  run_bench bench_ecl_volatile
  run_bench bench_ecl_plain
fi

step "tables"
cat "$tables"
exit $status
