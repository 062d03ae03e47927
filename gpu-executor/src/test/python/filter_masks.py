#!/usr/bin/env python3
"""Writes scans whose chunks were not all filtered alike, with h5py and Debian's HDF5 filter plugins, and the same
samples contiguous to compare them with.

usage: filter_masks.py OUTDIR

HDF5 keeps a filter mask for every chunk of a chunked dataset: bit i set means filter i of the dataset's pipeline was
not applied to that chunk. The library sets it when an optional filter fails, as Blosc does on a chunk it cannot make
smaller (the chunk is then stored as it is), and a writer of whole chunks (write_direct_chunk) may set it for any
chunk. A reader must decode each chunk with only the filters its mask leaves.

Every DataExchange scan is /exchange/data [24 angles, 16 rows, 40 columns] uint16, 3 flats and 2 darks, chunked one
frame of 8 rows x 24 columns per chunk (so a frame has two rows of chunks and its right-hand chunks reach past the
last column), and 24 angles in /exchange/theta. The samples are noise over the whole 16-bit range, except in the
chunks where (frame + row chunk + column chunk) is a multiple of 3, which are smooth, so that a compressor shrinks
those and not the others. Files:
  contiguous            the samples, contiguous
  blosc_masked          Blosc (32001) LZ4 with byte shuffle, as h5py writes it: the noisy chunks are stored
                        unfiltered (mask 1), the smooth ones compressed (mask 0); theta in chunks of 8 angles, also
                        through Blosc (8 doubles are too few for Blosc, so they are stored unfiltered)
  blosc_masked_latest   the same with libver='latest' (a fixed-array chunk index instead of a B-tree)
  gzip_masked           gzip, every chunk written by write_direct_chunk: the noisy chunks raw with mask 1, the
                        others compressed by zlib with mask 0; theta gzip in chunks of 8 angles, its second chunk raw
                        with mask 1
  shuffle_gzip_masked   byte shuffle then gzip, the chunks' masks 0, 1, 2, 3 in turn (both filters, gzip only,
                        shuffle only, none), each chunk encoded by numpy and zlib accordingly
  sparse_fill, sparse_fill_latest
                        gzip, fill value 77, the even frames written whole, of the odd frames only frame 1's top
                        left chunk: the other chunks never written; sparse_expected holds what they read as
  sparse_f32            float32 samples (the noise as floats), fill value -1.5, written like sparse_fill;
                        sparse_f32_expected holds what it reads as
  nxtomo_contiguous.nxs NXtomo: 2 darks, 3 flats, the 24 projections and one more flat in
                        /entry/instrument/detector/data, with image_key and /entry/sample/rotation_angle
  nxtomo_masked.nxs     the same, the frames, image_key and rotation_angle chunked through Blosc as above
"""
import os
import sys
import zlib

import h5py
import hdf5plugin
import numpy as np

N, R, W = 24, 16, 40
FLATS, DARKS = 3, 2
CHUNK = (1, 8, 24)
ANGLE_CHUNK = 8
FILL = 77
FILL_F32 = -1.5


def frames(first, n, seed):
    """Noise, with smooth chunks where (frame + row chunk + column chunk) is a multiple of 3."""
    v = np.random.default_rng(seed).integers(0, 65536, size=(n, R, W), dtype=np.uint16)
    for p in range(n):
        for rc in range(0, R, CHUNK[1]):
            for cc in range(0, W, CHUNK[2]):
                if (first + p + rc // CHUNK[1] + cc // CHUNK[2]) % 3 == 0:
                    block = v[p, rc:rc + CHUNK[1], cc:cc + CHUNK[2]]
                    block[...] = 1000 + (first + p) % 7 + np.arange(block.shape[1])[None, :] // 4
    return v


def scan():
    return {"data": frames(0, N, 1), "data_white": frames(1000, FLATS, 2), "data_dark": frames(2000, DARKS, 3)}


THETA = np.linspace(0.0, 180.0, N, endpoint=False)


def chunk_origins(shape, chunk):
    return [(p, r, c) for p in range(0, shape[0], chunk[0]) for r in range(0, shape[1], chunk[1])
            for c in range(0, shape[2], chunk[2])]


def padded(values, origin, chunk):
    """The chunk at origin, padded with zeros where it reaches past the dataset, as HDF5 stores it."""
    block = np.zeros(chunk, values.dtype)
    part = values[tuple(slice(o, o + n) for o, n in zip(origin, chunk))]
    block[tuple(slice(0, n) for n in part.shape)] = part
    return block


def shuffled(raw, size):
    return np.frombuffer(raw, np.uint8).reshape(-1, size).T.tobytes()


def masks(ds):
    return [ds.id.get_chunk_info(i).filter_mask for i in range(ds.id.get_num_chunks())]


def write_contiguous(path):
    with h5py.File(path, "w") as f:
        ex = f.create_group("exchange")
        for name, values in scan().items():
            ex[name] = values
        ex["theta"] = THETA


def write_blosc(path, libver="earliest"):
    blosc = hdf5plugin.Blosc(cname="lz4", shuffle=hdf5plugin.Blosc.SHUFFLE)
    with h5py.File(path, "w", libver=libver) as f:
        ex = f.create_group("exchange")
        for name, values in scan().items():
            ds = ex.create_dataset(name, data=values, chunks=CHUNK, **blosc)
            m = masks(ds)
            assert any(x != 0 for x in m) and any(x == 0 for x in m), f"{path}:{name}: masks {m}"
        theta = ex.create_dataset("theta", data=THETA, chunks=(ANGLE_CHUNK,), **blosc)
        assert any(x != 0 for x in masks(theta)), f"{path}:theta: masks {masks(theta)}"


def direct_chunks(ds, values, chunk, encode):
    """Writes every chunk of values through write_direct_chunk; encode(raw, index) gives (bytes, mask)."""
    for i, origin in enumerate(chunk_origins(values.shape, chunk)):
        stored, mask = encode(padded(values, origin, chunk).tobytes(), i, origin)
        ds.id.write_direct_chunk(origin, stored, filter_mask=mask)


def write_gzip(path):
    def gzip_or_raw(raw, i, origin):
        smooth = (origin[0] + origin[1] // CHUNK[1] + origin[2] // CHUNK[2]) % 3 == 0
        return (zlib.compress(raw, 4), 0) if smooth else (raw, 1)

    with h5py.File(path, "w") as f:
        ex = f.create_group("exchange")
        for k, (name, values) in enumerate(scan().items()):
            ds = ex.create_dataset(name, shape=values.shape, dtype=values.dtype, chunks=CHUNK, compression="gzip")
            direct_chunks(ds, values, CHUNK, lambda raw, i, o, k=k: gzip_or_raw(raw, i, (o[0] + k, o[1], o[2])))
            m = masks(ds)
            assert 1 in m and 0 in m, f"{path}:{name}: masks {m}"
        theta = ex.create_dataset("theta", shape=THETA.shape, dtype=THETA.dtype, chunks=(ANGLE_CHUNK,),
                                  compression="gzip")
        for i, start in enumerate(range(0, N, ANGLE_CHUNK)):
            raw = THETA[start:start + ANGLE_CHUNK].tobytes()
            theta.id.write_direct_chunk((start,), raw if i == 1 else zlib.compress(raw), filter_mask=1 if i == 1 else 0)
        assert masks(theta) == [0, 1, 0], masks(theta)


def write_shuffle_gzip(path):
    def by_mask(raw, i, origin):
        mask = i % 4  # bit 0: shuffle not applied, bit 1: gzip not applied
        stored = raw if mask & 1 else shuffled(raw, 2)
        return (stored if mask & 2 else zlib.compress(stored, 4)), mask

    with h5py.File(path, "w") as f:
        ex = f.create_group("exchange")
        for name, values in scan().items():
            ds = ex.create_dataset(name, shape=values.shape, dtype=values.dtype, chunks=CHUNK, compression="gzip",
                                   shuffle=True)
            direct_chunks(ds, values, CHUNK, by_mask)
            assert set(masks(ds)) == {0, 1, 2, 3}, f"{path}:{name}: masks {masks(ds)}"
        ex["theta"] = THETA


def sparse(values, fill):
    """What the sparse files read as: even frames written, frame 1's top left chunk, the rest the fill value."""
    out = np.full_like(values, fill)
    out[0::2] = values[0::2]
    out[1, :CHUNK[1], :CHUNK[2]] = values[1, :CHUNK[1], :CHUNK[2]]
    return out


def write_sparse(path, expected_path, libver="earliest", kind="u16"):
    s = scan()
    if kind == "f32":
        s = {k: v.astype(np.float32) for k, v in s.items()}
    fill = FILL if kind == "u16" else FILL_F32
    with h5py.File(path, "w", libver=libver) as f:
        ex = f.create_group("exchange")
        for name, values in s.items():
            ds = ex.create_dataset(name, shape=values.shape, dtype=values.dtype, chunks=CHUNK, compression="gzip",
                                   fillvalue=fill)
            for p in range(0, values.shape[0], 2):
                ds[p] = values[p]
            if values.shape[0] > 1:
                ds[1, :CHUNK[1], :CHUNK[2]] = values[1, :CHUNK[1], :CHUNK[2]]
            total = len(chunk_origins(values.shape, CHUNK))
            assert ds.id.get_num_chunks() < total, f"{path}:{name}: every chunk written"
        ex["theta"] = THETA
    with h5py.File(expected_path, "w") as f:
        ex = f.create_group("exchange")
        for name, values in s.items():
            ex[name] = sparse(values, fill)
        ex["theta"] = THETA


def nxtomo(path, masked):
    s = scan()
    stack = np.concatenate([s["data_dark"], s["data_white"], s["data"], s["data_white"][:1]])
    keys = np.array([2] * DARKS + [1] * FLATS + [0] * N + [1], np.int8)
    angles = np.concatenate([np.zeros(DARKS + FLATS), THETA, [180.0]])
    blosc = hdf5plugin.Blosc(cname="lz4", shuffle=hdf5plugin.Blosc.SHUFFLE)
    with h5py.File(path, "w") as f:
        entry = f.create_group("entry")
        entry.attrs["NX_class"] = "NXentry"
        det = entry.create_group("instrument/detector")
        sample = entry.create_group("sample")
        if masked:
            data = det.create_dataset("data", data=stack, chunks=CHUNK, **blosc)
            key = det.create_dataset("image_key", data=keys, chunks=(ANGLE_CHUNK,), **blosc)
            angle = sample.create_dataset("rotation_angle", data=angles, chunks=(ANGLE_CHUNK,), **blosc)
            for ds in (data, key, angle):
                assert any(x != 0 for x in masks(ds)), f"{path}:{ds.name}: masks {masks(ds)}"
        else:
            det["data"] = stack
            det["image_key"] = keys
            sample["rotation_angle"] = angles
        sample["rotation_angle"].attrs["units"] = "degree"


def main(out):
    os.chdir(out)
    write_contiguous("contiguous.h5")
    write_blosc("blosc_masked.h5")
    write_blosc("blosc_masked_latest.h5", libver="latest")
    write_gzip("gzip_masked.h5")
    write_shuffle_gzip("shuffle_gzip_masked.h5")
    write_sparse("sparse_fill.h5", "sparse_expected.h5")
    write_sparse("sparse_fill_latest.h5", "sparse_expected.h5", libver="latest")
    write_sparse("sparse_f32.h5", "sparse_f32_expected.h5", kind="f32")
    nxtomo("nxtomo_contiguous.nxs", masked=False)
    nxtomo("nxtomo_masked.nxs", masked=True)


if __name__ == "__main__":
    main(os.path.abspath(sys.argv[1]))
