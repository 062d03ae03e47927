#!/usr/bin/env bash
# The CLI's Spark engine on a real standalone cluster of the GPU machine, from a gpu-bundle of the benchmarks
# module's runtime classpath (see BENCHMARKS.md, "A standalone GPU cluster"):
#   1. local mode (job.devices=0) on the scan, the reference;
#   2. submit/standalone-cluster: a Master and two Workers that both announce the machine's GPU, discovered by
#      conf/gpu-discovery.sh; the same job through SparkSubmit with a fractional spark.task.resource.gpu.amount;
#   3. the same again, with one executor JVM killed (SIGKILL) once a quarter of the slices are committed;
#   4. the same again, with a sticky CUDA error injected into one group's first attempt (job.test.stickyErrorOnGroup).
# Every run's slices are compared with local mode's by their manifest checksums; each run's report goes to $OUT.
#   benchmarks/gpu-cluster.sh ANGLES,ROWS,COLUMNS [steps: floor,local,cluster,kill,sticky]
# floor: the disk floor by the OS alone (the scan read with dd, the output's bytes written with dd and fdatasync).
# Settings from the environment (defaults in brackets):
#   WORKERS [2] Workers; GPU_PER_WORKER [unset] set: Worker i announces GPU i alone; GPUS [all]: the GPUs every
#   Worker announces; CORES [8] cores per Worker and per executor; EXECUTOR_GPUS [1] and TASK_GPU [0.25]: the
#   executor's and the task's spark.*.resource.gpu.amount (TASK_GPU=none: no task amount, the executor's tasks share
#   its GPUs); JFR=1: a Java Flight Recording of the local-mode JVM and of each executor into $OUT; OUT_BASE [/tmp]:
#   where the outputs go (a RAM disk such
#   as /dev/shm takes the disk out); TAG: a suffix for this invocation's output names; REF [/tmp/cl-local]: the
#   output every run's slices are compared with; LOCAL_DEVICES [0]: job.devices of the local-mode run (0,1: both GPUs in
#   one JVM); LOCAL_CONF: more key=value settings of the local-mode run, separated by spaces (group.rows=32);
#   CLUSTER_CONF: the same for the cluster runs (cuda.chunkSlices=4); KEEP=0:
#   remove each cluster run's output once compared.
set -euo pipefail
shape=$1
steps=${2:-local,cluster,kill,sticky}
out=${OUT:-results}; mkdir -p "$out"; out=$(cd "$out" && pwd)
here=$(pwd)
bash .gpu/run -version >/dev/null 2>&1 || true          # unpacks the runtime, so that libjsig exists
export JAVA_HOME=/tmp/gpu-jre
export LD_PRELOAD=$JAVA_HOME/lib/libjsig.so               # signal chaining for the CUDA driver, inherited by executors
opts=$(sed 's/-Xmx[0-9a-zA-Z]*//g' .gpu/extra/jvm-opts)
export TOMO_CP="$here/.gpu/lib/*:/tmp/gpu-lib/*"
export TOMO_JVM_OPTS="--add-modules=jdk.incubator.vector -XX:+UseTransparentHugePages $opts"
scan=/tmp/scan-${shape//,/x}.h5
[ -f "$scan" ] || python3 benchmarks/make_scan.py "$scan" ${shape//,/ }
cols=$(echo "$shape" | cut -d, -f3)
c=$((cols - 1))
center="$((c / 2)).$((c % 2 * 5))"
base=${OUT_BASE:-/tmp}
tag=${TAG:-}
ref=${REF:-/tmp/cl-local}
cores=${CORES:-8}
job=(reconstruct --engine spark --input "$scan" --center "$center" --backend cuda --filter ramlak --overwrite)

now() { date +%s.%N; }
elapsed() { python3 -c "print(f'{$2 - $1:.2f}')"; }
same_slices() {  # compares two outputs' manifests: every slice's checksum (CRC32C; SHA-256 in manifests before version 2)
  python3 - "$1" "$2" <<'EOF'
import json, sys
a, b = (json.load(open(p + "/manifest.json")) for p in sys.argv[1:3])
sa = {s["row"]: s.get("checksum", s.get("sha256")) for s in a["slices"]}
sb = {s["row"]: s.get("checksum", s.get("sha256")) for s in b["slices"]}
diff = [r for r in sa if sa[r] != sb.get(r)]
print(f"{len(sa)} slices, {len(diff)} differ" + (f": rows {diff[:10]}" if diff else ": bit-identical"))
sys.exit(1 if diff or len(sa) != len(sb) else 0)
EOF
}
keep() { cp "$2/report.json" "$out/report-$1$tag.json"; }

if [[ $steps == *floor* ]]; then
  in_bytes=$(stat -c %s "$scan")
  out_mib=$(python3 -c "r, c = $(echo "$shape" | cut -d, -f2), $(echo "$shape" | cut -d, -f3); print(r * c * c * 4 >> 20)")
  t0=$(now); dd if="$scan" of=/dev/null bs=16M 2>/dev/null; t1=$(now)
  dd if=/dev/zero of="$base/floor.bin" bs=1M count="$out_mib" conv=fdatasync 2>/dev/null; t2=$(now)
  rm -f "$base/floor.bin"
  echo "disk floor under $base: read $in_bytes B in $(elapsed "$t0" "$t1") s, write+fdatasync $out_mib MiB in \
$(elapsed "$t1" "$t2") s; floor $(elapsed "$t0" "$t2") s" | tee -a "$out/summary.txt"
fi

if [[ $steps == *local* ]]; then
  t0=$(now)
  GPU_JAVA_OPTS="$opts -Xmx64g ${JFR:+-XX:StartFlightRecording=filename=$out/local$tag.jfr,settings=profile}" \
    bash .gpu/run org.tomospark.job.cli.TomoCli "${job[@]}" --output "$ref" \
    --conf job.devices=${LOCAL_DEVICES:-0} $(for c in ${LOCAL_CONF:-}; do echo "--conf $c"; done) 2>&1 | tail -25 \
    | tee "$out/local$tag.log"
  echo "local mode ($ref, job.devices=${LOCAL_DEVICES:-0} ${LOCAL_CONF:-}): $(elapsed "$t0" "$(now)") s wall" \
    | tee -a "$out/summary.txt"
  keep local "$ref"
fi

[[ $steps == *cluster* || $steps == *kill* || $steps == *sticky* ]] || exit 0
# WORKERS=2 GPU_PER_WORKER=1 on a machine of two GPUs: one Worker per GPU (the two-GPU run); by default two Workers
# share every GPU the machine has
bash submit/standalone-cluster start --workers "${WORKERS:-2}" --cores "$cores" --memory "${MEMORY:-56g}" \
  --dir /tmp/tomo-cluster ${GPU_PER_WORKER:+--gpu-per-worker} ${GPUS:+--gpus "$GPUS"} | tee -a "$out/summary.txt"
trap 'bash submit/standalone-cluster stop --dir /tmp/tomo-cluster; cp -r /tmp/tomo-cluster/logs "$out/cluster-logs$tag" 2>/dev/null || true' EXIT
submit() {  # submit OUTPUT [settings...]: the CLI's Spark engine on the cluster, in a driver JVM of its own
  local o=$1; shift
  GPU_JAVA_OPTS="$opts -Xmx8g" bash .gpu/run org.apache.spark.deploy.SparkSubmit --master spark://127.0.0.1:7077 \
    --deploy-mode client --class org.tomospark.job.cli.TomoCli --properties-file /tmp/tomo-cluster/spark-auth.conf \
    --conf spark.driver.host=127.0.0.1 --conf spark.executor.cores=$cores --conf spark.executor.memory=${EXECUTOR_MEMORY:-40g} \
    --conf spark.cores.max=$(( ${WORKERS:-2} * cores )) \
    --conf spark.executor.resource.gpu.amount=${EXECUTOR_GPUS:-1} \
    $( [ "${TASK_GPU:-0.25}" = none ] || echo "--conf spark.task.resource.gpu.amount=${TASK_GPU:-0.25}" ) \
    --conf "spark.executor.extraClassPath=$TOMO_CP" \
    --conf "spark.executor.extraJavaOptions=$TOMO_JVM_OPTS ${JFR:+-XX:StartFlightRecording=filename=$out/,settings=profile}" \
    --conf "spark.executorEnv.LD_PRELOAD=$LD_PRELOAD" \
    --conf spark.scheduler.minRegisteredResourcesRatio=1.0 --conf spark.scheduler.maxRegisteredResourcesWaitingTime=60s \
    spark-internal "${job[@]}" $(for c in ${CLUSTER_CONF:-}; do echo "--conf $c"; done) --output "$o" "$@"
}

if [[ $steps == *cluster* ]]; then
  t0=$(now)
  submit $base/cl-cluster$tag 2>&1 | tail -25 | tee "$out/cluster.log"
  echo "standalone cluster: $(elapsed "$t0" "$(now)") s wall (driver JVM start and executor registration included)" \
    | tee -a "$out/summary.txt"
  keep cluster $base/cl-cluster$tag
  echo "cluster vs local: $(same_slices $ref $base/cl-cluster$tag)" | tee -a "$out/summary.txt"
  [ "${KEEP:-1}" = 1 ] || rm -rf $base/cl-cluster$tag
fi

if [[ $steps == *kill* ]]; then
  rm -rf $base/cl-kill$tag
  submit $base/cl-kill$tag > "$out/kill.log" 2>&1 &
  driver=$!
  total=$(echo "$shape" | cut -d, -f2)
  victim=""
  for _ in $(seq 1 600); do
    n=$(ls $base/cl-kill$tag/_committed 2>/dev/null | grep -c '^slice_' || true)
    if [ "${n:-0}" -ge $((total / 4)) ]; then
      victim=$(pgrep -f CoarseGrainedExecutorBackend | head -1)
      kill -9 "$victim"
      echo "killed executor JVM $victim with $n of $total slices committed" | tee -a "$out/summary.txt"
      break
    fi
    sleep 0.2
  done
  wait "$driver" && echo "kill run: exit 0" | tee -a "$out/summary.txt" || echo "kill run: FAILED" | tee -a "$out/summary.txt"
  tail -25 "$out/kill.log"
  keep kill $base/cl-kill$tag
  echo "kill vs local: $(same_slices $ref $base/cl-kill$tag)" | tee -a "$out/summary.txt"
  echo "files other than slices in the output: $(ls $base/cl-kill$tag | grep -v '^slice_' | tr '\n' ' ')" | tee -a "$out/summary.txt"
  echo "temporary files left: $(find $base/cl-kill$tag -path '*_temporary*' -type f | wc -l)" | tee -a "$out/summary.txt"
fi

if [[ $steps == *sticky* ]]; then
  submit $base/cl-sticky$tag --conf job.test.stickyErrorOnGroup=1 > "$out/sticky.log" 2>&1 \
    && echo "sticky run: exit 0" | tee -a "$out/summary.txt" || echo "sticky run: FAILED" | tee -a "$out/summary.txt"
  tail -25 "$out/sticky.log"
  keep sticky $base/cl-sticky$tag
  echo "sticky vs local: $(same_slices $ref $base/cl-sticky$tag)" | tee -a "$out/summary.txt"
  grep -h "sticky CUDA error" /tmp/tomo-cluster/work*/app-*/*/stderr | head -3 | tee -a "$out/summary.txt" || true
  grep -h "exited with code" /tmp/tomo-cluster/logs/worker*.log | tee -a "$out/summary.txt" || true
fi
