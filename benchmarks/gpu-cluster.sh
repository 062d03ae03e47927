#!/usr/bin/env bash
# The CLI's Spark engine on a real standalone cluster of the GPU machine, from a gpu-bundle of the benchmarks
# module's runtime classpath (see BENCHMARKS.md, "A standalone GPU cluster"):
#   1. local mode (job.devices=0) on the scan, the reference;
#   2. submit/standalone-cluster: a Master and two Workers that both announce the machine's GPU, discovered by
#      conf/gpu-discovery.sh; the same job through SparkSubmit with a fractional spark.task.resource.gpu.amount;
#   3. the same again, with one executor JVM killed (SIGKILL) once a quarter of the slices are committed;
#   4. the same again, with a sticky CUDA error injected into one group's first attempt (job.test.stickyErrorOnGroup).
# Every run's slices are compared with local mode's by their manifest checksums; each run's report goes to $OUT.
#   benchmarks/gpu-cluster.sh ANGLES,ROWS,COLUMNS [steps: local,cluster,kill,sticky]
set -euo pipefail
shape=$1
steps=${2:-local,cluster,kill,sticky}
out=${OUT:-results}; mkdir -p "$out"
here=$(pwd)
bash .gpu/run -version >/dev/null 2>&1 || true          # unpacks the runtime, so that libjsig exists
export JAVA_HOME=/tmp/gpu-jre
export LD_PRELOAD=$JAVA_HOME/lib/libjsig.so               # signal chaining for the CUDA driver, inherited by executors
opts=$(sed 's/-Xmx[0-9a-zA-Z]*//g' .gpu/extra/jvm-opts)
export TOMO_CP="$here/.gpu/lib/*:/tmp/gpu-lib/*"
export TOMO_JVM_OPTS="--add-modules=jdk.incubator.vector $opts"
scan=/tmp/scan-${shape//,/x}.h5
[ -f "$scan" ] || python3 benchmarks/make_scan.py "$scan" ${shape//,/ }
cols=$(echo "$shape" | cut -d, -f3)
c=$((cols - 1))
center="$((c / 2)).$((c % 2 * 5))"
job=(reconstruct --engine spark --input "$scan" --center "$center" --backend cuda --filter ramlak --overwrite)

now() { date +%s.%N; }
elapsed() { python3 -c "print(f'{$2 - $1:.2f}')"; }
same_slices() {  # compares two outputs' manifests: every slice's SHA-256
  python3 - "$1" "$2" <<'EOF'
import json, sys
a, b = (json.load(open(p + "/manifest.json")) for p in sys.argv[1:3])
sa = {s["row"]: s["sha256"] for s in a["slices"]}
sb = {s["row"]: s["sha256"] for s in b["slices"]}
diff = [r for r in sa if sa[r] != sb.get(r)]
print(f"{len(sa)} slices, {len(diff)} differ" + (f": rows {diff[:10]}" if diff else ": bit-identical"))
sys.exit(1 if diff or len(sa) != len(sb) else 0)
EOF
}
keep() { cp "$2/report.json" "$out/report-$1.json"; }

if [[ $steps == *local* ]]; then
  t0=$(now)
  GPU_JAVA_OPTS="$opts -Xmx64g" bash .gpu/run org.tomospark.job.cli.TomoCli "${job[@]}" --output /tmp/cl-local \
    --conf job.devices=0 2>&1 | tail -25 | tee "$out/local.log"
  echo "local mode: $(elapsed "$t0" "$(now)") s wall" | tee -a "$out/summary.txt"
  keep local /tmp/cl-local
fi

# WORKERS=2 GPU_PER_WORKER=1 on a machine of two GPUs: one Worker per GPU (the two-GPU run); by default two Workers
# share every GPU the machine has
bash submit/standalone-cluster start --workers "${WORKERS:-2}" --cores 8 --memory 56g --dir /tmp/tomo-cluster \
  ${GPU_PER_WORKER:+--gpu-per-worker} | tee -a "$out/summary.txt"
trap 'bash submit/standalone-cluster stop --dir /tmp/tomo-cluster; cp -r /tmp/tomo-cluster/logs "$out/cluster-logs" 2>/dev/null || true' EXIT
submit() {  # submit OUTPUT [settings...]: the CLI's Spark engine on the cluster, in a driver JVM of its own
  local o=$1; shift
  GPU_JAVA_OPTS="$opts -Xmx8g" bash .gpu/run org.apache.spark.deploy.SparkSubmit --master spark://127.0.0.1:7077 \
    --deploy-mode client --class org.tomospark.job.cli.TomoCli \
    --conf spark.driver.host=127.0.0.1 --conf spark.executor.cores=8 --conf spark.executor.memory=40g \
    --conf spark.executor.resource.gpu.amount=1 --conf spark.task.resource.gpu.amount=0.25 \
    --conf "spark.executor.extraClassPath=$TOMO_CP" --conf "spark.executor.extraJavaOptions=$TOMO_JVM_OPTS" \
    --conf "spark.executorEnv.LD_PRELOAD=$LD_PRELOAD" \
    --conf spark.scheduler.minRegisteredResourcesRatio=1.0 --conf spark.scheduler.maxRegisteredResourcesWaitingTime=60s \
    spark-internal "${job[@]}" --output "$o" "$@"
}

if [[ $steps == *cluster* ]]; then
  t0=$(now)
  submit /tmp/cl-cluster 2>&1 | tail -25 | tee "$out/cluster.log"
  echo "standalone cluster: $(elapsed "$t0" "$(now)") s wall (driver JVM start and executor registration included)" \
    | tee -a "$out/summary.txt"
  keep cluster /tmp/cl-cluster
  echo "cluster vs local: $(same_slices /tmp/cl-local /tmp/cl-cluster)" | tee -a "$out/summary.txt"
fi

if [[ $steps == *kill* ]]; then
  rm -rf /tmp/cl-kill
  submit /tmp/cl-kill > "$out/kill.log" 2>&1 &
  driver=$!
  total=$(echo "$shape" | cut -d, -f2)
  victim=""
  for _ in $(seq 1 600); do
    n=$(ls /tmp/cl-kill/_committed 2>/dev/null | grep -c '^slice_' || true)
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
  keep kill /tmp/cl-kill
  echo "kill vs local: $(same_slices /tmp/cl-local /tmp/cl-kill)" | tee -a "$out/summary.txt"
  echo "files other than slices in the output: $(ls /tmp/cl-kill | grep -v '^slice_' | tr '\n' ' ')" | tee -a "$out/summary.txt"
  echo "temporary files left: $(find /tmp/cl-kill -path '*_temporary*' -type f | wc -l)" | tee -a "$out/summary.txt"
fi

if [[ $steps == *sticky* ]]; then
  submit /tmp/cl-sticky --conf job.test.stickyErrorOnGroup=1 > "$out/sticky.log" 2>&1 \
    && echo "sticky run: exit 0" | tee -a "$out/summary.txt" || echo "sticky run: FAILED" | tee -a "$out/summary.txt"
  tail -25 "$out/sticky.log"
  keep sticky /tmp/cl-sticky
  echo "sticky vs local: $(same_slices /tmp/cl-local /tmp/cl-sticky)" | tee -a "$out/summary.txt"
  grep -h "sticky CUDA error" /tmp/tomo-cluster/work*/app-*/*/stderr | head -3 | tee -a "$out/summary.txt" || true
  grep -h "exited with code" /tmp/tomo-cluster/logs/worker*.log | tee -a "$out/summary.txt" || true
fi
