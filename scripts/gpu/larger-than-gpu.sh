#!/usr/bin/env bash
# GPU machine with host memory for about twice the graph (prepare here with scripts/gpu/prepare.sh
# and carry .gpu-carry): a graph larger than the GPU's memory labelled end to end.
#   0. past 2^31 arcs on every path: bench_big_graph with 48,000,000 vertices (about 2.2 G arcs,
#      a 9.2 GB CSR that fits) in page-locked memory, labelled by Afforest and ECL-CC with the
#      graph copied to the GPU and by STREAMED reading it in place, each checked against
#      CPU_PARALLEL;
#   1. bench_big_graph generates a symmetric graph of VERTICES vertices in host memory (about 46
#      arcs a vertex, int64 offsets; 1,000,000,000 vertices make a CSR of about 192 GB, 1.27x an
#      H200's 141 GB), labels it with CPU_PARALLEL, then RUNS times with STREAMED on each of the
#      DEVICE_SETS ('/' between sets: 0/0,1/0,1,2,3), from pageable memory (gathered) and then
#      page-locked (read in place), each result checked equal to CPU_PARALLEL's, and writes it as a
#      .csr file;
#   2. `ccl4j label` maps that file (FileChannel.map: zero copy) and labels it on the GPU, with
#      its time to first byte, under `time`.
# The file goes to /dev/shm when it has room (so that writing it costs no disk time; mapped, it is
# served by the page cache either way), else to DIR. Logs in $OUT (or /tmp/ccl4j-gpu-logs).
#
#   bash scripts/gpu/larger-than-gpu.sh [VERTICES [RUNS [DEVICE_SETS [DIR]]]]   (default 1000000000 3 0 /tmp)
set -euo pipefail
cd "$(dirname "$0")/../.."
vertices=${1:-1000000000}
runs=${2:-3}
device_sets=${3:-0}
dir=${4:-/tmp}
source scripts/gpu/common.sh larger-than-gpu.txt
describe_machine
step "host"
nproc
free -g
df -h /dev/shm "$dir"
if [ -z "$(find_binary bench_big_graph)" ]; then build_native build-big.log ccl4j bench_big_graph; fi

# The file's size, from the generator's average of about 46 arcs a vertex, with 10 % to spare.
need_gb=$(( vertices * (8 + 4 * 46) * 11 / 10 / 1000000000 + 1 ))
room_gb() { df -BG --output=avail "$1" | tail -1 | tr -dc 0-9; }
file=
for place in /dev/shm "$dir"; do
  if [ "$(room_gb "$place")" -ge "$need_gb" ]; then file=$place/ccl4j-big.csr; break; fi
done
[ -n "$file" ] || echo "NOTICE: no room for a ${need_gb} GB file in /dev/shm or $dir: the mapped-file run is left out"

step "past 2^31 arcs on every path"
"$(find_binary bench_big_graph)" --vertices 48000000 --runs 1 --memory pinned --algorithms afforest,ecl-cc,streamed ||
  failed "bench_big_graph, 2^31 arcs"

step "bench_big_graph --vertices $vertices --runs $runs"
"$(find_binary bench_big_graph)" --vertices "$vertices" --runs "$runs" --devices "$device_sets" --memory pageable,pinned \
  ${file:+--csr "$file"} ||
  failed "bench_big_graph"

if [ -n "$file" ] && [ -f "$file" ]; then
  bash scripts/gpu/unpack-jre.sh
  step "ccl4j label $file (mapped), on the GPU"
  time .gpu-carry/java/jre/bin/java --enable-native-access=ALL-UNNAMED -jar .gpu-carry/java/ccl4j.jar \
    label "$file" --backend cuda --no-check --json || failed "ccl4j label"
  rm -f "$file"
fi
exit $status
