"""scikit-image's iradon_sart on a sinogram written by the Java tests.

usage: sart.py SINO.f32 THETA.f64 WIDTH ITERATIONS OUT.f32
SINO.f32 holds projections x width float32 (little-endian, row p = projection p), THETA.f64 the angles in degrees;
writes the WIDTH x WIDTH reconstruction as float32.
"""
import sys

import numpy as np
from skimage.transform import iradon_sart

sino_file, theta_file, width, iterations, out_file = sys.argv[1:6]
width, iterations = int(width), int(iterations)
theta = np.fromfile(theta_file, dtype='<f8')
sino = np.fromfile(sino_file, dtype='<f4').reshape(len(theta), width).T.astype(np.float64)
rec = None
for _ in range(iterations):
    rec = iradon_sart(sino, theta=theta, image=rec)
rec.astype('<f4').tofile(out_file)
