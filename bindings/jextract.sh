#!/usr/bin/env bash
# Regenerates the FFM layer for native/include/ccl4j.h into bindings/src/main/java.
#
#   bindings/jextract.sh [path/to/jextract]
#
# Needs jextract 22 or newer (https://jdk.java.net/jextract/). The symbols to keep are read from
# the header itself, so that nothing from <stdint.h> or <stddef.h> is generated. No --library is
# given: the generated ccl4j_h looks symbols up in the libraries its class loader has loaded, and
# org.ccl4j.internal.NativeLibrary loads libccl4j.so (from java.library.path or from the jar)
# before any binding is touched.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
header="$root/native/include/ccl4j.h"
jextract=${1:-jextract}

includes=()
for f in $(grep -oE '^CCL4J_API [^(]*\b(ccl4j_[a-z_0-9]+)\(' "$header" | grep -oE 'ccl4j_[a-z_0-9]+\($' | tr -d '('); do
  includes+=(--include-function "$f")
done
for s in $(grep -oE '^typedef struct (ccl4j_[a-z_0-9]+) \{' "$header" | awk '{print $3}'); do
  includes+=(--include-struct "$s")
done
for t in $(grep -oE '^typedef (int32_t|struct ccl4j_[a-z_0-9]+_s\*) (ccl4j_[a-z_0-9]+);' "$header" | grep -oE '(ccl4j_[a-z_0-9]+);$' | tr -d ';'); do
  includes+=(--include-typedef "$t")
done
for m in $(grep -oE '^#define (CCL4J_[A-Z_0-9]+) [0-9]+u?\b' "$header" | awk '{print $2}'); do
  includes+=(--include-constant "$m")
done

rm -rf "$root/bindings/src/main/java/org/ccl4j/internal/ffi"
set -x
"$jextract" \
  --target-package org.ccl4j.internal.ffi \
  --header-class-name ccl4j_h \
  --output "$root/bindings/src/main/java" \
  -I "$root/native/include" \
  "${includes[@]}" \
  "$header"
