set -x
export OUT=$OUT/a
bash benchmarks/gpu-node.sh local 2048,1024,2048 2>&1 | tail -4
bash benchmarks/gpu-node.sh cluster 2048,1024,2048 1 2 2>&1 | tail -6
cat $OUT/summary.txt
ls $OUT
