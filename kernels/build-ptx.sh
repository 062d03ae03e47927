#!/usr/bin/env bash
# Builds the CUDA kernels of kernels/*.cu and the variant manifest.
#   kernels/build-ptx.sh                       regenerate what is committed in gpu-executor/src/main/resources/kernels-ptx/:
#                                              the PTX of every module with the product kernels of variants.def
#                                              (gzipped, <module>.ptx.gz), and
#                                              variants.manifest (every row of variants.def, printed by manifest.cpp)
#   kernels/build-ptx.sh --fatbin DIR          also write DIR/<module>.fatbin (sm_80 + sm_90 SASS, compute_90 PTX) and
#                                              DIR/variants.manifest
#   kernels/build-ptx.sh --all --fatbin DIR    the fatbins carry every variant, the exploration ones too (the committed
#                                              PTX stays the product set); --set all is the same, --set product the default
#   kernels/build-ptx.sh --check               build into a temporary folder and fail if the committed files differ (CI)
# Used by the Maven profiles "cuda-kernels" and "cuda-explore" (gpu-executor/pom.xml) and by CI. Needs nvcc (13.0
# verified) and its host compiler. The PTX is deterministic: no line info, no file paths (checked below), stable flags.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
ptxdir=$root/gpu-executor/src/main/resources/kernels-ptx
fatdir=""
check=0
all=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --fatbin) mkdir -p "$2"; fatdir=$(cd "$2" && pwd); shift 2 ;;
    --check) check=1; shift ;;
    --all) all=1; shift ;;
    --set)
      case $2 in product) all=0 ;; all) all=1 ;; *) echo "build-ptx.sh: --set product or --set all, not $2" >&2; exit 2 ;; esac
      shift 2 ;;
    *) echo "build-ptx.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [[ $all == 1 && -z $fatdir ]]; then
  echo "build-ptx.sh: --all builds fatbins only (the committed PTX is the product set): give --fatbin DIR" >&2; exit 2
fi
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null || { echo "build-ptx.sh: nvcc not found (set NVCC or PATH)" >&2; exit 3; }
flags=(-std=c++17 -O3 -Xptxas -O3 -I "$here")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/ptx"

# what the modules are built from: one hash of every kernel source, beside the PTX and the fatbins, so that the Java side
# can tell fatbins left by an earlier build of other sources from current ones (KernelBuild)
(cd "$here" && cat $(ls *.cu *.cuh variants.def manifest.cpp | LC_ALL=C sort) | sha256sum | cut -d' ' -f1) > "$tmp/ptx/sources.sha256"

# the manifest: a host program that prints every row of variants.def with the facts the kernels are compiled with
(cd "$here" && "$NVCC" -std=c++17 -x cu -I "$here" manifest.cpp -o "$tmp/manifest")
"$tmp/manifest" product > "$tmp/ptx/variants.manifest"

for cu in "$here"/*.cu; do
  name=$(basename "$cu" .cu)
  # compile from inside kernels/ with a relative name so that no absolute path can reach the output
  (cd "$here" && "$NVCC" "${flags[@]}" -arch=compute_80 -ptx "$name.cu" -o "$tmp/ptx/$name.ptx")
  if grep -q -E '^\s*\.file|/work/|/home/|/tmp/' "$tmp/ptx/$name.ptx"; then
    echo "build-ptx.sh: $name.ptx contains a file path; refusing (it must be deterministic)" >&2; exit 4
  fi
done

# the PTX is committed gzipped (a tenth of its size; KernelBuild inflates it): compared by content, since gzip's bytes
# may differ between its versions
if [[ $check == 1 ]]; then
  stale=0
  for f in "$tmp"/ptx/*; do
    base=$(basename "$f")
    if [[ $base == *.ptx ]]; then
      committed="$ptxdir/$base.gz"
      if [[ ! -f $committed ]] || ! gzip -dc "$committed" | cmp -s - "$f"; then
        echo "build-ptx.sh: $committed is not current with kernels/: run kernels/build-ptx.sh and commit" >&2; stale=1
      fi
    elif ! cmp -s "$f" "$ptxdir/$base"; then
      echo "build-ptx.sh: $ptxdir/$base is not current with kernels/: run kernels/build-ptx.sh and commit" >&2; stale=1
    fi
  done
  for f in "$ptxdir"/*.ptx "$ptxdir"/*.ptx.gz "$ptxdir"/*.manifest; do
    base=$(basename "$f" .gz)
    if [[ -e $f && ( $f == *.ptx || ! -e "$tmp/ptx/$base" ) ]]; then
      echo "build-ptx.sh: $f has no source in kernels/ (or is not gzipped): remove it" >&2; stale=1
    fi
  done
  [[ $stale == 0 ]] || exit 1
else
  mkdir -p "$ptxdir"
  rm -f "$ptxdir"/*.ptx
  for f in "$tmp"/ptx/*; do
    base=$(basename "$f")
    if [[ $base == *.ptx ]]; then
      # unchanged content keeps the committed file as it is, whatever this gzip would write
      if [[ -f "$ptxdir/$base.gz" ]] && gzip -dc "$ptxdir/$base.gz" | cmp -s - "$f"; then continue; fi
      gzip -9 -n -c "$f" > "$ptxdir/$base.gz"
    else
      cp "$f" "$ptxdir/"
    fi
  done
fi

if [[ -n $fatdir ]]; then
  sets=product
  explore=()
  if [[ $all == 1 ]]; then sets=product,explore; explore=(-DTS_EXPLORE=1); fi
  for cu in "$here"/*.cu; do
    name=$(basename "$cu" .cu)
    (cd "$here" && "$NVCC" "${flags[@]}" "${explore[@]}" -gencode arch=compute_80,code=sm_80 \
        -gencode arch=compute_90,code='[sm_90,compute_90]' -fatbin "$name.cu" -o "$fatdir/$name.fatbin")
  done
  "$tmp/manifest" "$sets" > "$fatdir/variants.manifest"
  cp "$tmp/ptx/sources.sha256" "$fatdir/"
fi
[[ $check == 1 ]] && echo "build-ptx.sh: PTX and manifest are current" \
  || echo "build-ptx.sh: PTX and manifest written to $ptxdir${fatdir:+, fatbins ($sets) to $fatdir}"
