"""Writes HDF5 files with a /geometry group for ConeGeometryReaderTest (h5py):
good.h5 (the six scalars as float64 and float32, matrices [4, 3, 4] of a circular scan scaled by 2.5),
no_dsd.h5 (dsd_mm missing), bad_shape.h5 (matrices [4, 12]), scalars_only.h5."""
import sys
import h5py
import numpy as np

out = sys.argv[1]
angles = np.radians([0.0, 90.0, 180.0, 270.0])
dso, dsd, du, dv, cu, cv = 200.0, 400.0, 0.8, 0.8, 63.5, 47.5


def matrix(t):
    c, s = np.cos(t), np.sin(t)
    return 2.5 * np.array([[(-cu * c - dsd * s / du) / dso, (-cu * s + dsd * c / du) / dso, 0, cu],
                           [-cv * c / dso, -cv * s / dso, dsd / (dv * dso), cv],
                           [-c / dso, -s / dso, 0, 1]])


def write(name, skip=(), matrices=None):
    with h5py.File(f"{out}/{name}", "w") as f:
        g = f.create_group("geometry")
        for key, value, dtype in (("dso_mm", dso, "f8"), ("dsd_mm", dsd, "f8"), ("du_mm", du, "f4"), ("dv_mm", dv, "f4"),
                                  ("cu_px", cu, "f8"), ("cv_px", cv, "f8")):
            if key not in skip:
                g.create_dataset(key, data=np.array(value, dtype=dtype))
        if matrices is not None:
            g.create_dataset("projection_matrices", data=matrices)


write("good.h5", matrices=np.stack([matrix(t) for t in angles]))
write("no_dsd.h5", skip=("dsd_mm",))
write("bad_shape.h5", matrices=np.zeros((4, 12)))
write("scalars_only.h5")
