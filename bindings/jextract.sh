#!/usr/bin/env bash
# Generates the FFM bindings of the C ABI (native/include). The output is committed exactly as
# jextract writes it: never edit it.
#
#   bindings/jextract.sh [path/to/jextract] [bindings folder]
#
# jextract: OpenJDK's jextract for JDK 23 or newer (default: `jextract` on the PATH; this project
# uses ../shared/tools/jextract/jextract, which needs Debian's libclang-14-dev). The bindings
# folder (default bindings/) is where the two source trees below are written; the check in
# java/core (BindingsAreGeneratedTest) generates into a temporary folder and compares.
#
# Two runs, each into a package of its own, compiled by the module that ships it:
#   1. native/include/ccl4j.h, the public umbrella header, with the topic headers it includes:
#      src/main/java, package org.ccl4j.internal.ffi (a source folder of ccl4j-core), the header
#      class ccl4j_h (functions, constants, typedefs) and one class per struct;
#   2. native/include/ccl4j/bench.h, the benchmark hooks (not for users, not in ccl4j.h):
#      bench/src/main/java, package org.ccl4j.bench.ffi (a source folder of ccl4j-bench only), the
#      header class ccl4j_bench_h with its functions and typedefs only; its structs are those of
#      run 1 and travel as plain pointers, so it needs nothing of run 1's package.
# Each run keeps the symbols declared in its own headers and nothing else (nothing of <stdint.h>
# or <stddef.h>): `jextract --dump-includes` lists every symbol with the header that declares it,
# and the lines of our headers become the run's --include-* options.
# No --library is given: the header classes look symbols up with SymbolLookup.loaderLookup(), i.e.
# among the libraries loaded by their class loader, and org.ccl4j.internal.NativeLibrary loads
# libccl4j.so (from java.library.path or from the jar) before any binding is touched.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jextract=${1:-jextract}
out=${2:-$root/bindings}
include="$root/native/include"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run HEADER CLASS HEADER-PATH-REGEX SOURCE-FOLDER PACKAGE: one jextract run over HEADER into
# PACKAGE under SOURCE-FOLDER (which it empties first), keeping the symbols declared in the
# headers whose path matches the regex.
run() {
  local header=$1 class=$2 keep=$3 sources=$4 package=$5
  "$jextract" --dump-includes "$work/all.txt" -I "$include" "$header" >/dev/null 2>"$work/dump.log" ||
    { cat "$work/dump.log" >&2; exit 1; }
  grep -E "^--include-[a-z]+ [A-Za-z_0-9]+ +# header: $keep\$" "$work/all.txt" |
    awk '{print $1; print $2}' >"$work/$class.args"
  [ -s "$work/$class.args" ] || { echo "jextract.sh: no symbols found for $header" >&2; exit 1; }
  echo "jextract.sh: $class from ${header#$root/}: $(($(wc -l <"$work/$class.args") / 2)) symbols" >&2
  mapfile -t includes <"$work/$class.args"
  rm -rf "${sources:?}/${package//.//}"
  "$jextract" --target-package "$package" --header-class-name "$class" --output "$sources" \
    -I "$include" "${includes[@]}" "$header"
}

run "$include/ccl4j.h" ccl4j_h "$include/(ccl4j\.h|ccl4j/(common|graph|mesh|labels|statistics|contacts|distances|physics)\.h)" \
  "$out/src/main/java" org.ccl4j.internal.ffi
run "$include/ccl4j/bench.h" ccl4j_bench_h "$include/ccl4j/bench\.h" \
  "$out/bench/src/main/java" org.ccl4j.bench.ffi
