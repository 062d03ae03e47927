#!/usr/bin/env bash
# A node's rates on the GPU machine, for BENCHMARKS.md ("A node commits as fast as its GPUs compute"), from a
# gpu-bundle of the benchmarks module's runtime classpath (every part staged):
#   benchmarks/gpu-node.sh commit             the commit rate through the product's path against raw parallel writes,
#                                             all cores and 16, into the RAM disk (CommitRateBench)
#   benchmarks/gpu-node.sh local SHAPE        the scan made in /tmp (benchmarks/make_scan.py), then local mode on one
#                                             GPU (with a Java Flight Recording) and on every GPU, output on the RAM disk
#   benchmarks/gpu-node.sh cluster SHAPE N... standalone clusters of N Workers of one GPU each (16 cores a Worker, no
#                                             task GPU amount: the executors' tasks share their GPU), each against local
#   benchmarks/gpu-node.sh kill SHAPE N       N Workers of one GPU each, one executor JVM killed (SIGKILL) once a quarter of
#                                             the slices are committed; its slices against local mode's
#   benchmarks/gpu-node.sh probe SHAPE K=V... local mode on one GPU with settings (group.rows=32), against local mode
#   benchmarks/gpu-node.sh volume SHAPE       the real path (RealPathBench, CLI wall and disk floor) on the RAM disk: the
#                                             direct engine on GPU 0 (its default, then one group at a time:
#                                             direct.groupsPerDevice=1), then the Spark engine in local mode on two GPUs
#                                             (JFR=1: a Java Flight Recording of each timed run)
#   benchmarks/gpu-node.sh fixed SHAPE        the same with both engines on GPU 0, two runs each: the time around the job
# Results go to $OUT (or ./results).
set -euo pipefail
step=$1; shift
out=${OUT:-results}; mkdir -p "$out"
gpus=$(nvidia-smi -L | wc -l)
echo "$(date -u +%FT%TZ) $(nvidia-smi -L | head -1 | cut -c1-60) x $gpus, $(nproc) cores, $(free -g | awk '/Mem/ {print $2}') GiB" \
  | tee -a "$out/summary.txt"
case "$step" in
  commit)
    bash .gpu/run -version >/dev/null 2>&1 || true
    for t in "$(nproc)" 16; do
      GPU_JAVA_OPTS="-Xmx32g" bash .gpu/run org.tomospark.bench.CommitRateBench /dev/shm/crb --threads "$t" --slices 512 \
        --rounds 3 2>&1 | grep -v WARN | tee -a "$out/summary.txt"
    done
    rm -rf /dev/shm/crb ;;
  local)
    shape=$1
    OUT_BASE=/dev/shm REF=/dev/shm/cl-local JFR=1 bash benchmarks/gpu-cluster.sh "$shape" floor,local
    if [ "$gpus" -gt 1 ]; then
      OUT_BASE=/dev/shm REF=/dev/shm/cl-local-all TAG=-all LOCAL_DEVICES=$(seq -s, 0 $((gpus - 1))) \
        bash benchmarks/gpu-cluster.sh "$shape" local
      rm -rf /dev/shm/cl-local-all
    fi ;;
  cluster)
    shape=$1; shift
    for n in "$@"; do
      [ "$n" -le "$gpus" ] || continue
      # the first cluster's executor is profiled (Java Flight Recorder) when JFR is set
      WORKERS=$n GPU_PER_WORKER=1 CORES=16 TASK_GPU=none OUT_BASE=/dev/shm REF=/dev/shm/cl-local TAG=-w$n KEEP=0 \
        MEMORY=100g EXECUTOR_MEMORY=80g JFR=$( [ "$n" = "$1" ] && echo "${JFR:-}" ) bash benchmarks/gpu-cluster.sh "$shape" cluster
    done ;;
  kill)
    shape=$1; n=$2
    WORKERS=$n GPU_PER_WORKER=1 CORES=16 TASK_GPU=none OUT_BASE=/dev/shm REF=/dev/shm/cl-local TAG=-w$n \
      MEMORY=100g EXECUTOR_MEMORY=80g bash benchmarks/gpu-cluster.sh "$shape" kill
    rm -rf /dev/shm/cl-kill-w$n ;;
  probe)
    shape=$1; shift
    tag=-$(echo "$*" | tr -cs 'a-zA-Z0-9' '-')
    OUT_BASE=/dev/shm REF=/dev/shm/cl-probe TAG=$tag LOCAL_CONF="$*" bash benchmarks/gpu-cluster.sh "$shape" local
    python3 - /dev/shm/cl-local /dev/shm/cl-probe <<'EOF' | tee -a "$out/summary.txt"
import json, sys
a, b = (json.load(open(p + "/manifest.json")) for p in sys.argv[1:3])
sa = {s["row"]: s["checksum"] for s in a["slices"]}
sb = {s["row"]: s["checksum"] for s in b["slices"]}
print("probe vs local:", "bit-identical" if sa == sb else f"{sum(sa[r] != sb.get(r) for r in sa)} slices differ")
EOF
    rm -rf /dev/shm/cl-probe ;;
  volume)
    shape=$1
    two=$(seq -s, 0 $(( (gpus < 2 ? 1 : 2) - 1 )))
    bash benchmarks/gpu-real-path.sh "$shape" --out /dev/shm/realpath --engines direct --backend cuda --conf job.devices=0 \
      --runs 1 --results "$out/realpath-${shape//,/x}-direct.md" ${JFR:+--jfr "$out/jfr-direct"}
    bash benchmarks/gpu-real-path.sh "$shape" --out /dev/shm/realpath --engines direct --backend cuda --conf job.devices=0 \
      --conf direct.groupsPerDevice=1 --runs 1 --results "$out/realpath-${shape//,/x}-direct-one-lane.md"
    bash benchmarks/gpu-real-path.sh "$shape" --out /dev/shm/realpath --engines spark --backend cuda --conf job.devices=$two \
      --runs 1 --results "$out/realpath-${shape//,/x}-spark-$two.md" ${JFR:+--jfr "$out/jfr-spark"}
    rm -rf /dev/shm/realpath ;;
  fixed)
    shape=$1
    bash benchmarks/gpu-real-path.sh "$shape" --out /dev/shm/realpath --engines direct,spark --backend cuda --conf job.devices=0 \
      --runs 2 --results "$out/realpath-${shape//,/x}-fixed.md"
    bash benchmarks/gpu-real-path.sh "$shape" --out /dev/shm/realpath --engines direct --backend cuda --conf job.devices=0 \
      --conf direct.groupsPerDevice=1 --runs 2 --results "$out/realpath-${shape//,/x}-fixed-one-lane.md"
    rm -rf /dev/shm/realpath ;;
esac
