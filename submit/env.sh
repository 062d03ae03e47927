# Sourced by the launch scripts: builds the project when needed and sets TOMO_CP and TOMO_JVM_OPTS.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
JAR="$ROOT/spark-job/target/spark-job-0.1.0-SNAPSHOT.jar"
CPFILE="$ROOT/spark-job/target/classpath.txt"

needs_build() {
  [ -f "$JAR" ] && [ -f "$CPFILE" ] || return 0
  # the classpath file is made by the command below: when this script changes, it is made again
  [ "$ROOT/submit/env.sh" -nt "$CPFILE" ] && return 0
  # rebuild when any source, resource or pom is newer than the jar
  [ -n "$(find "$ROOT/pom.xml" "$ROOT/gpu-executor/pom.xml" "$ROOT/spark-job/pom.xml" "$ROOT/gpu-executor/src/main" \
          "$ROOT/gpu-executor/src/build" "$ROOT/spark-job/src/main" "$ROOT/kernels" -newer "$JAR" -type f 2>/dev/null | head -1)" ]
}

if needs_build; then
  # the launch classpath holds runtime dependencies only: no test jars (the plugin's scope filter is includeScope)
  echo "tomospark: building (mvn install -DskipTests) ..." >&2
  (cd "$ROOT" && mvn -q -B -DskipTests install >&2 && \
   mvn -q -B -pl spark-job dependency:build-classpath -Dmdep.outputFile=target/classpath.txt -DincludeScope=runtime >&2 && \
   touch "$CPFILE")
fi

# Signal chaining for native GPU/OpenCL libraries that install their own SIGSEGV handlers (PoCL's LLVM, vendor
# drivers): without libjsig the JVM dies at its next safepoint poll once such a library is loaded.
JAVA_BIN=$(command -v java)
JSIG="$(dirname "$(dirname "$(readlink -f "$JAVA_BIN")")")/lib/libjsig.so"
if [ -f "$JSIG" ]; then export LD_PRELOAD="$JSIG${LD_PRELOAD:+:$LD_PRELOAD}"; fi

# a cluster's Hadoop client configuration (core-site.xml, hdfs-site.xml: its namenodes, Kerberos) where one is given,
# first: as hadoop and spark-submit find it
TOMO_CP="${HADOOP_CONF_DIR:+$HADOOP_CONF_DIR:}$ROOT/spark-job/target/spark-job-0.1.0-SNAPSHOT.jar:$(cat "$CPFILE")"
# The heap in 2 MiB pages where the kernel offers transparent huge pages (madvise or always): fewer page faults filling
# band and slice arrays, a faster exit. Asked for only there: elsewhere the JVM would warn at every start.
TOMO_THP_OPT=""
if grep -qE '\[(always|madvise)\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null; then
  TOMO_THP_OPT="-XX:+UseTransparentHugePages"
fi
# The heap: half the machine's memory (or its container's limit), so that a GPU node's run gets the groups and slice
# frames its memory allows; no -Xmx, which Spark refuses in an executor's extraJavaOptions (spark.executor.memory sets it)
TOMO_DEFAULT_HEAP="-XX:MaxRAMPercentage=50"
# a machine of two cores or fewer gets JVM settings for short runs (small-machine.sh)
source "$ROOT/submit/small-machine.sh"
TOMO_SMALL_OPTS="$(tomo_small_machine_opts)"
# JVM flags Spark needs on Java 17, the Vector API for the java backend, and the page size above
TOMO_JVM_OPTS="--add-modules=jdk.incubator.vector $TOMO_THP_OPT $TOMO_SMALL_OPTS \
 --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.invoke=ALL-UNNAMED \
 --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED \
 --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED \
 --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED \
 --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED --add-opens=java.base/jdk.internal.ref=ALL-UNNAMED \
 --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/sun.nio.cs=ALL-UNNAMED \
 --add-opens=java.base/sun.security.action=ALL-UNNAMED --add-opens=java.base/sun.util.calendar=ALL-UNNAMED \
 --add-opens=java.security.jgss/sun.security.krb5=ALL-UNNAMED -Djdk.reflect.useDirectMethodHandle=false \
 -Dio.netty.tryReflectionSetAccessible=true ${TOMO_JAVA_OPTS:-$TOMO_DEFAULT_HEAP}"

TOMO_CDS_ARCHIVE="$ROOT/spark-job/target/tomospark-cds.jsa"
source "$ROOT/submit/cds.sh"
