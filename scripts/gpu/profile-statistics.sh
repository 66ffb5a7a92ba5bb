#!/usr/bin/env bash
# Run on the GPU machine, from the repository root: where the time of labelling + statistics goes.
#   1. builds bench_mesh;
#   2. ncu: every kernel's duration, cycles and instructions over `bench_mesh --statistics --runs 1`,
#      a run per field named (default: the five face-connected fields of shared/BENCHMARKS.md);
#      scripts/gpu/kernel-times.py lists the launches in order, and the median per kernel, in
#      kernel-times.txt (the labelling alone comes first, then each numbering's calls);
#   3. ncu's full sections of one finalize_statistics launch on each of the --detail fields.
#   bash scripts/gpu/profile-statistics.sh [--fields "F,..."] [--detail "F ..."]
set -u -o pipefail

fields=2d_8192_p05,2d_8192_p06,2d_16384_p06,3d_512_p025,3d_512_p035
detail="2d_8192_p05 3d_512_p025"
while [ $# -gt 0 ]; do
  case $1 in
    --fields) fields=$2; shift ;;
    --detail) detail=$2; shift ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done

source "$(dirname "$0")/common.sh" profile.log
describe_machine
build_native build.log bench_mesh
bench=$(find_binary bench_mesh)

step "kernel durations (ncu) over bench_mesh --statistics --runs 1, a run per field"
csvs=()
for f in ${fields//,/ }; do
  ncu --clock-control none --metrics gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__inst_executed.sum --csv \
    "$bench" --algorithms union-find --fields "$f" --statistics --runs 1 >"/tmp/kernels_$f.csv" 2>>"$logs/ncu.err" ||
    failed "ncu durations $f"
  csvs+=("/tmp/kernels_$f.csv")
done
python3 "$(dirname "$0")/kernel-times.py" "${csvs[@]}" >"$logs/kernel-times.txt" || failed "kernel-times.py"
grep -A40 -- "-- median" "$logs/kernel-times.txt"

for f in $detail; do
  step "finalize_statistics on $f (ncu, full sections)"
  ncu --clock-control none --set full --import-source no -k regex:finalize_statistics --launch-count 1 \
    "$bench" --algorithms union-find --fields "$f" --statistics --runs 1 2>&1 |
    grep -v "^bench_mesh\|^  statistics\|^==PROF==" | sed -n '/finalize_statistics/,$p' >"$logs/detail_$f.txt" ||
    failed "ncu detail $f"
  grep -E "Duration|Throughput|Registers|Achieved Occupancy|Theoretical Occupancy|Block Limit|Warp Cycles Per|Stall|Issued Ipc|Executed Ipc|Shared Memory Configuration|L2 Hit|Mem Busy|Max Bandwidth" \
    "$logs/detail_$f.txt" | head -60
done
exit $status
