#!/usr/bin/env bash
# Run here, before sending work to the GPU machine (which has no Java, no Maven and no network).
# Fills .gpu-carry/ (kept out of git by .git/info/exclude); name .gpu-carry in the device tool's
# `carry`:
#   .gpu-carry/java/jre.tar.xz     a jlink-trimmed Java runtime, xz-packed (53 MB become 32), which
#                                  the scripts below unpack there with scripts/gpu/unpack-jre.sh
#   .gpu-carry/java/ccl4j.jar      the command line's runnable jar (ccl4j-cli, shaded): the library
#                                  (libccl4j.so compiled for sm_80/sm_90 + PTX), I/O and the CLI;
#                                  its generate-graph makes the suite's graphs for every script there
#   .gpu-carry/java/ccl4j-benchmarks.jar  the JMH benchmarks jar (the library inside)
#   .gpu-carry/java/test-classes/  the compiled tests of every module, together
#   .gpu-carry/java/lib/           JUnit's console launcher and jqwik
# There: scripts/gpu/native-check.sh (native build, ctest, compute-sanitizer, bench_ecl),
# scripts/gpu/java-tests.sh (the Java suite on CUDA), scripts/gpu/java-bench.sh (ccl4j bench) and
# scripts/gpu/java-jmh.sh (the JMH benchmarks). Everything together stays below the 64 MiB of a
# carry (the script prints the sizes last).
#   scripts/gpu/prepare.sh
set -euo pipefail

root=$(git rev-parse --show-toplevel)
exclude=$(git -C "$root" rev-parse --git-path info/exclude)
case $exclude in /*) ;; *) exclude=$root/$exclude ;; esac
carry=$root/.gpu-carry
junit_platform=1.14.3

mkdir -p "$(dirname "$exclude")" "$carry"
grep -qxF '/.gpu-carry/' "$exclude" 2>/dev/null || echo '/.gpu-carry/' >>"$exclude"

cd "$root"
./mvnw -q -B -Dccl4j.cuda=ON -DskipTests package
rm -rf "$carry/java" && mkdir -p "$carry/java/lib" "$carry/java/test-classes"
cp java/cli/target/ccl4j-cli-*-SNAPSHOT-all.jar "$carry/java/ccl4j.jar"
cp java/bench/target/ccl4j-benchmarks.jar "$carry/java/ccl4j-benchmarks.jar"
# the project version, which the CLI's --version test compares with (surefire passes it here)
sed -n 's:^  <version>\(.*\)</version>$:\1:p' pom.xml | head -1 >"$carry/java/version"
for module in core io cli bench; do
  cp -r "java/$module/target/test-classes/." "$carry/java/test-classes/"
done
./mvnw -q -B dependency:copy-dependencies -pl java/core -DincludeScope=test \
  -DexcludeGroupIds=org.junit.jupiter,org.junit.platform -DoutputDirectory="$carry/java/lib"
./mvnw -q -B dependency:copy -Dartifact=org.junit.platform:junit-platform-console-standalone:$junit_platform \
  -DoutputDirectory="$carry/java/lib"

jdk=""
for d in "${JAVA_HOME:-}" /usr/lib/jvm/*; do
  [ -x "$d/bin/jlink" ] || continue
  v=$("$d/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p')
  if [ "${v:-0}" -ge 23 ]; then jdk=$d; break; fi
done
[ -n "$jdk" ] || { echo "no JDK >= 23 with jlink found" >&2; exit 1; }
# java.desktop is there for javax.imageio (PNG grids) and the plots (whose tests find out that the GPU
# machine has no fonts installed: its font library stays); its X11, sound, splash and JPEG libraries
# are not needed; stripping the native libraries keeps .gpu-carry small enough to travel (64 MiB).
"$jdk/bin/jlink" --add-modules java.base,java.desktop,java.management,java.xml,jdk.unsupported,jdk.zipfs,java.logging \
  --exclude-files='**/libawt_xawt.so,**/libsplashscreen.so,**/libjavajpeg.so,**/libjsound.so' \
  --compress zip-9 --strip-debug --no-header-files --no-man-pages --output "$carry/java/jre"
if command -v strip >/dev/null; then find "$carry/java/jre" -name '*.so' -exec strip --strip-unneeded {} +; fi
tar -C "$carry/java" -cf - jre | xz -6 -T0 >"$carry/java/jre.tar.xz"
rm -rf "$carry/java/jre"
du -sh "$carry" "$carry"/* "$carry"/java/*
