#!/usr/bin/env bash
# GPU machine: the bond-percolation and Ising measurements of docs/percolation/, with the runtime
# and jar that scripts/gpu/prepare.sh put in .gpu-carry/java. Each command's CSV and output go to
# /tmp/physics, the commands themselves to commands.txt there, and all of it into
# $OUT/physics.tar.gz. The GPU machine has no fonts, so the plots are drawn afterwards here
# from the CSV files: ./ccl4j percolation --from-csv FILE.csv --png FILE.png (ising likewise).
#   scripts/gpu/physics.sh [STAGE...]   stages: tests timings thresholds (= honeycomb triangle) ising ising3d square
#                                       (default: all, in this order)
# TRIALS (default 1500), SWEEPS (default 10000) and LIMIT (seconds per command, default 240) adjust it.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=/tmp/physics
mkdir -p "$out"
java_dir=.gpu-carry/java
bash "$(dirname "$0")/unpack-jre.sh"
trials=${TRIALS:-1500}
sweeps=${SWEEPS:-10000}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"

ccl4j() { # NAME ARGS...: one CLI run, timed, its output in $OUT/NAME.txt
  local name=$1 start=$SECONDS
  shift
  echo "./ccl4j $*" >>"$out/commands.txt"
  timeout "${LIMIT:-240}" "$java_dir/jre/bin/java" --enable-native-access=ALL-UNNAMED -jar "$java_dir/ccl4j.jar" "$@" \
    >"$out/$name.txt" 2>"$out/$name.err"
  echo "== $name: exit $? after $((SECONDS - start)) s"
  tail -n 8 "$out/$name.txt"
}

stage_tests() { # the GPU against the CPU: bonds, labels and spanning flags, Swendsen-Wang chains
  local classpath="$java_dir/ccl4j.jar:$java_dir/test-classes:$(ls "$java_dir"/lib/*.jar | grep -v console-standalone | tr '\n' ':')"
  "$java_dir/jre/bin/java" --enable-native-access=ALL-UNNAMED -jar "$java_dir"/lib/junit-platform-console-standalone-*.jar \
    execute --class-path "$classpath" --select-class org.ccl4j.BondPercolationTest \
    --select-class org.ccl4j.SwendsenWangTest --select-class org.ccl4j.LatticeTest \
    --config jqwik.database=/tmp/ccl4j-jqwik-database --details=tree --disable-banner 2>&1 | tee "$out/tests.txt" | tail -n 25
}

stage_thresholds() { # Komura 2016 Figs. 5 and 6: windows of +-0.004 around the exact thresholds
  stage_honeycomb
  stage_triangle
}

stage_honeycomb() {
  ccl4j honeycomb percolation --lattice honeycomb --sizes 2^18,2^20,2^22,2^24 --p 0.6487:0.6567:0.001 \
    --trials "$trials" --csv "$out/honeycomb.csv"
}

stage_triangle() {
  ccl4j triangle percolation --lattice triangle --sizes 2^18,2^20,2^22,2^24 --p 0.3433:0.3513:0.001 \
    --trials "$trials" --csv "$out/triangle.csv"
}

stage_square() {
  ccl4j square percolation --lattice square --sizes 2^16,2^18,2^20,2^22 --p 0.496:0.504:0.001 \
    --trials "$trials" --csv "$out/square.csv"
}

stage_ising() {
  ccl4j ising2d ising --dim 2 --L 32,64,128 --T 2.22:2.32:0.01 --sweeps "$sweeps" --warmup 1000 \
    --csv "$out/ising2d.csv"
}

stage_ising3d() {
  ccl4j ising3d ising --dim 3 --L 8,16,32 --T 4.46:4.56:0.01 --sweeps 3000 --warmup 500 --csv "$out/ising3d.csv"
}

stage_timings() { # Komura 2016 Figs. 7 and 10: time per realisation at 0.5 p_c, p_c and 1.5 p_c
  ccl4j timing-honeycomb percolation --lattice honeycomb --sizes 2^18,2^20,2^22,2^24 \
    --p 0.326352,0.652704,0.979056 --trials 50 --csv "$out/timing-honeycomb.csv"
  ccl4j timing-triangle percolation --lattice triangle --sizes 2^18,2^20,2^22,2^24 \
    --p 0.173648,0.347296,0.520944 --trials 50 --csv "$out/timing-triangle.csv"
  for kind in bethe bethe-random; do
    ccl4j "timing-$kind" percolation --lattice "$kind" --sizes 393214,786430,1572862,3145726,6291454,12582910 \
      --p 0.25,0.5,0.75 --trials 50 --csv "$out/timing-$kind.csv"
  done
}

for stage in "${@:-tests timings thresholds ising ising3d square}"; do
  for s in $stage; do "stage_$s"; done
done
[ -n "${OUT:-}" ] && tar -czf "$OUT/physics.tar.gz" -C "$out" .
