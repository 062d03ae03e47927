#!/usr/bin/env bash
# Submits a tomospark job to Kubernetes in cluster mode: the driver and the executors run in pods of the image built
# from submit/kubernetes/Dockerfile, one GPU per executor (executor-pod-template.yaml). docs/kubernetes.md is the recipe.
#
#   submit/kubernetes/submit.sh [--dry-run] [--spark-conf KEY=VALUE]... reprocess INPUT... --output-root URI [options]
#   submit/kubernetes/submit.sh [--dry-run] [--spark-conf KEY=VALUE]... reconstruct --input URI --output URI [options]
#
# The job's options are the CLI's (tomospark reprocess --help, tomospark reconstruct --help); reconstruct runs on the
# Spark engine (--engine spark is added). Inputs and outputs are Hadoop URIs (hdfs://, s3a://, ...): the driver runs in
# a pod, where no local path of this machine exists, so a local path is refused.
# --dry-run prints the spark-submit command (shell-quoted, an option and its value a line) instead of running it.
#
# Environment: TOMO_K8S_API_SERVER (required: the API server, https://HOST:PORT as `kubectl cluster-info` prints it),
# TOMO_K8S_IMAGE (required: the image, REGISTRY/tomospark:TAG), TOMO_K8S_NAMESPACE (required),
# TOMO_K8S_SERVICE_ACCOUNT (the driver's, which creates the executor pods; default spark),
# TOMO_K8S_EXECUTORS (default 2), TOMO_K8S_EXECUTOR_CORES (16), TOMO_K8S_EXECUTOR_MEMORY (40g),
# TOMO_K8S_EXECUTOR_OVERHEAD (8g), TOMO_K8S_DRIVER_MEMORY (4g), SPARK_HOME (its bin/spark-submit, else the one on PATH).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"

fail() { echo "submit.sh: $*" >&2; exit 2; }
need() { [ -n "${!1:-}" ] || fail "set $1 ($2)"; }

dry_run=""
sconf=()
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) dry_run=1; shift ;;
    --spark-conf) [ $# -ge 2 ] || fail "--spark-conf needs KEY=VALUE"; sconf+=(--conf "$2"); shift 2 ;;
    --spark-conf=*) sconf+=(--conf "${1#--spark-conf=}"); shift ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || fail "give the job: reprocess INPUT... --output-root URI [options], or reconstruct --input URI --output URI [options]"
command="$1"
case "$command" in
  reprocess|reconstruct) ;;
  *) fail "the job is reprocess or reconstruct, not '$command'" ;;
esac
job=("$@")

# the driver runs in a pod: a path of this machine (or file:) would name nothing there
engine=""
for ((i = 1; i < ${#job[@]}; i++)); do
  word="${job[$i]}"
  case "$word" in
    --engine) engine="${job[$((i + 1))]:-}" ;;
    --engine=*) engine="${word#--engine=}" ;;
  esac
  value="${word#--*=}"
  value="${value#@}"
  case "$value" in
    /*|./*|../*|\~*|file:*) fail "'$word' is a local path; the driver runs in a pod: give a Hadoop URI (hdfs://, s3a://, ...)" ;;
  esac
done
if [ "$command" = reconstruct ]; then
  case "$engine" in
    "") job+=(--engine spark) ;;
    spark) ;;
    *) fail "on Kubernetes the job runs on the Spark engine, not --engine $engine" ;;
  esac
fi

need TOMO_K8S_API_SERVER "the Kubernetes API server, https://HOST:PORT as 'kubectl cluster-info' prints it"
need TOMO_K8S_IMAGE "the image built from submit/kubernetes/Dockerfile, REGISTRY/tomospark:TAG"
need TOMO_K8S_NAMESPACE "the namespace the driver and executor pods run in"
api="${TOMO_K8S_API_SERVER#k8s://}"
case "$api" in
  https://*|http://*) ;;
  *) fail "TOMO_K8S_API_SERVER is '$TOMO_K8S_API_SERVER'; give the API server's URL, https://HOST:PORT" ;;
esac

if [ -n "${SPARK_HOME:-}" ]; then
  submit="$SPARK_HOME/bin/spark-submit"
elif [ -n "$dry_run" ] || command -v spark-submit >/dev/null 2>&1; then
  submit="spark-submit"
else
  fail "set SPARK_HOME to a Spark 4.0 installation (its bin/spark-submit submits the job)"
fi

# Resources: one GPU an executor; the job sizes the task slots itself (a task resource profile of
# spark.task.cpus = cores / (GPUs x (job.tasksPerDevice + 1)), README "GPUs"), so no spark.task.resource.gpu.amount:
# set, it would keep Spark's own slots of one GPU a task. Spark accepts such a task profile on Kubernetes with
# dynamic allocation off, and the driver plans for spark.executor.instances executors.
# The memory overhead holds what lives outside the heap: the writers' direct buffers (cores x one slice file) and
# the GPU's page-locked slice frames.
cmd=("$submit"
  --master "k8s://$api"
  --deploy-mode cluster
  --name "tomospark-$command"
  --class org.tomospark.job.cli.TomoCli
  --conf "spark.kubernetes.namespace=$TOMO_K8S_NAMESPACE"
  --conf "spark.kubernetes.container.image=$TOMO_K8S_IMAGE"
  --conf "spark.kubernetes.authenticate.driver.serviceAccountName=${TOMO_K8S_SERVICE_ACCOUNT:-spark}"
  --conf "spark.kubernetes.executor.podTemplateFile=$HERE/executor-pod-template.yaml"
  --conf spark.kubernetes.executor.podTemplateContainerName=spark-executor
  --conf spark.dynamicAllocation.enabled=false
  --conf "spark.executor.instances=${TOMO_K8S_EXECUTORS:-2}"
  --conf "spark.executor.cores=${TOMO_K8S_EXECUTOR_CORES:-16}"
  --conf "spark.executor.memory=${TOMO_K8S_EXECUTOR_MEMORY:-40g}"
  --conf "spark.executor.memoryOverhead=${TOMO_K8S_EXECUTOR_OVERHEAD:-8g}"
  --conf "spark.driver.memory=${TOMO_K8S_DRIVER_MEMORY:-4g}"
  --conf spark.executor.resource.gpu.amount=1
  --conf spark.executor.resource.gpu.vendor=nvidia.com
  --conf spark.executor.resource.gpu.discoveryScript=/opt/tomospark/gpu-discovery.sh
  --conf spark.plugins=org.tomospark.job.spark.ExecutorGpuPlugin
  --conf spark.serializer=org.apache.spark.serializer.KryoSerializer
  --conf spark.kryo.registrator=org.tomospark.job.spark.TomoKryoRegistrator
  --conf spark.kryo.registrationRequired=true
  --conf "spark.executor.extraJavaOptions=--add-modules=jdk.incubator.vector -XX:+UseTransparentHugePages"
  --conf "spark.driver.extraJavaOptions=--add-modules=jdk.incubator.vector"
  --conf spark.executorEnv.LD_PRELOAD=/opt/java/openjdk/lib/libjsig.so
  --conf spark.speculation=true
  --conf spark.task.maxFailures=4
  ${sconf[@]+"${sconf[@]}"}
  local:///opt/tomospark/tomospark.jar
  "${job[@]}")

if [ -n "$dry_run" ]; then
  # as a shell reads it: one option and its value a line
  printf '%q' "${cmd[0]}"
  for ((i = 1; i < ${#cmd[@]}; i++)); do
    printf ' \\\n  %q' "${cmd[$i]}"
    case "${cmd[$i]}" in
      --*=*) ;;
      --*) if [ $((i + 1)) -lt ${#cmd[@]} ] && [[ "${cmd[$((i + 1))]}" != -* ]]; then i=$((i + 1)); printf ' %q' "${cmd[$i]}"; fi ;;
    esac
  done
  printf '\n'
  exit 0
fi
exec "${cmd[@]}"
