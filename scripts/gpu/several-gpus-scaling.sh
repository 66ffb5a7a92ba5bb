#!/usr/bin/env bash
# GPU machine with several GPUs: STREAMED on one GPU and shared out across several, on generated
# graphs of growing size (bench_big_graph: about 46 arcs a vertex, a giant component, int64
# offsets), from pageable host memory, each result checked against CPU_PARALLEL's labels. The
# crossover says from what size AUTO should share a graph out; the largest size is the strong
# scaling past 4 G arcs. Logs in $OUT (or /tmp/ccl4j-gpu-logs).
#
#   bash scripts/gpu/several-gpus-scaling.sh ["VERTICES ..." [DEVICE_SETS [RUNS]]]
#        (default "1000000 3000000 10000000 30000000 100000000", 0/0,1/0,1,2,3 on four GPUs, 5)
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/common.sh several-gpus-scaling.txt
describe_machine
count=$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)
sets=0
for ((d = 2; d <= count; d *= 2)); do sets="$sets/$(seq -s, 0 $((d - 1)))"; done
sizes=${1:-1000000 3000000 10000000 30000000 100000000}
sets=${2:-$sets}
runs=${3:-5}
if [ -z "$(find_binary bench_big_graph)" ]; then build_native build-big.log ccl4j bench_big_graph; fi
for n in $sizes; do
  step "$n vertices on devices $sets"
  "$(find_binary bench_big_graph)" --vertices "$n" --runs "$runs" --devices "$sets" | grep -v "^  labels EQUAL" ||
    failed "bench_big_graph --vertices $n"
done
exit $status
