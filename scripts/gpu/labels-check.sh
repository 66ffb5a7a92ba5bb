#!/usr/bin/env bash
# GPU machine: the label book-keeping and the contacts there. Builds the library, its C++ tests and
# bench_labels, runs test_labels and test_cuda_labels (the GPU against a straightforward
# computation) and test_contacts (every backend against a whole-neighbourhood count), both GPU
# tests under compute-sanitizer memcheck, generates grid2d_4096 and
# bond2d_4096_p05 (with .gpu-carry/java, from scripts/gpu/prepare.sh) and times compaction + sizes
# of their labels (bench_labels). It also runs the Java label and contacts tests on CUDA and `ccl4j label
# --stats` on the CUDA backend for the graphs named in $STATS_GRAPHS (.egr files).
#   bash scripts/gpu/labels-check.sh [--skip-tests]
# Output goes to $OUT/labels.log when OUT is set.
set -u -o pipefail
skip_tests=0
[ "${1:-}" = --skip-tests ] && skip_tests=1
source "$(dirname "$0")/common.sh" labels.log
describe_machine
targets=(ccl4j bench_labels)
[ $skip_tests = 1 ] || targets+=(test_labels test_cuda_labels test_contacts)
build_native labels-build.log "${targets[@]}"

if [ $skip_tests = 0 ]; then
  step "test_labels (CPU) and test_cuda_labels (GPU)"
  $(find_binary test_labels) | tail -3 || failed test_labels
  $(find_binary test_cuda_labels) | tail -5 || failed test_cuda_labels
  step "compute-sanitizer memcheck on test_cuda_labels"
  timeout 120 compute-sanitizer --tool memcheck --error-exitcode 3 $(find_binary test_cuda_labels) \
    >"$logs/labels-memcheck.log" 2>&1 || failed "memcheck (see labels-memcheck.log)"
  grep -E "ERROR SUMMARY|passed, .* failed" "$logs/labels-memcheck.log"
  step "test_contacts (CPU and GPU), and under compute-sanitizer memcheck"
  $(find_binary test_contacts) | tail -5 || failed test_contacts
  timeout 300 compute-sanitizer --tool memcheck --error-exitcode 3 $(find_binary test_contacts) \
    >"$logs/contacts-memcheck.log" 2>&1 || failed "memcheck (see contacts-memcheck.log)"
  grep -E "ERROR SUMMARY|passed, .* failed" "$logs/contacts-memcheck.log"
fi

generate_suite "grid2d_4096 bond2d_4096_p05"
step "bench_labels"
$(find_binary bench_labels) --runs 21 grid2d_4096=$graphs/grid2d_4096.egr \
  bond2d_4096_p05=$graphs/bond2d_4096_p05.egr || failed bench_labels

java_dir=.gpu-carry/java
bash "$(dirname "$0")/unpack-jre.sh"
if [ -x "$java_dir/jre/bin/java" ]; then
  step "Java label and contacts tests on CUDA"
  classpath="$java_dir/ccl4j.jar:$java_dir/test-classes:$(ls "$java_dir"/lib/*.jar | grep -v console-standalone | tr '\n' ':')"
  timeout 90 "$java_dir/jre/bin/java" --enable-native-access=ALL-UNNAMED -jar "$java_dir"/lib/junit-platform-console-standalone-*.jar \
    execute --class-path "$classpath" --select-class org.ccl4j.LabelBookkeepingProperties \
    --select-class org.ccl4j.ContactsProperties \
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
