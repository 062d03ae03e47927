# Sourced by the benchmark scripts: builds the benchmarks module and what it depends on (gpu-executor with its test
# fixtures, spark-job; no tests run) and sets BENCH_CP to the benchmarks' classes and every jar they need, the project's
# own from this build. MVN_ARGS go to Maven (e.g. MVN_ARGS="-o -P !cuda-kernels" offline without nvcc).
# shellcheck disable=SC2086
mvn -q -B ${MVN_ARGS:-} -pl benchmarks -am -DskipTests package dependency:build-classpath \
    -Dmdep.outputFile=target/bench-classpath.txt -DincludeScope=runtime >&2
BENCH_CP="$ROOT/benchmarks/target/classes:$(cat "$ROOT/benchmarks/target/bench-classpath.txt")"
