#!/usr/bin/env bash
# Run here, before sending work to the GPU machine: copies what scripts/gpu/native-check.sh needs
# there but the working tree does not carry (the benchmark suite's graph generator from the shared
# folder) into .gpu-carry/, which .git/info/exclude keeps out of git. Name .gpu-carry in the
# device tool's `carry`.
#   scripts/gpu/prepare.sh [SHARED_DIR]     (default: ../shared beside the repository)
set -euo pipefail

root=$(git rev-parse --show-toplevel)
shared=${1:-$root/../shared}
exclude=$(git -C "$root" rev-parse --git-path info/exclude)
case $exclude in /*) ;; *) exclude=$root/$exclude ;; esac

mkdir -p "$(dirname "$exclude")" "$root/.gpu-carry"
grep -qxF '/.gpu-carry/' "$exclude" 2>/dev/null || echo '/.gpu-carry/' >>"$exclude"
cp "$shared/tools/gengraph.cpp" "$root/.gpu-carry/gengraph.cpp"
echo "prepared $root/.gpu-carry: $(ls "$root/.gpu-carry" | tr '\n' ' ')"
