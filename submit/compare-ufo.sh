#!/usr/bin/env bash
# Peer comparison: UFO (ufo-launch, Debian ufo-filters + libufo-bin) vs tomospark's OpenCL backend, both on
# the same OpenCL device (PoCL's CPU device by default), on the same ramp-filtered phantom sinograms.
#   submit/compare-ufo.sh [WIDTH=512] [NPROJ=512] [SLICES=16]
# Needs: ufo-launch; builds the benchmarks module (UfoCompare) and gpu-executor's classpath below.
# Conventions aligned (see BENCHMARKS.md "OpenCL backend"):
#   axis-pos = our centre of rotation + 0.5 (UFO samples bin j at coordinate j+0.5; ours at j)
#   angle-step = pi/NPROJ, angle-offset 0 (our angles: p*180/NPROJ degrees from 0)
#   UFO rows run downwards with +sin, ours upwards (y = cy - row): UFO's image = ours flipped vertically
#   UFO multiplies the sum by pi/NPROJ; our backend returns the plain sum (scale lives in our ramp filter)
set -euo pipefail
W=${1:-512}; N=${2:-512}; S=${3:-16}; S0=4
cd "$(dirname "$0")/.."
export UFO_DEVICE_TYPE=${UFO_DEVICE_TYPE:-cpu}   # UFO looks for GPUs only unless told otherwise
WORK=${WORK:-target/ufo-compare}
rm -rf "$WORK"; mkdir -p "$WORK"
mvn -o -q -B ${MVN_ARGS:-} -pl benchmarks -am package -DskipTests
mvn -o -q -B -pl gpu-executor dependency:build-classpath -Dmdep.outputFile=target/cp.txt -DincludeScope=runtime
# UfoCompare needs gpu-executor, its shared test fixtures (the phantom) and its runtime dependencies, not Spark
CP="$(cat gpu-executor/target/cp.txt):gpu-executor/target/classes:gpu-executor/target/test-classes:benchmarks/target/classes"
JAVA="java --add-modules jdk.incubator.vector -cp $CP"
$JAVA org.tomospark.bench.UfoCompare write "$WORK/in" "$W" "$N" "$S" 2>/dev/null
mkdir -p "$WORK/in0/filtered"; cp "$WORK"/in/filtered/sino-000[0-$((S0-1))].tif "$WORK/in0/filtered/"
AXIS=$(python3 -c "print(($W-1)/2+0.5)"); STEP=$(python3 -c "import math;print(math.pi/$N)")
SCALE=$(python3 -c "import math;print(math.pi/$N)")
ufo() { # $1 input dir, $2 output dir, $3 mode: prints UFO's own "Finished in" seconds; log in $2.log
  rm -rf "$2"; mkdir -p "$2"
  ufo-launch read path="$1/" ! backproject axis-pos="$AXIS" angle-step="$STEP" mode="$3" ! write filename="$2/slice-%04i.raw" \
    >"$2.log" 2>&1 || true
  sed -n 's/.*Finished in \([0-9.]*\)s.*/\1/p' "$2.log"
}
echo "== UFO texture mode on this device"
T=$(ufo "$WORK/in/filtered" "$WORK/ufo-tex" texture)
if [ -n "$T" ]; then echo "texture mode ran: $S slices ${T}s"
else echo "texture mode FAILED: $(grep -m2 -E 'CL_|assert' "$WORK/ufo-tex.log" | tr '\n' ' ')"; fi
echo "== UFO nearest (buffer kernel), $S and $S0 slices of ${W}x${N}"
for rep in 1 2 3; do
  T=$(ufo "$WORK/in/filtered" "$WORK/ufo" nearest); T0=$(ufo "$WORK/in0/filtered" "$WORK/ufo0" nearest)
  echo "ufo: $S slices ${T}s, $S0 slices ${T0}s, marginal per slice $(python3 -c "print(round(($T-$T0)/($S-$S0)*1000,2))") ms = $(python3 -c "print(round($W*$W*$N*($S-$S0)/($T-$T0)/1e9,3))") GU/s"
done
for spec in "alu 1" "alu 4" "std 1" "tex4 4"; do
  set -- $spec
  echo "== ours: variant $1, $2 slices/pass, nearest"
  $JAVA -Dvariant="$1" -Dk="$2" -Dinterp=nearest org.tomospark.bench.UfoCompare compare "$WORK/in" "$W" "$N" "$S" "$WORK/ufo" "$SCALE" true 2>/dev/null
done
