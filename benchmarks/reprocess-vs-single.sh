#!/usr/bin/env bash
# N small scans: one `tomospark reprocess` against N `tomospark reconstruct --engine spark` runs (a JVM and an
# embedded Spark each), then the batch again (nothing to do). Prints the three wall times and checks that every
# slice of the batch equals the single run's. Usage: benchmarks/reprocess-vs-single.sh [WORKDIR] [N]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
W=${1:-/tmp/tomospark-reprocess-bench}
N=${2:-20}
TOMO="$ROOT/submit/tomospark"
ARGS=(--center 127.5 --backend java --filter shepp-logan)
mkdir -p "$W/scans"
# one demo scan (256 columns, 16 rows, 180 projections, uint16 with noise), copied: each copy is a scan of its own
[ -f "$W/scans/scan_00.h5" ] || "$TOMO" demo-data --output "$W/scans/scan_00.h5" --width 256 --rows 16 --projections 180
for i in $(seq -w 1 $((N - 1))); do cp "$W/scans/scan_00.h5" "$W/scans/scan_$i.h5"; done
rm -rf "$W/single" "$W/batch"
t0=$(date +%s.%N)
for i in $(seq -w 0 $((N - 1))); do
  "$TOMO" reconstruct --engine spark --input "$W/scans/scan_$i.h5" --output "$W/single/scan_$i" "${ARGS[@]}" \
      --conf job.progress=false > "$W/single_$i.log" 2>&1
done
t1=$(date +%s.%N)
"$TOMO" reprocess "$W/scans" --output-root "$W/batch" "${ARGS[@]}" > "$W/batch.log" 2>&1
t2=$(date +%s.%N)
"$TOMO" reprocess "$W/scans" --output-root "$W/batch" "${ARGS[@]}" > "$W/batch-again.log" 2>&1
t3=$(date +%s.%N)
echo "separate runs: $(echo "$t1 - $t0" | bc) s; reprocess: $(echo "$t2 - $t1" | bc) s;" \
     "reprocess again: $(echo "$t3 - $t2" | bc) s; load $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq -w 0 $((N - 1))); do
  cmp -s <(cat "$W/single/scan_$i"/slice_*.tif) <(cat "$W/batch/scan_$i"/slice_*.tif) || echo "scan_$i differs"
done
