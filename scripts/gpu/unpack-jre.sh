#!/usr/bin/env bash
# GPU machine: unpacks the Java runtime that scripts/gpu/prepare.sh packed into
# .gpu-carry/java/jre.tar.xz (packed because the device tool carries at most 64 MiB), once.
set -euo pipefail
java_dir=$(cd "$(dirname "$0")/../.." && pwd)/.gpu-carry/java
[ -x "$java_dir/jre/bin/java" ] || [ ! -f "$java_dir/jre.tar.xz" ] || tar -C "$java_dir" -xJf "$java_dir/jre.tar.xz"
