// tomospark: flat/dark correction and -log of raw uint16 projections on the device, so that a task uploads its
// counts (2 bytes a sample) instead of float sinograms (4 bytes) and the host does no per-sample work.
//
// The arithmetic is org.tomospark.executor.preprocess.Preprocessor's, operation for operation, so that the
// sinograms equal the host's: transmission = (raw - dark) / den in float with IEEE rounding (den = flat - dark,
// already clamped to its floor on the host), clamped to the transmission floor, then -log in double, rounded to
// float once.
#include <cuda_runtime.h>
#include "signatures.cuh"

#define CORRECT_THREADS 256

// raw:  [np][slices][width] counts of the chunk (slice s = detector row s of the chunk), as the projections hold
//       them: the host stages each projection's rows of the chunk with one contiguous copy
// dark: [slices][width] dark field; den: [slices][width] flat - dark, clamped
// out:  [slices][np][width] -log(transmission), the sinograms the ramp filter then reads in place
// clamped: running count of transmissions raised to the floor
// grid: x over columns (CORRECT_THREADS a block), y over projections, z over the chunk's slices
extern "C" __global__ void __launch_bounds__(CORRECT_THREADS)
TS_KERNEL(CORRECT) {
    int c = blockIdx.x * CORRECT_THREADS + threadIdx.x;
    int p = blockIdx.y, s = blockIdx.z;
    unsigned int hit = 0;
    if (c < width) {
        size_t i = ((size_t)s * np + p) * width + c;
        size_t r = ((size_t)p * gridDim.z + s) * width + c;
        int f = s * width + c;
        float tr = __fdiv_rn(__fsub_rn((float)raw[r], dark[f]), den[f]);
        if (!(tr >= floorTr)) {
            tr = floorTr;
            hit = 1;
        }
        out[i] = (float)(-log((double)tr));
    }
    // one atomic per warp
    unsigned int n = __popc(__ballot_sync(0xffffffffu, hit));
    if ((threadIdx.x & 31) == 0 && n != 0) atomicAdd(clamped, (unsigned long long)n);
}
