#!/usr/bin/env bash
# The cone-beam real path on the GPU machine (BENCHMARKS.md, "Cone-beam FDK"): makes a cone-beam scan with
# make_scan.py when it is missing (ANGLES,ROWS,COLUMNS) and runs RealPathBench (both engines through the CLI, the disk
# floor) into a volume of SIZE^3 voxels of 0.1 mm, the detector pixel at the axis.
#   benchmarks/gpu-cone-real-path.sh ANGLES,ROWS,COLUMNS SIZE [RealPathBench options...]
set -euo pipefail
shape=$1; size=$2; shift 2
out=${OUT:-results}; mkdir -p "$out"
bash .gpu/run -version >/dev/null 2>&1 || true
export LD_PRELOAD=/tmp/gpu-jre/lib/libjsig.so
# a heap for slabs of hundreds of slices: a slab's band (counts and floats) takes up to a quarter of it
export GPU_JAVA_OPTS="$(cat .gpu/extra/jvm-opts 2>/dev/null || true) ${GPU_JAVA_OPTS:--Xmx80g}"
bash .gpu/run org.tomospark.bench.RealPathBench --scan "/tmp/cone-${shape//,/x}.h5" --make "$shape,contiguous,cone" \
    --out /tmp/conepath --conf cone.volume.size=$size --conf cone.volume.slices=$size --conf cone.volume.voxel=0.1 \
    --results "$out/cone-realpath-${shape//,/x}-$size.md" "$@"
