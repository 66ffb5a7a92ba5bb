#!/usr/bin/env bash
# GPU machine: the label book-keeping there. Builds the library, its C++ tests and bench_labels
# for sm_90, runs test_labels and test_cuda_labels (the GPU against a straightforward
# computation), test_cuda_labels under compute-sanitizer memcheck, generates grid2d_4096 and
# bond2d_4096_p05 and times compaction + sizes of their labels (bench_labels). With .gpu-carry/java
# (scripts/gpu/prepare.sh) it also runs the Java label tests on CUDA and `ccl4j label --stats`
# on the CUDA backend for the graphs named in $STATS_GRAPHS (.egr files).
#   bash scripts/gpu/labels-check.sh [--skip-tests]
# Output goes to $OUT/labels.log when OUT is set.
set -u -o pipefail
skip_tests=0
[ "${1:-}" = --skip-tests ] && skip_tests=1
logs=${OUT:-/tmp/ccl4j-gpu-logs}
mkdir -p "$logs"
exec > >(tee -a "$logs/labels.log") 2>&1
status=0
step() { echo; echo "== $(date +%T) $*"; }
failed() { echo "FAILED: $*"; status=1; }

step "machine"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
step "build"
if ! { cmake -S . -B build-labels -DCMAKE_BUILD_TYPE=Release -DCCL4J_BENCH=ON -DCMAKE_CUDA_ARCHITECTURES=90 &&
       cmake --build build-labels -j "$(nproc)" --target ccl4j bench_labels \
         $([ $skip_tests = 1 ] || echo test_labels test_cuda_labels); } \
     >"$logs/labels-build.log" 2>&1; then
  tail -30 "$logs/labels-build.log"; failed build; exit 1
fi
if [ $skip_tests = 0 ]; then
  step "test_labels (CPU) and test_cuda_labels (GPU)"
  build-labels/native/tests/test_labels | tail -3 || failed test_labels
  build-labels/native/tests/test_cuda_labels | tail -5 || failed test_cuda_labels
  step "compute-sanitizer memcheck on test_cuda_labels"
  timeout 120 compute-sanitizer --tool memcheck --error-exitcode 3 build-labels/native/tests/test_cuda_labels \
    >"$logs/labels-memcheck.log" 2>&1 || failed "memcheck (see labels-memcheck.log)"
  grep -E "ERROR SUMMARY|passed, .* failed" "$logs/labels-memcheck.log"
fi

step "generate grid2d_4096 and bond2d_4096_p05"
graphs=/tmp/ccl4j-graphs
mkdir -p "$graphs"
g++ -O3 -fopenmp .gpu-carry/gengraph.cpp -o /tmp/gengraph || { failed gengraph; exit 1; }
export OMP_NUM_THREADS=16
# (one after the other: a bare `wait` would also wait for the tee behind the log)
[ -s $graphs/grid2d_4096.egr ] || /tmp/gengraph grid2d $graphs/grid2d_4096.egr 4096 || failed gengraph
[ -s $graphs/bond2d_4096_p05.egr ] || /tmp/gengraph bond2d $graphs/bond2d_4096_p05.egr 4096 0.5 || failed gengraph
step "bench_labels"
build-labels/native/bench/bench_labels --runs 21 grid2d_4096=$graphs/grid2d_4096.egr \
  bond2d_4096_p05=$graphs/bond2d_4096_p05.egr || failed bench_labels

java_dir=.gpu-carry/java
bash "$(dirname "$0")/unpack-jre.sh"
if [ -x "$java_dir/jre/bin/java" ]; then
  step "Java label tests on CUDA"
  classpath="$java_dir/ccl4j.jar:$java_dir/test-classes:$(ls "$java_dir"/lib/*.jar | grep -v console-standalone | tr '\n' ':')"
  timeout 90 "$java_dir/jre/bin/java" --enable-native-access=ALL-UNNAMED -jar "$java_dir"/lib/junit-platform-console-standalone-*.jar \
    execute --class-path "$classpath" --select-class org.ccl4j.LabelBookkeepingProperties \
    --select-class org.ccl4j.ComponentLabelerTest --config jqwik.database=/tmp/ccl4j-jqwik-database \
    --details=summary --disable-banner 2>&1 | grep -vE "^\s*$" | tail -15 ||
    failed "Java label tests"
  for g in $graphs/bond2d_4096_p05.egr ${STATS_GRAPHS:-}; do
    step "ccl4j label $(basename "$g") --stats --json --backend cuda"
    "$java_dir/jre/bin/java" --enable-native-access=ALL-UNNAMED -cp "$java_dir/ccl4j.jar" org.ccl4j.cli.Main \
      label "$g" --stats --json --backend cuda >"$logs/stats-$(basename "$g" .egr).json" || failed "stats $g"
    cut -c1-400 "$logs/stats-$(basename "$g" .egr).json"
  done
fi
exit $status
