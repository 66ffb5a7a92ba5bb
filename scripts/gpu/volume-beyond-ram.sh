#!/usr/bin/env bash
# GPU machine (prepare here with scripts/gpu/prepare.sh and carry .gpu-carry): a volume labelled
# in slabs from a memory-mapped file into a memory-mapped label file, against the same volume
# labelled whole on the GPU.
#   1. `ccl4j mesh --generate percolation:S^3:p:1` writes the field as raw bytes (--save) and
#      labels it whole on the GPU (int64 labels past 2^31 cells), its labels written in raster
#      numbering (int32, 1..k);
#   2. `ccl4j mesh FILE --memory-budget B` maps the raw file, labels it in slabs within B of device
#      memory and writes its raster labels straight into a mapped output file, under
#      /usr/bin/time -v (peak resident memory; mapped pages of both files count in it);
#   3. the two label files must be byte for byte the same (cmp).
# Once for each CONNECTIVITY, on the CUDA backend (BACKEND=cpu for a try without a GPU). Files in DIR (default /dev/shm: written at memory speed, served by
# the page cache when mapped, as a disk file is once read), removed at the end.
#
#   bash scripts/gpu/volume-beyond-ram.sh [SIZE [BUDGET [CONNECTIVITIES [DIR]]]]   (default 2048 10G "26 6" /dev/shm)
set -euo pipefail
cd "$(dirname "$0")/../.."
size=${1:-2048}
budget=${2:-10G}
connectivities=${3:-26 6}
dir=${4:-/dev/shm}
source scripts/gpu/common.sh volume-beyond-ram.txt
describe_machine
bash scripts/gpu/unpack-jre.sh
ccl4j=(.gpu-carry/java/jre/bin/java --enable-native-access=ALL-UNNAMED -jar .gpu-carry/java/ccl4j.jar)
timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -v)
field=$dir/ccl4j-volume-$size.raw
dims=${size}x${size}x${size}
for c in $connectivities; do
  step "connectivity $c: the whole volume on the GPU"
  input=("$field" --dims "$dims")
  [ -f "$field" ] || input=(--generate "percolation:$dims:0.3116:1" --save "$field")
  "${ccl4j[@]}" mesh "${input[@]}" --connectivity "$c" --backend "${BACKEND:-cuda}" --numbering raster \
    --out "$dir/whole.raw" --json --no-progress ||
    { failed "whole, connectivity $c"; continue; }
  step "connectivity $c: in slabs within $budget, mapped in and out"
  "${timer[@]}" "${ccl4j[@]}" mesh "$field" --dims "$dims" --connectivity "$c" --backend "${BACKEND:-cuda}" --memory-budget "$budget" \
    --numbering raster --out "$dir/slabs.raw" --json --no-progress 2>&1 |
    grep -E '^\{|Maximum resident|Elapsed \(wall' || failed "slabs, connectivity $c"
  if cmp "$dir/whole.raw" "$dir/slabs.raw"; then
    echo "connectivity $c: the slabbed labels are byte for byte the whole volume's ($(stat -c %s "$dir/slabs.raw") bytes)"
  else
    failed "connectivity $c: the slabbed labels differ from the whole volume's"
  fi
  rm -f "$dir/whole.raw" "$dir/slabs.raw"
done
rm -f "$field"
exit $status
