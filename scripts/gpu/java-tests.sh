#!/usr/bin/env bash
# GPU machine: runs the whole Java test suite (JUnit 5 + jqwik) with the runtime, jar and tests
# that scripts/gpu/prepare.sh put in .gpu-carry/java. The CUDA backend takes part in every
# property test when a device is present. Exits non-zero when a test fails. ModulePathTest is left
# out: it runs java/core/target/classes as module org.ccl4j, and the carry holds the CLI's shaded
# jar, which is no module (the build here runs it, and the consumer IT runs the module jar).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
java_dir=$root/.gpu-carry/java  # absolute: some tests fork a JVM in another directory
reports=${OUT:-$root/target}/java-test-reports
# The tests on the JVM's own class path (not the launcher's --class-path): the tests that fork a
# JVM give it java.class.path.
# The benchmarks jar after the CLI's brings the bench module's main classes, which its tests use
# (PhaseCheckTest); the classes both jars shade are the same build's.
classpath="$java_dir/ccl4j.jar:$java_dir/ccl4j-benchmarks.jar:$java_dir/test-classes:$(ls "$java_dir"/lib/*.jar | tr '\n' ':')"
bash "$(dirname "$0")/unpack-jre.sh"
"$java_dir/jre/bin/java" --enable-native-access=ALL-UNNAMED -Xss512k -Dccl4j.expectedVersion="$(cat "$java_dir/version")" \
  -cp "$classpath" org.junit.platform.console.ConsoleLauncher execute \
  --scan-class-path "$java_dir/test-classes" --include-classname '.*(Test|Properties)$' --exclude-classname '.*_jmhTest' --exclude-classname '.*ModulePathTest' \
  --config jqwik.database=/tmp/ccl4j-jqwik-database \
  --details=summary --disable-banner --reports-dir "$reports"
