#!/usr/bin/env bash
set -u
# cone-beam demo through the CLI on every backend and both engines, compared with the java backend (zarr chunks read with numpy)
bash .gpu/run -version >/dev/null 2>&1 || true
export LD_PRELOAD=/tmp/gpu-jre/lib/libjsig.so
export GPU_JAVA_OPTS="$(cat .gpu/extra/jvm-opts)"
mkdir -p $OUT
for b in java cuda opencl; do
  for e in direct spark; do
    [ $b != cuda ] && [ $e = spark ] && continue
    rm -rf /tmp/cd-$b-$e
    ( time bash .gpu/run org.tomospark.job.cli.TomoCli reconstruct demo --geometry cone --backend $b --engine $e --output /tmp/cd-$b-$e --output-format zarr --conf job.progress=false --conf job.devices=0 ) > $OUT/cd-$b-$e.log 2>&1
    echo "$b $e exit $?"; grep -E "Reconstructed|backend|GU/s|real" $OUT/cd-$b-$e.log
  done
done
# slabs of 20 slices: they start at slices that are not multiples of the kernel's 8-slice chunks
rm -rf /tmp/cd-cuda-spark20; bash .gpu/run org.tomospark.job.cli.TomoCli reconstruct demo --geometry cone --backend cuda --engine spark --output /tmp/cd-cuda-spark20 --output-format zarr --conf job.progress=false --conf group.rows=20 > $OUT/cd-cuda-spark20.log 2>&1; echo "spark20 exit $?"; grep -E "spark:|GU/s" $OUT/cd-cuda-spark20.log
rm -rf /tmp/cd-cuda-tex; bash .gpu/run org.tomospark.job.cli.TomoCli reconstruct demo --geometry cone --backend cuda --engine direct --output /tmp/cd-cuda-tex --output-format zarr --conf job.progress=false --conf cuda.allowTextureWeights=true > $OUT/cd-cuda-tex.log 2>&1; echo "tex exit $?"; grep -E "backend|GU/s" $OUT/cd-cuda-tex.log
rm -rf /tmp/cd-cuda-tex-spark; bash .gpu/run org.tomospark.job.cli.TomoCli reconstruct demo --geometry cone --backend cuda --engine spark --output /tmp/cd-cuda-tex-spark --output-format zarr --conf job.progress=false --conf cuda.allowTextureWeights=true > $OUT/cd-cuda-tex-spark.log 2>&1; echo "tex spark exit $?"; grep -E "backend|GU/s" $OUT/cd-cuda-tex-spark.log
python3 - <<'PY'
import numpy as np, json, glob, os
def vol(d):
    z=json.load(open(d+'/volume.zarr/.zarray')); n=z['shape']
    return np.stack([np.fromfile(d+'/volume.zarr/%d.0.0'%k, dtype='<f4').reshape(n[1],n[2]) for k in range(n[0])])
ref=vol('/tmp/cd-java-direct')
for o in ['cuda-direct','cuda-spark','opencl-direct','cuda-tex']:
    d='/tmp/cd-'+o
    if not os.path.exists(d+'/_SUCCESS'): print(o,'missing'); continue
    v=vol(d); e=np.sqrt(((v-ref)**2).sum(axis=(1,2))/(ref**2).sum(axis=(1,2)))
    print(o,'vs java: max per-slice relative L2 %.3g, whole %.3g'%(e.max(), np.sqrt(((v-ref)**2).sum()/(ref**2).sum())))
a=vol('/tmp/cd-cuda-direct'); b=vol('/tmp/cd-cuda-spark'); print('cuda spark == direct bit for bit:', np.array_equal(a.view(np.uint32), b.view(np.uint32)))
if os.path.exists('/tmp/cd-cuda-spark20/_SUCCESS'):
    c=vol('/tmp/cd-cuda-spark20'); print('cuda spark, slabs of 20 slices == direct bit for bit:', np.array_equal(a.view(np.uint32), c.view(np.uint32)))
if os.path.exists('/tmp/cd-cuda-tex-spark/_SUCCESS') and os.path.exists('/tmp/cd-cuda-tex/_SUCCESS'):
    t=vol('/tmp/cd-cuda-tex'); u=vol('/tmp/cd-cuda-tex-spark'); print('cuda texture mode, spark == direct bit for bit:', np.array_equal(t.view(np.uint32), u.view(np.uint32)))
print('centre value', ref[ref.shape[0]//2, ref.shape[1]//2, ref.shape[2]//2])
PY
