# Sourced by the GPU machine scripts (run from the repository root): their logs, the machine's
# description, the native build and the graph suite of shared/BENCHMARKS.md (generated with the
# CLI's jar and the Java runtime that scripts/gpu/prepare.sh puts in .gpu-carry/java).
#   source scripts/gpu/common.sh LOG   everything printed afterwards also goes to $logs/LOG
# Logs go to $OUT when set (the device tool brings them back), else to /tmp/ccl4j-gpu-logs.

logs=${OUT:-/tmp/ccl4j-gpu-logs}
graphs=/tmp/ccl4j-graphs
build=build
mkdir -p "$logs" "$graphs"
exec > >(tee -a "$logs/$1") 2>&1
status=0
step() { echo; echo "== $(date +%T) $*"; }
failed() { echo "FAILED: $*"; status=1; }

describe_machine() {
  step "machine"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv
  gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
  nvcc --version | tail -1
}

# build_native LOG [TARGET...]: configures and builds the targets (all when none are named) in
# $build with this machine's cmake and nvcc, the output in $logs/LOG; exits when that fails.
build_native() {
  local log=$logs/$1
  shift
  local targets=()
  [ $# -gt 0 ] && targets=(--target "$@")
  step "build"
  if ! { cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCCL4J_BENCH=ON &&
         cmake --build "$build" -j "$(nproc)" "${targets[@]}"; } >"$log" 2>&1; then
    tail -40 "$log"
    failed "build"
    exit 1
  fi
  grep -E "warning" "$log" | head -20
}

find_binary() { find "$build" -name "$1" -type f -perm -u+x | head -1; }

# name | generate-graph arguments | components | ECL-CC v1.1 kernel ms on an H200 | on an H100 (shared/BENCHMARKS.md)
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

# generate_suite ["NAME ..."]: generates the suite's graphs (only those named, when given) into
# $graphs, reusing those already there, and lists them in suite_rows as "name|file|components|ms",
# ms being ECL-CC v1.1's kernel time on this machine's GPU (0 when it is neither an H100 nor an
# H200; describe_machine first).
generate_suite() {
  local only=${1:-} name args components h200 h100 kind ref pids=()
  local java=.gpu-carry/java/jre/bin/java jar=.gpu-carry/java/ccl4j.jar
  suite_rows=()
  step "generate the suite"
  bash "$(dirname "${BASH_SOURCE[0]}")/unpack-jre.sh"
  [ -x "$java" ] && [ -f "$jar" ] ||
    { failed "no $java or $jar (run scripts/gpu/prepare.sh and carry .gpu-carry)"; exit 1; }
  while IFS='|' read -r name args components h200 h100; do
    [ -z "$name" ] && continue
    case " ${only:-$name} " in *" $name "*) ;; *) continue ;; esac
    case ${gpu_name:-} in *H200*) ref=$h200 ;; *H100*) ref=$h100 ;; *) ref=0 ;; esac
    suite_rows+=("$name|$graphs/$name.egr|$components|$ref")
    [ -s "$graphs/$name.egr" ] && continue
    kind=${args%% *}
    # Several generators at once: much of their work is serial (a random stream is a chain).
    # The files are the same whatever the thread count; each is written to a temporary file first.
    # shellcheck disable=SC2086
    "$java" -jar "$jar" generate-graph "$kind" "$graphs/$name.egr" ${args#"$kind"} &
    pids+=($!)
  done <<<"$suite"
  # (a bare `wait` would also wait for the tee behind the log)
  for pid in "${pids[@]}"; do wait "$pid" || failed "generate-graph"; done
}
