#!/usr/bin/env python3
"""Writes NXtomo (NeXus) scans with h5py, an HDF5 writer independent of the project's jhdf, plus the same scan as
DataExchange, so that a reconstruction of each can be compared.

usage: nxtomo_scans.py OUTDIR

The scan: 64 columns, 8 rows, 90 projections of a disc over [0, 180) degrees, uint16. Its frames in the NXtomo
files, in this order: 3 darks (image_key 2), 4 flats (1), projections 0..44, one invalid frame (3), projections
45..89, 2 flats (1). Each sample is value(frame, row, col) below, plus the disc's transmission in the projections,
so that a reader that takes the wrong frames or rows is caught.

  good.nxs          the scan under /entry/instrument/detector and /entry/sample, contiguous
  chunked.nxs       the same, chunked one frame per chunk and gzip-compressed, angles in radians
  nxdata.nxs        the datasets only under the NXdata group /scan/data (entry named scan, found by NX_class)
  nxtomomill.nxs    laid out as nxtomomill writes it: entry0000, the detector data a virtual dataset over one camera
                    file per acquisition segment (nxtomomill_segments/segment_N.h5: darks, flats, projections, ...,
                    each chunked per frame and gzip-compressed), named relative to the .nxs file's folder
  exchange.h5       the same scan as DataExchange (projections, flats and darks averaged the same way)
  no_flats.nxs      no image_key 1
  no_darks.nxs      no image_key 2
  bad_key.nxs       one image_key 5
  angles_short.nxs  rotation_angle one value short
"""
import sys

import h5py
import numpy as np

W, R, N = 64, 8, 90
theta = np.linspace(0.0, 180.0, N, endpoint=False)
DARK, FLAT, INVALID = 2, 1, 3
keys = [DARK] * 3 + [FLAT] * 4 + [0] * 45 + [INVALID] + [0] * 45 + [FLAT] * 2


def wiggle(frame):
    """A small per-frame, per-row, per-column pattern that tells frames and rows apart."""
    r = np.arange(R)[:, None]
    c = np.arange(W)[None, :]
    return (frame * 3 + r * 5 + c) % 7


def frames():
    x = np.arange(W) - (W - 1) / 2.0
    chord = 2.0 * np.sqrt(np.clip(20.0 ** 2 - x ** 2, 0, None))
    out, angles, p = [], [], 0
    for i, k in enumerate(keys):
        if k == DARK:
            f = 100.0 + wiggle(i)
            angles.append(0.0)
        elif k == FLAT:
            f = 1100.0 + wiggle(i)
            angles.append(0.0 if i < 10 else 180.0)
        elif k == INVALID:
            f = np.full((R, W), 60000.0)
            angles.append(90.0)
        else:
            f = 1000.0 * np.exp(-0.02 * chord)[None, :] + 100.0 + wiggle(i)
            angles.append(theta[p])
            p += 1
        out.append(np.broadcast_to(f, (R, W)))
    return np.array(out).round().astype(np.uint16), np.array(angles)


def segments(out, data, image_key):
    """One camera file per run of equal image_key, and the virtual layout over them."""
    import os
    os.makedirs(f"{out}/nxtomomill_segments", exist_ok=True)
    layout = h5py.VirtualLayout(shape=data.shape, dtype=data.dtype)
    start, n = 0, 0
    while start < len(image_key):
        end = start
        while end < len(image_key) and image_key[end] == image_key[start]:
            end += 1
        name = f"nxtomomill_segments/segment_{n}.h5"
        with h5py.File(f"{out}/{name}", "w") as f:
            f.create_group("entry_0000/measurement").create_dataset(
                "data", data=data[start:end], chunks=(1, R, W), compression="gzip")
        layout[start:end] = h5py.VirtualSource(name, "/entry_0000/measurement/data", shape=(end - start, R, W))
        start, n = end, n + 1
    return layout


def write_nx(path, data, image_key, angles, chunked=False, units="degree", nxdata_only=False, entry="entry",
             virtual=None):
    with h5py.File(path, "w") as f:
        e = f.create_group(entry)
        e.attrs["NX_class"] = "NXentry"
        e["definition"] = "NXtomo"
        opts = dict(chunks=(1, R, W), compression="gzip") if chunked else {}
        if nxdata_only:
            g = e.create_group("data")
            g.attrs["NX_class"] = "NXdata"
            g.create_dataset("data", data=data, **opts)
            g["image_key"] = np.asarray(image_key, dtype=np.int32)
            g["rotation_angle"] = angles
            g["rotation_angle"].attrs["units"] = units
            return
        det = e.create_group("instrument").create_group("detector")
        det.attrs["NX_class"] = "NXdetector"
        if virtual is not None:
            det.create_virtual_dataset("data", virtual)
        else:
            det.create_dataset("data", data=data, **opts)
        det["image_key"] = np.asarray(image_key, dtype=np.uint8)
        det["count_time"] = np.full(len(image_key), 0.1)
        s = e.create_group("sample")
        s.attrs["NX_class"] = "NXsample"
        s["rotation_angle"] = angles
        s["rotation_angle"].attrs["units"] = units
        s["x_translation"] = np.zeros(len(image_key))
        g = e.create_group("data")
        g.attrs["NX_class"] = "NXdata"
        g["data"] = h5py.SoftLink(det.name + "/data")


def main(out):
    data, angles = frames()
    k = np.array(keys)
    write_nx(f"{out}/good.nxs", data, keys, angles)
    write_nx(f"{out}/chunked.nxs", data, keys, np.radians(angles), chunked=True, units="rad")
    write_nx(f"{out}/nxdata.nxs", data, keys, angles, nxdata_only=True, entry="scan")
    import os
    here = os.getcwd()
    os.chdir(out)  # the segments are named relative to the .nxs file, as nxtomomill names them
    write_nx("nxtomomill.nxs", data, keys, angles, entry="entry0000", virtual=segments(out, data, keys))
    os.chdir(here)
    with h5py.File(f"{out}/exchange.h5", "w") as f:
        ex = f.create_group("exchange")
        ex["data"] = data[k == 0]
        ex["data_white"] = data[k == FLAT]
        ex["data_dark"] = data[k == DARK]
        ex["theta"] = theta
    no_flats = [DARK if x == FLAT else x for x in keys]
    write_nx(f"{out}/no_flats.nxs", data, no_flats, angles)
    no_darks = [FLAT if x == DARK else x for x in keys]
    write_nx(f"{out}/no_darks.nxs", data, no_darks, angles)
    bad = list(keys)
    bad[20] = 5
    write_nx(f"{out}/bad_key.nxs", data, bad, angles)
    write_nx(f"{out}/angles_short.nxs", data, keys, angles[:-1])


if __name__ == "__main__":
    main(sys.argv[1])
