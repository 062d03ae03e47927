#!/usr/bin/env python3
"""Writes one DataExchange scan in the storage layouts facilities use, with h5py and Debian's HDF5 filter plugins
(python3-hdf5plugin, hdf5-filter-plugin, hdf5-filter-plugin-blosc-serial, bitshuffle): writers independent of the
project's jhdf and of its own filters.

usage: facility_layouts.py OUTDIR

Every scan is /exchange/data [180 angles, 8 rows, 256 columns] uint16, 4 flats, 2 darks and 180 angles, with the
samples of layouts.py's formula f = (p * 7919 + r * 104729 + c * 31 + 12345) mod 65536, moved into a range a
reconstruction takes: projections 4000 + f mod 3000, flats 8000 + f mod 3000, darks 100 + f mod 300. Files:
  contiguous, chunk_frame (1 x 8 x 256), chunk_rows (180 x 1 x 256)
  gzip, shuffle_gzip, lzf, lz4 (32004), bitshuffle_lz4 (32008), chunked 4 x 8 x 256; bitshuffle_none, and
  bitshuffle_lz4_odd chunked 3 x 7 x 100 (a last block shorter than the others, and elements
  past the last multiple of 8 that are stored as they are)
  external_link: /exchange/data is an external link to contiguous.h5
  blosc_lz4_shuffle, blosc_zstd_bitshuffle, blosc_lz4_bitshuffle, blosc_zlib_noshuffle, blosc_zstd_shuffle_f32,
  blosc_blosclz (Blosc, 32001), zstd (32015: the chunks compressed by the zstd command, written as they are),
  bzip2 (307, a filter tomospark does not decode)
  vds: /exchange/data a virtual dataset over vds_src/segment_{0..3}.h5 (45 projections each, chunked per frame, gzip)
  vds_latest: the same written with libver='latest' (new-style groups, version-2 object headers), with 12 more
              small datasets in /exchange, so that its links are kept in dense storage (a fractal heap)
  vds_mixed: rows 0..3 from vds_mixed_src/top.h5, rows 4..6 from every other row of vds_mixed_src/bottom.h5, even
             frames and odd frames from different files, row 7 unmapped (fill value 77)
  vds_missing: like vds, over vds_missing_src/, whose segment_2.h5 is then deleted
"""
import os
import subprocess
import sys

import h5py
import hdf5plugin
import numpy as np

N, R, W = 180, 8, 256


def frames(p0, n, base, modulus, kind="u16"):
    p, r, c = np.meshgrid(np.arange(p0, p0 + n, dtype=np.int64), np.arange(R, dtype=np.int64),
                          np.arange(W, dtype=np.int64), indexing="ij")
    v = base + (p * 7919 + r * 104729 + c * 31 + 12345) % 65536 % modulus
    return v.astype(np.uint16 if kind == "u16" else np.float32)


def scan(kind="u16"):
    return {"data": frames(0, N, 4000, 3000, kind), "data_white": frames(1000, 4, 8000, 3000, kind),
            "data_dark": frames(2000, 2, 100, 300, kind)}


def write(path, libver="earliest", data_options=None, data_writer=None, kind="u16", extra=0):
    with h5py.File(path, "w", libver=libver) as f:
        ex = f.create_group("exchange")
        for i in range(extra):
            ex[f"extra_{i}"] = np.arange(i + 1)
        for name, values in scan(kind).items():
            if name == "data" and data_writer is not None:
                data_writer(f, ex, values)
            else:
                ex.create_dataset(name, data=values, **(data_options or {} if name == "data" else {}))
        ex["theta"] = np.linspace(0.0, 180.0, N, endpoint=False)


def zstd_chunks(f, ex, values):
    """Filter 32015 has no Debian plugin: each chunk is compressed by the zstd command and written as it is."""
    chunk = (4, R, W)
    ds = ex.create_dataset("data", shape=values.shape, dtype=values.dtype, chunks=chunk, compression=32015,
                           compression_opts=(3,), allow_unknown_filter=True)
    for p in range(0, N, chunk[0]):
        raw = np.ascontiguousarray(values[p:p + chunk[0]]).tobytes()
        # the plugin's decoder needs the decoded size in the frame: --stream-size records it for input from a pipe
        packed = subprocess.run(["zstd", "-3", "-q", "-c", f"--stream-size={len(raw)}"], input=raw,
                                stdout=subprocess.PIPE, check=True).stdout
        ds.id.write_direct_chunk((p, 0, 0), packed)


def virtual(sources, fill=0, kind="u16"):
    """sources: (file, dataset, shape, virtual index, source index) tuples."""
    dtype = np.uint16 if kind == "u16" else np.float32

    def writer(f, ex, values):
        layout = h5py.VirtualLayout(shape=values.shape, dtype=dtype)
        for file, dataset, shape, vindex, sindex in sources:
            layout[vindex] = h5py.VirtualSource(file, dataset, shape=shape)[sindex]
        ex.create_virtual_dataset("data", layout, fillvalue=fill)
    return writer


def segments(out, folder, libver="earliest"):
    os.makedirs(f"{out}/{folder}", exist_ok=True)
    data = scan()["data"]
    sources = []
    for i in range(4):
        name = f"{folder}/segment_{i}.h5"
        with h5py.File(f"{out}/{name}", "w", libver=libver) as f:
            f.create_group("entry_0000/measurement").create_dataset(
                "data", data=data[45 * i:45 * (i + 1)], chunks=(1, R, W), compression="gzip")
        sources.append((name, "/entry_0000/measurement/data", (45, R, W), slice(45 * i, 45 * (i + 1)), slice(None)))
    return sources


def mixed(out):
    """Rows 0..3: even frames from top_even.h5, odd frames from top_odd.h5; rows 4..6: rows 0, 2, 4 of bottom.h5."""
    os.makedirs(f"{out}/vds_mixed_src", exist_ok=True)
    data = scan()["data"]
    with h5py.File(f"{out}/vds_mixed_src/top_even.h5", "w") as f:
        f["data"] = data[0::2, 0:4]
    with h5py.File(f"{out}/vds_mixed_src/top_odd.h5", "w") as f:
        f["data"] = data[1::2, 0:4]
    bottom = np.zeros((N, 6, W), np.uint16)
    bottom[:, 0::2] = data[:, 4:7]
    with h5py.File(f"{out}/vds_mixed_src/bottom.h5", "w") as f:
        f.create_dataset("frames", data=bottom, chunks=(10, 2, 64), compression="gzip", shuffle=True)
    return [("vds_mixed_src/top_even.h5", "data", (90, 4, W), (slice(0, N, 2), slice(0, 4)), slice(None)),
            ("vds_mixed_src/top_odd.h5", "data", (90, 4, W), (slice(1, N, 2), slice(0, 4)), slice(None)),
            ("vds_mixed_src/bottom.h5", "frames", (N, 6, W), (slice(None), slice(4, 7)),
             (slice(None), slice(0, 6, 2)))]


def main(out):
    os.chdir(out)  # virtual sources are named relative to the virtual file, as nxtomomill names them
    write("contiguous.h5")
    write("chunk_frame.h5", data_options=dict(chunks=(1, R, W)))
    write("chunk_rows.h5", data_options=dict(chunks=(N, 1, W)))
    c = dict(chunks=(4, R, W))
    write("gzip.h5", data_options=dict(c, compression="gzip"))
    write("shuffle_gzip.h5", data_options=dict(c, compression="gzip", shuffle=True))
    write("lzf.h5", data_options=dict(c, compression="lzf"))
    write("lz4.h5", data_options=dict(c, **hdf5plugin.LZ4()))
    write("bitshuffle_lz4.h5", data_options=dict(c, **hdf5plugin.Bitshuffle(cname="lz4")))
    write("bitshuffle_none.h5", data_options=dict(c, **hdf5plugin.Bitshuffle(cname="none")))
    write("bitshuffle_lz4_odd.h5", data_options=dict(chunks=(3, 7, 100), **hdf5plugin.Bitshuffle(cname="lz4")))
    write("external_link.h5", data_writer=lambda f, ex, v: ex.__setitem__("data", h5py.ExternalLink("contiguous.h5",
                                                                                                   "/exchange/data")))
    blosc = hdf5plugin.Blosc
    write("blosc_lz4_shuffle.h5", data_options=dict(c, **blosc(cname="lz4", shuffle=blosc.SHUFFLE)))
    write("blosc_zstd_bitshuffle.h5", data_options=dict(c, **blosc(cname="zstd", shuffle=blosc.BITSHUFFLE)))
    write("blosc_lz4_bitshuffle.h5", data_options=dict(c, **blosc(cname="lz4", shuffle=blosc.BITSHUFFLE)))
    write("blosc_zlib_noshuffle.h5", data_options=dict(c, **blosc(cname="zlib", shuffle=blosc.NOSHUFFLE)))
    write("blosc_zstd_shuffle_f32.h5", kind="f32", data_options=dict(c, **blosc(cname="zstd", shuffle=blosc.SHUFFLE)))
    write("blosc_blosclz.h5", data_options=dict(c, **blosc(cname="blosclz", shuffle=blosc.SHUFFLE)))
    write("zstd.h5", data_writer=zstd_chunks)
    write("bzip2.h5", data_options=dict(c, compression=307))
    write("vds.h5", data_writer=virtual(segments(out, "vds_src")))
    write("vds_latest.h5", libver="latest", data_writer=virtual(segments(out, "vds_latest_src", "latest")), extra=12)
    write("vds_mixed.h5", data_writer=virtual(mixed(out), fill=77))
    write("vds_missing.h5", data_writer=virtual(segments(out, "vds_missing_src")))
    os.remove("vds_missing_src/segment_2.h5")


if __name__ == "__main__":
    main(os.path.abspath(sys.argv[1]))
