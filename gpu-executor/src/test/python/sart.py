"""scikit-image's iradon_sart on a sinogram written by the Java tests.

usage: sart.py SINO.f32 THETA.f64 WIDTH ITERATIONS OUT.f32
SINO.f32 holds projections x width float32 (little-endian, row p = projection p), THETA.f64 the angles in degrees;
writes the WIDTH x WIDTH reconstruction as float32, non-negative (clipped at 0 after every pass, as the Java methods
are), and prints the seconds the passes took.
"""
import sys
import time

import numpy as np
from skimage.transform import iradon_sart

sino_file, theta_file, width, iterations, out_file = sys.argv[1:6]
width, iterations = int(width), int(iterations)
theta = np.fromfile(theta_file, dtype='<f8')
sino = np.fromfile(sino_file, dtype='<f4').reshape(len(theta), width).T.astype(np.float64)
rec = None
t0 = time.perf_counter()
for _ in range(iterations):
    rec = np.clip(iradon_sart(sino, theta=theta, image=rec), 0, None)
print(f"seconds {time.perf_counter() - t0:.3f}")
rec.astype('<f4').tofile(out_file)
