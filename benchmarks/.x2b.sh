set -x
export OUT=$OUT/b
rm -rf /dev/shm/cl-* /tmp/scan-2048x1024x2048.h5
bash benchmarks/gpu-node.sh volume 2048,2048,2048 2>&1 | tail -4
for f in $OUT/realpath*.md; do echo "== $f"; cat $f; done
