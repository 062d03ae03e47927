#!/usr/bin/env bash
# Spark GPU discovery script (spark.{worker,driver,executor}.resource.gpu.discoveryScript).
# Prints the resource JSON Spark expects, e.g. {"name":"gpu","addresses":["0","1"]}, listing the GPUs
# nvidia-smi sees. Honours CUDA_VISIBLE_DEVICES / TOMOSPARK_GPUS (comma-separated indices) to restrict
# the list, e.g. when two Workers share a host and must not discover the same GPU.
# With no nvidia-smi or no GPU it prints an empty address list (Spark then schedules no GPU tasks).
set -euo pipefail

addresses=""
restrict="${TOMOSPARK_GPUS:-${CUDA_VISIBLE_DEVICES:-}}"
if command -v nvidia-smi >/dev/null 2>&1; then
  ids=$(nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null | tr -d ' ' || true)
  for id in $ids; do
    if [ -n "$restrict" ] && ! [[ ",$restrict," == *",$id,"* ]]; then continue; fi
    addresses="$addresses${addresses:+,}\"$id\""
  done
fi
echo "{\"name\":\"gpu\",\"addresses\":[$addresses]}"
