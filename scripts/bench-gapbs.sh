#!/usr/bin/env bash
# Compares ccl4j's CPU_PARALLEL backend with GAPBS's Afforest (`cc`) on the graphs of
# `ccl4j bench --suite quick`, and measures CPU_PARALLEL on a machine with one other busy process.
#
#   scripts/bench-gapbs.sh GAPBS_SOURCE_DIR [--runs N] [--warmup N] [--graphs a,b,...]
#
# GAPBS_SOURCE_DIR: a checkout of github.com/sbeamer/gapbs, only read. Its files are copied to
# target/gapbs-build, where its Makefile makes `cc` (g++ -std=c++11 -O3 -Wall -fopenmp; $CXX for
# another compiler). --runs: timed runs per graph (default 9), after --warmup untimed ones
# (default 2), on both sides. --graphs: some graphs of the quick suite (default: all).
#
# The graphs: bench's NAME.egr, and NAME.el written by `ccl4j generate-graph NAME FILE --format el`
# (0-based "u v" per edge), cached in target/bench-graphs ($CCL4J_BENCH_GRAPHS). GAPBS reads the
# .el with -s (symmetrise; it drops self loops and duplicates and sorts the neighbours), so both
# label the same CSR; the script checks that the vertex, edge and component counts agree.
#
# What a time covers (median of the timed runs; the graph already in memory, no file reading):
#   GAPBS cc:  a "Trial Time" of `cc -f NAME.el -s -n WARMUP+RUNS -a`: one call of Afforest(g),
#              allocating its label array included; the first WARMUP trials are dropped.
#   ccl4j:     the kernel time of `ccl4j bench --backend cpu --algorithm auto --json`: the native
#              labelling call as the library times it (labels initialised, computed and finalised in
#              a buffer the caller allocated once; no input check, no Java-side work).
# bench checks every ccl4j result against the Java union-find; GAPBS's component count (-a, after
# its last trial) must be ccl4j's.
#
# Part 1, quiet machine: GAPBS cc and ccl4j CPU_PARALLEL on all cores (nproc); the ratio
#   ccl4j / GAPBS per graph, its geometric mean, and the graphs on which ccl4j is slower.
# Part 2, loaded machine: with one busy process (`sh -c 'while :; do :; done'`) beside it,
#   CPU_PARALLEL on all cores against CPU_PARALLEL on one thread (--threads 1) on the quiet machine;
#   the ratio per graph, its geometric mean, and the graphs above 1.2. GAPBS the same way
#   (OMP_NUM_THREADS=1 quiet, all cores loaded), for comparison.
# Run it on an otherwise idle machine (it prints the load average first). Exit status: 0 when all
# was measured, whatever the verdicts; 1 on a failure; 2 on a usage error.
set -euo pipefail
export LC_ALL=C # decimal points in awk, sort and GAPBS's output
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" # bench and generate-graph take the graph cache relative to here

die() { echo "bench-gapbs: $*" >&2; exit 1; }
usage() {
  [ $# -eq 0 ] || echo "bench-gapbs: $*" >&2
  echo "usage: scripts/bench-gapbs.sh GAPBS_SOURCE_DIR [--runs N] [--warmup N] [--graphs a,b,...]" >&2
  exit 2
}
note() { echo "bench-gapbs: $*" >&2; }

runs=9 warmup=2 graphs="" gapbs=""
while [ $# -gt 0 ]; do
  case $1 in
    --runs|--warmup|--graphs)
      [ $# -ge 2 ] || usage "$1 needs a value"
      printf -v "${1#--}" '%s' "$2"; shift 2 ;;
    --runs=*|--warmup=*|--graphs=*)
      name=${1%%=*}; printf -v "${name#--}" '%s' "${1#*=}"; shift ;;
    -h|--help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
    -*) usage "unknown option '$1'" ;;
    *) [ -z "$gapbs" ] || usage "one GAPBS_SOURCE_DIR only, got '$gapbs' and '$1'"; gapbs=$1; shift ;;
  esac
done
[ -n "$gapbs" ] || usage "GAPBS_SOURCE_DIR is missing"
[[ $runs =~ ^[1-9][0-9]*$ ]] || usage "--runs must be a whole number of at least 1, got '$runs'"
[[ $warmup =~ ^[0-9]+$ ]] || usage "--warmup must be a whole number, got '$warmup'"

[ -d "$gapbs" ] || die "no such directory: $gapbs"
gapbs=$(cd "$gapbs" && pwd)
for f in Makefile src/cc.cc src/benchmark.h src/reader.h; do
  [ -f "$gapbs/$f" ] || die "$gapbs is not a GAPBS source directory (github.com/sbeamer/gapbs): it has no $f"
done
cxx=${CXX:-g++}
command -v make >/dev/null || die "make is missing: install it (Debian, Ubuntu: apt-get install make)"
command -v "$cxx" >/dev/null || die "the C++ compiler '$cxx' is missing: install g++ or set CXX to one"
jar=$(ls -t java/cli/target/ccl4j-cli-*-all.jar 2>/dev/null | head -n 1) \
  || die "ccl4j is not built (no java/cli/target/ccl4j-cli-*-all.jar): build it with" \
    "'./mvnw -DskipTests package' (README.md, 'Building and layout'), then run this again"

graph_dir=${CCL4J_BENCH_GRAPHS:-target/bench-graphs}
build=target/gapbs-build
threads=$(nproc)
unset OMP_NUM_THREADS # each GAPBS run sets its own; ccl4j takes all cores unless told otherwise
mkdir -p "$build"

# --- ccl4j: ./ccl4j rebuilds its jar when the sources are newer, which must happen before the
# measurements, not between them. So it runs once here (rebuilding a stale jar, and naming the JDK it
# picked: -XshowSettings prints java.home and goes on), and every later run takes a copy of that jar.
note "checking ./ccl4j (it rebuilds its jar first if the sources changed)"
if ! CCL4J_JAVA_OPTS=-XshowSettings:properties ./ccl4j --version >"$build/version.txt" 2>"$build/settings.txt"; then
  grep -v '^ \{2,\}\|^Property settings:\|^$' "$build/settings.txt" >&2 || true
  die "./ccl4j --version failed (its messages above): build ccl4j with './mvnw -DskipTests package' (README.md)"
fi
java_home=$(sed -n 's/^ *java\.home = //p' "$build/settings.txt")
[ -x "$java_home/bin/java" ] || die "cannot tell which JDK ./ccl4j runs on (no java.home in $build/settings.txt)"
cp "$jar" "$build/ccl4j-cli.jar"
ccl4j() { "$java_home/bin/java" --enable-native-access=ALL-UNNAMED ${CCL4J_JAVA_OPTS:-} -jar "$build/ccl4j-cli.jar" "$@"; }

# --- GAPBS cc, built out of tree: the copy keeps the files' times, so make rebuilds what changed.
(cd "$gapbs" && tar --exclude=.git -cf - .) | (cd "$build" && tar -xf -)
note "building GAPBS cc in $build"
if ! make -C "$build" cc CXX="$cxx" >"$build/make.log" 2>&1; then
  cat "$build/make.log" >&2
  die "building GAPBS cc failed (make's output above)"
fi
compile=$(make -s -n -B -C "$build" cc CXX="$cxx")

# --- ccl4j bench on CPU_PARALLEL. run_bench FILE ARGS...: its JSON into FILE, or the failure named.
run_bench() {
  local file=$1 error
  shift
  if ! ccl4j bench --suite quick --fields none --backend cpu --algorithm auto --dir "$graph_dir" --no-progress \
      --json ${graphs:+--graphs "$graphs"} "$@" >"$file"; then
    error=$(sed -n 's/.*"error":"\([^"]*\)".*/\1/p' "$file")
    [ -n "$error" ] || error=$(cat "$file")
    die "ccl4j bench $* failed: ${error:-see its messages above}"
  fi
}

# One line per graph of bench's JSON in $1: name vertices arcs components oracle kernel-median-ms.
results() {
  grep -o '{"graph":[^}]*}' "$1" | sed -E 's/^\{"graph":"([^"]*)","vertices":([0-9]+),"arcs":([0-9]+),'`
    `'"components":([0-9]+),.*"oracle":"([a-z]+)","kernelMs":\{"median":([-0-9.eE+]+).*/\1 \2 \3 \4 \5 \6/'
}

# read_bench FILE ARRAY: the kernel medians of bench's JSON by graph, each result checked.
declare -A vertices arcs components
read_bench() {
  local -n into=$2
  local name n m k oracle ms count=0
  while read -r name n m k oracle ms; do
    [ -n "${ms:-}" ] || die "cannot read ccl4j bench's JSON in $1: '$name $n $m $k $oracle'"
    [ "$oracle" = ok ] || die "ccl4j's labels of $name differ from the Java union-find's"
    [ "${components[$name]}" = "$k" ] || die "ccl4j found $k components in $name, before ${components[$name]}"
    into[$name]=$ms
    count=$((count + 1))
  done < <(results "$1")
  [ "$count" -eq "${#names[@]}" ] || die "ccl4j bench reported $count graphs in $1, expected ${#names[@]}"
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

# run_gapbs NAME THREADS ARRAY: runs cc (its output in NAME-ARRAY.log), checks its graph and components
# against ccl4j's, stores the median ms.
run_gapbs() {
  local name=$1 log="$build/$1-$3.log" nodes edges k ms
  local -n into=$3
  if ! OMP_NUM_THREADS=$2 "$build/cc" -f "$graph_dir/$name.el" -s -n $((warmup + runs)) -a >"$log" 2>&1; then
    cat "$log" >&2
    die "GAPBS cc failed on $graph_dir/$name.el (its output above)"
  fi
  read -r nodes edges < <(awk '/^Graph has / { print $3, $6 }' "$log")
  k=$(awk '/^There are .* components/ { print $3 }' "$log")
  ms=$(awk '/^Trial Time:/ { print $3 * 1000 }' "$log" | tail -n +$((warmup + 1)) | median)
  [ "${nodes:-}" = "${vertices[$name]}" ] && [ "${edges:-}" = $((arcs[$name] / 2)) ] \
    || die "GAPBS built another graph from $name.el: ${nodes:-?} vertices and ${edges:-?} edges, ccl4j" \
      "${vertices[$name]} and $((arcs[$name] / 2)) (a stale .el? delete it to write it again)"
  [ "$k" = "${components[$name]}" ] || die "GAPBS found ${k:-no} components in $name, ccl4j ${components[$name]}"
  [ -n "$ms" ] || die "no 'Trial Time' in GAPBS's output for $name ($log)"
  into[$name]=$ms
}

# --- The graphs: one run of bench generates the missing .egr and lists them with their counts.
note "preparing the graphs in $graph_dir"
run_bench "$build/graphs.json" --runs 1 --warmup 0
names=()
while read -r name n m k oracle ms; do
  [ -n "${ms:-}" ] || die "cannot read ccl4j bench's JSON in $build/graphs.json: '$name $n $m $k $oracle'"
  names+=("$name"); vertices[$name]=$n; arcs[$name]=$m; components[$name]=$k
done < <(results "$build/graphs.json")
[ ${#names[@]} -gt 0 ] || die "ccl4j bench labelled no graph ($build/graphs.json)"
for name in "${names[@]}"; do
  if [ ! -f "$graph_dir/$name.el" ]; then
    ccl4j generate-graph "$name" "$graph_dir/$name.el" --format el >/dev/null || die "cannot write $name.el"
  fi
done

declare -A gapbs_all ccl4j_all ccl4j_one gapbs_one ccl4j_loaded gapbs_loaded
load=$(cut -d ' ' -f 1-3 /proc/loadavg)
note "part 1, quiet machine: GAPBS cc on $threads threads"
for name in "${names[@]}"; do run_gapbs "$name" "$threads" gapbs_all; done
note "part 1, quiet machine: ccl4j CPU_PARALLEL on all cores"
run_bench "$build/quiet.json" --runs "$runs" --warmup "$warmup"
read_bench "$build/quiet.json" ccl4j_all
note "part 1, quiet machine: ccl4j CPU_PARALLEL on 1 thread"
run_bench "$build/quiet-1-thread.json" --runs "$runs" --warmup "$warmup" --threads 1
read_bench "$build/quiet-1-thread.json" ccl4j_one
note "part 1, quiet machine: GAPBS cc on 1 thread"
for name in "${names[@]}"; do run_gapbs "$name" 1 gapbs_one; done

busy=""
stop_busy() {
  if [ -n "$busy" ]; then
    kill "$busy" 2>/dev/null || true
    wait "$busy" 2>/dev/null || true
    busy=""
  fi
}
trap stop_busy EXIT
trap 'exit 130' INT TERM # the EXIT trap then stops the busy process
sh -c 'while :; do :; done' &
busy=$!
sleep 1 # let it run a whole time slice before the first measurement
kill -0 "$busy" 2>/dev/null || die "the busy process did not start"
note "part 2, one busy process (pid $busy): ccl4j CPU_PARALLEL on all cores"
run_bench "$build/loaded.json" --runs "$runs" --warmup "$warmup"
read_bench "$build/loaded.json" ccl4j_loaded
note "part 2, one busy process: GAPBS cc on $threads threads"
for name in "${names[@]}"; do run_gapbs "$name" "$threads" gapbs_loaded; done
stop_busy

# --- The tables.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", a / b }'; }
above() { awk -v r="$1" -v limit="$2" 'BEGIN { exit !(r > limit) }'; }
geomean() { printf '%s\n' "$@" | awk '{ s += log($1) } END { printf "%.2f", exp(s / NR) }'; }
row() { printf '%-20s %14s %14s %8s %14s %14s %8s\n' "$@"; }
f3() { printf '%.3f' "$1"; }
f2() { printf '%.2f' "$1"; }
# "N of M graphs: a, b" for the names given, of the M measured
listing() { local IFS=,; local list="$*"; echo "$# of ${#names[@]} graphs: ${list//,/, }"; }

device=$(sed -n 's/^{"suite":"[^"]*","backend":"[^"]*","device":"\([^"]*\)".*/\1/p' "$build/quiet.json")
commit=$(git describe --always --dirty 2>/dev/null || echo unknown)
gapbs_commit=$(git -C "$gapbs" describe --always --dirty 2>/dev/null || echo "not a git checkout")

ran=$(grep -o '"algorithm":"[^"]*"' "$build/quiet.json" | cut -d '"' -f 4 | sort -u | paste -sd , -)

echo "ccl4j CPU_PARALLEL (algorithm auto, which ran $ran) against GAPBS cc (Afforest), $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine: $device; load average before part 1: $load"
if awk -v l="${load%% *}" 'BEGIN { exit !(l >= 1) }'; then
  echo "warning: the machine was not idle before part 1: other processes' threads took cores from both programs"
fi
echo "ccl4j: commit $commit, $(basename "$jar") of $(date -u -r "$jar" '+%Y-%m-%d %H:%M UTC'):"
echo "       $(paste -sd '|' "$build/version.txt" | sed 's/|/; /g')"
echo "GAPBS: $gapbs ($gapbs_commit), built with: $compile"
echo "ms, medians of $runs runs after $warmup warm-up runs, graph in memory: GAPBS = one Afforest(g) call"
echo "(its Trial Time), ccl4j = the native labelling call (bench's kernel time)"
echo
echo "Part 1: quiet machine, $threads threads each"
printf '%-20s %14s %20s %12s\n' graph "GAPBS cc" "ccl4j CPU_PARALLEL" "ccl4j/GAPBS"
ratios=() slower=()
for name in "${names[@]}"; do
  r=$(ratio "${ccl4j_all[$name]}" "${gapbs_all[$name]}")
  printf '%-20s %14s %20s %12s\n' "$name" "$(f3 "${gapbs_all[$name]}")" "$(f3 "${ccl4j_all[$name]}")" "$(f2 "$r")"
  ratios+=("$r")
  if above "$r" 1; then slower+=("$name"); fi
done
printf '%-20s %14s %20s %12s\n' "geometric mean" "" "" "$(geomean "${ratios[@]}")"
if [ ${#slower[@]} -eq 0 ]; then
  echo "verdict: ccl4j is slower than GAPBS on no graph"
else
  echo "verdict: ccl4j is slower than GAPBS on $(listing "${slower[@]}")"
fi
echo
echo "Part 2: $threads threads with one busy process running (loaded), against 1 thread on the quiet machine"
row graph "ccl4j 1 thread" "ccl4j loaded" ratio "GAPBS 1 thread" "GAPBS loaded" ratio
ratios=() gapbs_ratios=() over=()
for name in "${names[@]}"; do
  r=$(ratio "${ccl4j_loaded[$name]}" "${ccl4j_one[$name]}")
  g=$(ratio "${gapbs_loaded[$name]}" "${gapbs_one[$name]}")
  row "$name" "$(f3 "${ccl4j_one[$name]}")" "$(f3 "${ccl4j_loaded[$name]}")" "$(f2 "$r")" \
    "$(f3 "${gapbs_one[$name]}")" "$(f3 "${gapbs_loaded[$name]}")" "$(f2 "$g")"
  ratios+=("$r") gapbs_ratios+=("$g")
  if above "$r" 1.2; then over+=("$name"); fi
done
row "geometric mean" "" "" "$(geomean "${ratios[@]}")" "" "" "$(geomean "${gapbs_ratios[@]}")"
if [ ${#over[@]} -eq 0 ]; then
  echo "verdict: loaded CPU_PARALLEL is within 1.2x of its 1-thread time on every graph"
else
  echo "verdict: loaded CPU_PARALLEL takes more than 1.2x its 1-thread time on $(listing "${over[@]}")"
fi
