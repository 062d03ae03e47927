"""scikit-image's iradon (filtered back-projection) on a sinogram written by the Java tests.

usage: iradon.py SINO.f32 THETA.f64 WIDTH FILTER OUT.f32
SINO.f32 holds projections x width float32 (little-endian, row p = projection p), THETA.f64 the angles in degrees,
FILTER one of iradon's filter names (ramp, shepp-logan, cosine, hamming, hann); writes the WIDTH x WIDTH
reconstruction (linear interpolation, circle=True) as float32.
"""
import sys

import numpy as np
from skimage.transform import iradon

sino_file, theta_file, width, filter_name, out_file = sys.argv[1:6]
width = int(width)
theta = np.fromfile(theta_file, dtype='<f8')
sino = np.fromfile(sino_file, dtype='<f4').reshape(len(theta), width).T.astype(np.float64)
rec = iradon(sino, theta=theta, output_size=width, filter_name=filter_name, interpolation='linear', circle=True)
rec.astype('<f4').tofile(out_file)
