#!/usr/bin/env python3
"""make_seeds.py SEEDDIR [CATALOGUEDIR] - small H5MD restart files for the
restart fuzzer (tests/fuzz/seeds_restart/) and the restart cases of the
bad-input catalogue (tests/bad_inputs/r*.h5md, each with a .expect file:
`expect: CODE "message fragment"`; run against tests/bad_inputs/restart.conf,
a 4-particle system in a 3 x 3 x 3 box).

mdsim's own files are ~190 kB (chunked, extendible datasets), too large
for the fuzzer to mutate well; these have the same tree with contiguous or
compact datasets and a handful of particles, so each is a few kB. The
valid ones restart a 4-particle state (valid4_argon.h5md: the same state in
argon units with the /parameters/units record, scales computed here from
the argon parameters and CODATA constants); the others are the hostile
variants that the catalogue (tests/bad_inputs/) also holds.
Needs h5py and numpy; writes HDF5 1.8-compatible files.
"""
import sys
import h5py
import numpy as np


# argon units (docs/h5md.md): sigma 3.405 A, epsilon/kB 119.8 K, m 39.948 u,
# CODATA 2018 kB and NA; tau = sigma sqrt(m / epsilon) in ps
KB, NA = 1.380649e-23, 6.02214076e23
AR_L = 3.405
AR_T = 3.405e-10 * (39.948e-3 / NA / (119.8 * KB)) ** 0.5 * 1e12
AR_E = 119.8 * KB * NA * 1e-3
ARGON = {  # quantity: (scale, unit)
    "length": (AR_L, "Angstrom"), "time": (AR_T, "ps"), "mass": (39.948, "u"),
    "energy": (AR_E, "kJ mol-1"), "velocity": (AR_L / AR_T, "Angstrom ps-1"),
    "force": (AR_E / AR_L, "kJ mol-1 Angstrom-1"), "temperature": (119.8, "K"),
    "pressure": (119.8 * KB / (AR_L * 1e-10) ** 3 * 1e-5, "bar"),
}


def write(path, n=4, frames=2, box=3.0, pos=None, vel=None, img=None,
          step=None, edges=None, species=None, skip=(), layout="compact",
          pos_shape=None, empty=None, argon=False):
    """empty: {name: shape} of value datasets made chunked and never written
    (fill values only: absurd extents cost no space). argon: values and
    unit attributes in argon units, with the /parameters/units record."""
    empty = empty or {}
    with h5py.File(path, "w", libver=("earliest", "v108")) as f:
        f.create_group("h5md").attrs["version"] = np.array([1, 1], np.int32)
        t = f.create_group("particles/trajectory")

        def ds(g, name, data, dtype):
            key = g.name.split("/")[-1] + "/" + name
            if key in empty:
                shape = empty[key]
                chunks = tuple(min(x, 1024) for x in shape)
                g.create_dataset(name, shape=shape, maxshape=(None,) + shape[1:],
                                 chunks=chunks, dtype=dtype,
                                 fillvalue=np.nan if dtype == np.float64 else 0)
                return
            data = np.asarray(data, dtype)
            if layout == "compact" and data.nbytes < 60000:
                dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
                dcpl.set_layout(h5py.h5d.COMPACT)
                sid = h5py.h5s.create_simple(data.shape)
                tid = h5py.h5t.py_create(data.dtype)
                d = h5py.h5d.create(g.id, name.encode(), tid, sid, dcpl=dcpl)
                d.write(h5py.h5s.ALL, h5py.h5s.ALL, np.ascontiguousarray(data))
            else:
                g.create_dataset(name, data=data)

        rng = np.random.default_rng(1)
        if pos is None:
            pos = rng.uniform(0, box, (frames, n, 3))
        if pos_shape is not None:
            pos = np.zeros(pos_shape)
        if vel is None:
            vel = rng.normal(0, 1, (frames, n, 3))
        if img is None:
            img = np.zeros((frames, n, 3), np.int32)
        if step is None:
            step = np.arange(frames, dtype=np.int64) * 5
        if edges is None:
            edges = np.array([np.eye(3) * box] * frames)
        sc = {k: (v[0] if argon else 1.0) for k, v in ARGON.items()}
        vstr = h5py.string_dtype()
        p = t.create_group("position")
        ds(p, "value", np.asarray(pos) * sc["length"], np.float64)
        ds(p, "step", step, np.int64)
        ds(p, "time", np.asarray(step, np.float64) * 0.005 * sc["time"], np.float64)
        vel = np.asarray(vel) * sc["velocity"]
        edges = np.asarray(edges) * sc["length"]
        if argon:
            p["value"].attrs.create("unit", ARGON["length"][1], dtype=vstr)
            p["time"].attrs.create("unit", ARGON["time"][1], dtype=vstr)
            u = f.create_group("parameters/units")
            u.attrs.create("system", "argon", dtype=vstr)
            for k, (s, unit) in ARGON.items():
                u.attrs[k] = np.float64(s)
                u.attrs.create(k + "_unit", unit, dtype=vstr)
        for name, data, dt in (("velocity", vel, np.float64),
                               ("image", img, np.int32)):
            if name in skip:
                continue
            g = t.create_group(name)
            ds(g, "value", data, dt)
            if argon and name == "velocity":
                g["value"].attrs.create("unit", ARGON["velocity"][1], dtype=vstr)
            g["step"] = p["step"]
            g["time"] = p["time"]
        b = t.create_group("box")
        b.attrs["dimension"] = np.int32(3)
        e = b.create_group("edges")
        ds(e, "value", edges, np.float64)
        e["step"] = p["step"]
        e["time"] = p["time"]
        if species is None:
            species = np.zeros(n, np.int32)
        if "species" not in skip:
            ds(t, "species", species, np.int32)


def catalogue(out):
    """The restart cases of tests/bad_inputs/: (name, expect, writer)."""
    big = 10 ** 12
    cases = [
        ("r01_nan_positions", '2 "no complete frame"',
         lambda p: write(p, pos=np.full((2, 4, 3), np.nan))),
        ("r02_inf_velocity", '2 "no complete frame"',
         lambda p: write(p, vel=np.full((2, 4, 3), np.inf))),
        ("r03_huge_velocity", '3 "non-finite energy"',
         lambda p: write(p, vel=np.full((2, 4, 3), 1e300))),
        ("r04_five_particles", '2 "holds 5 particles"', lambda p: write(p, n=5)),
        ("r05_other_box", '2 "restart with the config"', lambda p: write(p, box=3.5)),
        ("r06_negative_box", '2 "positive edges"',
         lambda p: write(p, edges=np.array([np.eye(3) * -3.0] * 2))),
        ("r07_sheared_box", '2 "not a cuboid"',
         lambda p: write(p, edges=np.array([[[3, 1, 0], [0, 3, 0], [0, 0, 3]]] * 2))),
        ("r08_no_velocity", '2 "a restart needs position, velocity and image"',
         lambda p: write(p, skip=("velocity",))),
        ("r09_no_image", '2 "a restart needs position, velocity and image"',
         lambda p: write(p, skip=("image",))),
        ("r10_bad_species", '2 "has species 7"',
         lambda p: write(p, species=np.array([0, 7, 0, 0]))),
        ("r11_negative_steps", '2 "no complete frame"',
         lambda p: write(p, step=np.array([-5, -1]))),
        ("r12_rank2_positions", '2 "unexpected layout"',
         lambda p: write(p, pos_shape=(2, 12))),
        ("r13_no_step", '2 "unexpected layout"', lambda p: write_nostep(p)),
        ("r14_plain_hdf5", '2 "not an H5MD trajectory"', lambda p: write_plain(p)),
        ("r15_absurd_particles", '2 "more than fits in the available host memory"',
         lambda p: write(p, empty={"position/value": (2, 2_000_000_000, 3)})),
        ("r16_over_int_particles", '2 "unexpected layout"',
         lambda p: write(p, empty={"position/value": (2, 3_000_000_000, 3)})),
        ("r17_absurd_frames", '2 "no complete frame"',
         lambda p: write(p, step=np.zeros(1, np.int64), empty={
             "position/value": (big, 4, 3), "velocity/value": (big, 4, 3),
             "image/value": (big, 4, 3), "edges/value": (big, 3, 3),
             "position/step": (big,), "position/time": (big,)})),
        ("r18_zero_frames", '2 "no complete frame"', lambda p: write(p, frames=0)),
        ("r19_string_positions", '2 "no complete frame"', lambda p: write_strpos(p)),
    ]
    for name, expect, fn in cases:
        fn(f"{out}/{name}.h5md")
        with open(f"{out}/{name}.h5md.expect", "w") as f:
            f.write(f"expect: {expect}\n")


def write_nostep(path):
    write(path)
    with h5py.File(path, "a") as f:
        del f["particles/trajectory/position/step"]


def write_plain(path):
    with h5py.File(path, "w", libver=("earliest", "v108")) as f:
        f["data"] = np.arange(10.0)


def write_strpos(path):
    write(path)
    with h5py.File(path, "a") as f:
        g = f["particles/trajectory/position"]
        del g["value"]
        g["value"] = np.array([[[b"abc"] * 3] * 4] * 2)


def main():
    out = sys.argv[1]
    write(f"{out}/valid4.h5md")
    write(f"{out}/valid4_chunked.h5md", layout="chunked")
    write(f"{out}/valid4_argon.h5md", argon=True)
    if len(sys.argv) > 2:
        catalogue(sys.argv[2])


if __name__ == "__main__":
    main()
