#!/usr/bin/env bash
# Builds the CUDA kernels of kernels/*.cu.
#   kernels/build-ptx.sh                 regenerate the committed PTX in gpu-executor/src/main/resources/kernels-ptx/
#   kernels/build-ptx.sh --fatbin DIR    also write DIR/<name>.fatbin (sm_80 + sm_90 SASS, compute_90 PTX)
#   kernels/build-ptx.sh --check         regenerate the PTX and fail if it differs from what is committed (CI)
# Used by the Maven profile "cuda-kernels" (gpu-executor/pom.xml) and by CI. Needs nvcc (13.0 verified).
# The PTX is deterministic: no line info, no file paths (checked below), stable nvcc flags.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
ptxdir=$root/gpu-executor/src/main/resources/kernels-ptx
fatdir=""
check=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --fatbin) mkdir -p "$2"; fatdir=$(cd "$2" && pwd); shift 2 ;;
    --check) check=1; shift ;;
    *) echo "build-ptx.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null || { echo "build-ptx.sh: nvcc not found (set NVCC or PATH)" >&2; exit 3; }
flags=(-std=c++17 -O3 -Xptxas -O3 -I "$here")
mkdir -p "$ptxdir"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for cu in "$here"/*.cu; do
  name=$(basename "$cu" .cu)
  # compile from inside kernels/ with a relative name so that no absolute path can reach the output
  (cd "$here" && "$NVCC" "${flags[@]}" -arch=compute_80 -ptx "$name.cu" -o "$tmp/$name.ptx")
  if grep -q -E '^\s*\.file|/work/|/home/|/tmp/' "$tmp/$name.ptx"; then
    echo "build-ptx.sh: $name.ptx contains a file path; refusing (it must be deterministic)" >&2; exit 4
  fi
  if [[ $check == 1 ]]; then
    if ! cmp -s "$tmp/$name.ptx" "$ptxdir/$name.ptx"; then
      echo "build-ptx.sh: $ptxdir/$name.ptx is not current with kernels/$name.cu: run kernels/build-ptx.sh and commit" >&2
      exit 1
    fi
  else
    cp "$tmp/$name.ptx" "$ptxdir/$name.ptx"
  fi
  if [[ -n $fatdir ]]; then
    mkdir -p "$fatdir"
    (cd "$here" && "$NVCC" "${flags[@]}" -gencode arch=compute_80,code=sm_80 \
        -gencode arch=compute_90,code='[sm_90,compute_90]' -fatbin "$name.cu" -o "$fatdir/$name.fatbin")
  fi
done
[[ $check == 1 ]] && echo "build-ptx.sh: PTX is current" || echo "build-ptx.sh: PTX written to $ptxdir${fatdir:+, fatbins to $fatdir}"
