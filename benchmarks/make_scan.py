#!/usr/bin/env python3
"""Writes a synthetic DataExchange scan for the real-path benchmark, with h5py, in blocks of projections.

usage: make_scan.py OUT.h5 ANGLES ROWS COLUMNS [LAYOUT] [cone]

/exchange/data [angle, row, column] uint16; 10 flats, 10 darks; theta over 180 degrees. LAYOUT: contiguous (the
default), or one projection per chunk compressed with gzip (level 1), bitshuffle-lz4 (32008) or blosc-zstd (Blosc
32001, Zstd level 5, bit shuffle), the last two through python3-hdf5plugin. The object is
a few discs of different attenuation off the rotation axis (centre (COLUMNS-1)/2), varying slowly with the row, so
that every projection differs and no transmission is clamped. Noise-free: the benchmark times, it does not judge.

cone: a cone-beam scan instead (docs/cone-beam.md): theta over 360 degrees, a /geometry group (DSO 500 mm, DSD 1000 mm,
0.2 mm pixels, the central ray on the detector's centre), three spheres whose exact chords along each pixel's ray give
the line integrals; reconstruct with cone.volume.voxel=0.1 (the pixel at the axis) into up to 1.48 COLUMNS voxels across.
"""
import sys

import h5py
import numpy as np


def layout_options(layout, rows, cols):
    if layout == "contiguous":
        return {}
    chunk = dict(chunks=(1, rows, cols))
    if layout == "gzip":
        return dict(chunk, compression="gzip", compression_opts=1)
    import hdf5plugin
    if layout == "bitshuffle-lz4":
        return dict(chunk, **hdf5plugin.Bitshuffle(cname="lz4"))
    if layout == "blosc-zstd":
        return dict(chunk, **hdf5plugin.Blosc(cname="zstd", clevel=5, shuffle=hdf5plugin.Blosc.BITSHUFFLE))
    raise SystemExit("unknown layout " + layout)


CONE = dict(dso=500.0, dsd=1000.0, pix=0.2)


def cone_projection(args):
    """uint16 counts of one cone-beam projection: the spheres' exact chords along each pixel's ray."""
    a, rows, cols, spheres = args
    dso, dsd, pix = CONE["dso"], CONE["dsd"], CONE["pix"]
    um = (np.arange(cols) - (cols - 1) / 2.0) * pix
    vm = (np.arange(rows) - (rows - 1) / 2.0) * pix
    c, s = np.cos(a), np.sin(a)
    # the pixel (u, v) sits at source + dsd * (-c, -s, 0) + u * (-s, c, 0) + v * (0, 0, 1)
    dx = np.broadcast_to(-dsd * c - um * s, (rows, cols))
    dy = np.broadcast_to(-dsd * s + um * c, (rows, cols))
    dz = np.broadcast_to(vm[:, None], (rows, cols))
    inv = 1.0 / np.sqrt(dx * dx + dy * dy + dz * dz)
    line = np.zeros((rows, cols))
    for (x0, y0, z0, r, mu) in spheres:
        ox, oy, oz = dso * c - x0, dso * s - y0, -z0
        t = (ox * dx + oy * dy + oz * dz) * inv
        d2 = ox * ox + oy * oy + oz * oz - t * t
        line += mu * 2.0 * np.sqrt(np.clip(r * r - d2, 0, None))
    return np.round(100.0 + 20000.0 * np.exp(-line)).astype(np.uint16)


def main_cone(out, angles, rows, cols, layout):
    from multiprocessing import Pool
    dso, dsd, pix = CONE["dso"], CONE["dsd"], CONE["pix"]
    theta = np.linspace(0.0, 360.0, angles, endpoint=False)
    half_w = cols * pix * dso / dsd / 2  # the detector's half width at the axis, mm
    half_h = rows * pix * dso / dsd / 2
    spheres = [(0.0, 0.0, 0.0, 0.55 * half_w, 0.01), (0.25 * half_w, 0.1 * half_w, 0.3 * half_h, 0.15 * half_w, 0.02),
               (-0.2 * half_w, -0.15 * half_w, -0.3 * half_h, 0.1 * half_w, 0.03)]
    block = max(1, int((256 << 20) // (rows * cols * 2)))
    with h5py.File(out, "w") as f, Pool() as pool:
        ex = f.create_group("exchange")
        d = ex.create_dataset("data", (angles, rows, cols), dtype=np.uint16, **layout_options(layout, rows, cols))
        ex["data_white"] = np.full((10, rows, cols), 20100, np.uint16)
        ex["data_dark"] = np.full((10, rows, cols), 100, np.uint16)
        ex["theta"] = theta
        g = f.create_group("geometry")
        for k, v in dict(dso_mm=dso, dsd_mm=dsd, du_mm=pix, dv_mm=pix, cu_px=(cols - 1) / 2.0, cv_px=(rows - 1) / 2.0).items():
            g[k] = v
        for a0 in range(0, angles, block):
            a1 = min(angles, a0 + block)
            d[a0:a1] = np.stack(pool.map(cone_projection, [(a, rows, cols, spheres) for a in np.deg2rad(theta[a0:a1])]))
    print(f"wrote {out}: cone beam, {angles} x {rows} x {cols} uint16, {layout}")


def main(out, angles, rows, cols, layout="contiguous"):
    theta = np.linspace(0.0, 180.0, angles, endpoint=False)
    c = (cols - 1) / 2.0
    x = np.arange(cols, dtype=np.float64) - c
    # attenuation per pixel, scaled so that the longest ray keeps about 1 % of the beam at any size
    discs = [(0.0, 0.0, 0.42 * cols, 2.0), (0.18 * cols, 0.05 * cols, 0.12 * cols, 4.0), (-0.2 * cols, -0.1 * cols, 0.08 * cols, 6.0)]
    discs = [(dx, dy, r, mu / cols) for (dx, dy, r, mu) in discs]
    row_scale = 0.8 + 0.4 * np.sin(np.linspace(0, np.pi, rows))[:, None]
    flat, dark = 20000.0, 100.0
    block = max(1, int((256 << 20) // (rows * cols * 2)))
    with h5py.File(out, "w") as f:
        ex = f.create_group("exchange")
        d = ex.create_dataset("data", (angles, rows, cols), dtype=np.uint16, **layout_options(layout, rows, cols))
        ex["data_white"] = np.full((10, rows, cols), flat + dark, np.uint16)
        ex["data_dark"] = np.full((10, rows, cols), dark, np.uint16)
        ex["theta"] = theta
        for a0 in range(0, angles, block):
            a1 = min(angles, a0 + block)
            t = np.deg2rad(theta[a0:a1])[:, None]
            line = np.zeros((a1 - a0, cols))
            for (dx, dy, r, mu) in discs:
                u = x[None, :] - (dx * np.cos(t) + dy * np.sin(t))
                line += mu * 2.0 * np.sqrt(np.clip(r * r - u * u, 0, None))
            counts = dark + flat * np.exp(-line[:, None, :] * row_scale[None, :, :])
            d[a0:a1] = np.round(counts).astype(np.uint16)
    print(f"wrote {out}: {angles} x {rows} x {cols} uint16, {layout}")


if __name__ == "__main__":
    args = sys.argv[1:]
    cone = args[-1] == "cone"
    if cone:
        args = args[:-1]
    run = main_cone if cone else main
    run(args[0], int(args[1]), int(args[2]), int(args[3]), args[4] if len(args) > 4 else "contiguous")
