#!/usr/bin/env bash
# Compiles every CUDA harness under benchmarks/cuda (the kernel explorations BENCHMARKS.md reports) the way its
# README says, into a temporary folder, so that a kernel change that breaks one fails CI instead of the next person's
# run on a GPU machine. Nothing is run: no GPU is needed. Needs nvcc (NVCC or PATH) and, for the Joseph harness, the
# repository's history (its reference kernels are kernels/joseph.cu as of a3b03b5).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null || { echo "benchmarks/cuda/check.sh: nvcc not found (set NVCC or PATH)" >&2; exit 3; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
flags=(-std=c++17 -O3 -arch=sm_90)
joseph=1
if git -C "$here" cat-file -e a3b03b5 2>/dev/null; then
  git -C "$here" show a3b03b5:kernels/joseph.cu | sed 's/joseph_/old_joseph_/g; s/JOSEPH_/OLDJ_/g' > "$tmp/old_joseph.cuh"
else
  echo "benchmarks/cuda/check.sh: joseph/jbench.cu not compiled: its reference kernels need commit a3b03b5 (a shallow clone?)"
  joseph=0
fi
build() { # harness folder, source, extra flags
  local dir=$1 src=$2; shift 2
  if ! (cd "$here/$dir" && "$NVCC" "${flags[@]}" "$@" -o "$tmp/${src%.cu}" "$src") > "$tmp/${src%.cu}.log" 2>&1; then
    echo "benchmarks/cuda/check.sh: $dir/$src does not compile:" >&2; cat "$tmp/${src%.cu}.log" >&2; return 1
  fi
}
# two at a time: the two largest take about 40 s each on a 2-core machine
pids=()
build fdk fdkkernels.cu & pids+=($!)
build fdk fdktma.cu & pids+=($!)
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
build fdk fdkbench.cu || status=1
build lds128 lds128.cu || status=1
if [[ $joseph == 1 ]]; then build joseph jbench.cu -I "$tmp" || status=1; fi
[[ $status == 0 ]] && echo "benchmarks/cuda/check.sh: every harness compiles"
exit $status
