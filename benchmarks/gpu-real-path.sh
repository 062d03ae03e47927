#!/usr/bin/env bash
# The real-path benchmark on the GPU machine, from a gpu-bundle of the benchmarks module's runtime classpath
# (see BENCHMARKS.md, "The real path"): makes the scan in /tmp when it is missing, runs both engines through the
# CLI in fresh JVMs, and measures the disk floor. Results go to $OUT (or ./results) as markdown.
#   benchmarks/gpu-real-path.sh ANGLES,ROWS,COLUMNS [RealPathBench options...]
set -euo pipefail
shape=$1; shift
out=${OUT:-results}; mkdir -p "$out"
bash .gpu/run -version >/dev/null 2>&1 || true          # unpacks the runtime, so that libjsig exists
export LD_PRELOAD=/tmp/gpu-jre/lib/libjsig.so            # signal chaining for the CUDA driver
export GPU_JAVA_OPTS="$(cat .gpu/extra/jvm-opts 2>/dev/null || true) -XX:+UseTransparentHugePages ${GPU_JAVA_OPTS:-}"
scan=/tmp/scan-${shape//,/x}.h5
c=$(( $(echo "$shape" | cut -d, -f3) - 1 ))
bash .gpu/run org.tomospark.bench.RealPathBench --scan "$scan" --make "$shape" --out /tmp/realpath \
    --center "$((c / 2)).$((c % 2 * 5))" --results "$out/realpath-${shape//,/x}.md" "$@"
