#!/usr/bin/env bash
# Generates the FFM bindings of the C ABI (native/include) into bindings/src/main/java, package
# org.ccl4j.internal.ffi. The output is committed exactly as jextract writes it: never edit it.
#
#   bindings/jextract.sh [path/to/jextract] [output folder]
#
# jextract: OpenJDK's jextract for JDK 23 or newer (default: `jextract` on the PATH; this project
# uses ../shared/tools/jextract/jextract, which needs Debian's libclang-14-dev). The output folder
# (default bindings/src/main/java) is where the package's folder is written; the check in
# java/core (BindingsAreGeneratedTest) generates into a temporary folder and compares.
#
# Two runs write into the one package:
#   1. native/include/ccl4j.h, the public umbrella header, with the topic headers it includes:
#      the header class ccl4j_h (functions, constants, typedefs) and one class per struct;
#   2. native/include/ccl4j/bench.h, the benchmark hooks (not for users, not in ccl4j.h): the
#      header class ccl4j_bench_h with its functions and typedefs only; its structs are those of
#      run 1 and travel as plain pointers.
# Each run keeps the symbols declared in its own headers and nothing else (nothing of <stdint.h>
# or <stddef.h>): `jextract --dump-includes` lists every symbol with the header that declares it,
# and the lines of our headers become the run's --include-* options.
# No --library is given: the header classes look symbols up with SymbolLookup.loaderLookup(), i.e.
# among the libraries loaded by their class loader, and org.ccl4j.internal.NativeLibrary loads
# libccl4j.so (from java.library.path or from the jar) before any binding is touched.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jextract=${1:-jextract}
out=${2:-$root/bindings/src/main/java}
include="$root/native/include"
package=org.ccl4j.internal.ffi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run HEADER CLASS HEADER-PATH-REGEX: one jextract run over HEADER, keeping the symbols declared
# in the headers whose path matches the regex.
run() {
  local header=$1 class=$2 keep=$3
  "$jextract" --dump-includes "$work/all.txt" -I "$include" "$header" >/dev/null 2>"$work/dump.log" ||
    { cat "$work/dump.log" >&2; exit 1; }
  grep -E "^--include-[a-z]+ [A-Za-z_0-9]+ +# header: $keep\$" "$work/all.txt" |
    awk '{print $1; print $2}' >"$work/$class.args"
  [ -s "$work/$class.args" ] || { echo "jextract.sh: no symbols found for $header" >&2; exit 1; }
  echo "jextract.sh: $class from ${header#$root/}: $(($(wc -l <"$work/$class.args") / 2)) symbols" >&2
  mapfile -t includes <"$work/$class.args"
  "$jextract" --target-package "$package" --header-class-name "$class" --output "$out" \
    -I "$include" "${includes[@]}" "$header"
}

rm -rf "$out/${package//.//}"
run "$include/ccl4j.h" ccl4j_h "$include/(ccl4j\.h|ccl4j/(common|graph|mesh|labels|statistics|distances|physics)\.h)"
run "$include/ccl4j/bench.h" ccl4j_bench_h "$include/ccl4j/bench\.h"
