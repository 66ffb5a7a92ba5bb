#!/usr/bin/env bash
# ccl4j-spark against GraphX's ConnectedComponents in Spark local mode (BENCHMARKS.md, "ccl4j-spark
# against GraphX"): builds the native library, ccl4j-core and the spark module's test classes, then runs
# org.ccl4j.spark.bench.SparkVsGraphX (test sources, not in the library jar) with the test class path
# and the JVM flags of the pom's spark.jvm.options.
#   scripts/bench-spark.sh                                   R-MAT 2^20 / 10 M edges, grid 2237² and 100²
#   scripts/bench-spark.sh graphs=rmat:16:1000000,grid:300 runs=3 graphxTimeoutS=900
# Arguments are SparkVsGraphX's name=value (see its Javadoc). CCL4J_BENCH_HEAP sets -Xmx (default 18g:
# local mode runs driver and executors in this one JVM). MAVEN_ARGS goes to Maven (default -o).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

# Spark 4 on JDK 25 needs the pom's flags; Maven's own JVM may be older than the JDK it builds with
find_java() {
  local best="" best_version=0 v j
  for j in ${JAVA_HOME:+"$JAVA_HOME/bin/java"} /usr/lib/jvm/*/bin/java "$(command -v java || true)"; do
    [ -x "$j" ] || continue
    v=$("$j" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -n 1)
    if [ "${v:-0}" -ge 23 ] && [ "$v" -gt "$best_version" ]; then best=$j; best_version=$v; fi
  done
  [ -n "$best" ] || { echo "bench-spark: no JDK 23 or newer found (set JAVA_HOME to one)" >&2; exit 4; }
  echo "$best"
}
java=$(find_java)
maven_args=${MAVEN_ARGS:--o}

# the root project builds libccl4j.so, which ccl4j-core packs: without it ccl4j labels on the JAVA backend
./mvnw -B -q $maven_args install -DskipTests -pl .,java/core
./mvnw -B -q $maven_args -pl java/spark test-compile
cp_file=$root/java/spark/target/bench-classpath.txt
./mvnw -B -q $maven_args -pl java/spark dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile="$cp_file"
classpath=$root/java/spark/target/test-classes:$root/java/spark/target/classes:$(cat "$cp_file")
read -r -a spark_opts <<< "$(sed -n 's:.*<spark.jvm.options>\(.*\)</spark.jvm.options>.*:\1:p' pom.xml)"

# the tests' log4j2-test.properties (on the class path) keeps Spark's INFO lines out
exec "$java" -Xmx"${CCL4J_BENCH_HEAP:-18g}" --enable-native-access=ALL-UNNAMED "${spark_opts[@]}" \
  -cp "$classpath" org.ccl4j.spark.bench.SparkVsGraphX "$@"
