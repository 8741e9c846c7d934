"""evstore.py - what the GPU-side Python scripts (clock-check, ncu-profile)
need from an evident store, and the checker they run its objects through: its run and batch manifests, the newest batch of
an experiment, and the kernel object a run timed, found in the build cache
and checked against the run's record (the device code's hash and the file's
hash), so a profile is never of another object than the one evident timed.

Only reading: nothing here writes to the store or the cache.
"""
import hashlib
import json
import os
import shutil
import subprocess


class StoreError(Exception):
    """A store, batch or object that cannot be used; the text says why."""


def manifests(store):
    """Yields every manifest (run or batch) in STORE/runs, oldest first."""
    d = os.path.join(store, "runs")
    if not os.path.isdir(d):
        raise StoreError("'%s' is no evident store (no runs/); pass --store DIR" % store)
    for f in sorted(os.listdir(d)):
        if f.endswith(".json"):
            with open(os.path.join(d, f)) as fh:
                yield json.load(fh)


def runs_and_batch(store, batch=None, experiment=None):
    """(runs by run_id, the chosen batch): the batch whose run_id or batch_id
    starts with BATCH, else the newest evident-batch/2 batch of EXPERIMENT."""
    runs, batches = {}, []
    for m in manifests(store):
        if m.get("kind") == "batch":
            batches.append(m)
        else:
            runs[m.get("run_id")] = m
    if batch:
        cand = [b for b in batches if b["run_id"].startswith(batch) or b.get("batch_id", "").startswith(batch)]
    else:
        cand = [b for b in batches if b.get("experiment") == experiment and b.get("format") == "evident-batch/2"]
    if not cand:
        raise StoreError("no batch to use (want an evident-batch/2 batch of '%s', or --batch ID)"
                         % (batch or experiment))
    return runs, sorted(cand, key=lambda b: b["run_id"])[-1]


def sha256(path):
    """The file's sha256, hex."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for b in iter(lambda: fh.read(1 << 20), b""):
            h.update(b)
    return h.hexdigest()


def timed_object(run, cache="build/cache"):
    """The kernel.so RUN timed, from the build cache: its path, after checking
    that the cache entry's device code is the record's (binary_sha256 hashes
    the .nv_fatbin section) and that the file is the one the cache recorded
    (so_sha256, the whole file).  Raises StoreError saying what differs."""
    so = os.path.join(cache, run["code"]["build_key"], "kernel.so")
    if not os.path.exists(so):
        raise StoreError("%s is not in the build cache here" % so)
    try:
        with open(os.path.join(os.path.dirname(so), "info.json")) as fh:
            info = json.load(fh)
    except (OSError, ValueError) as e:
        raise StoreError("cannot read the build cache's info.json: %s" % e)
    if info.get("binary_sha256") != run["code"]["binary_sha256"] or sha256(so) != info.get("so_sha256"):
        raise StoreError("%s is not the object the run timed (device code or file hash differs)" % so)
    return so


def shape_arg(run):
    """The run's attention shape as kcheck's --shape value, B,H,S,D."""
    sh = run["problem"]["shape"]
    return "%d,%d,%d,%d" % (sh["B"], sh["H"], sh["S"], sh["D"])


def build_kcheck(outdir):
    """Builds tests/gpu/kcheck (the standalone checker both scripts run the
    objects through) into OUTDIR; its path, or raises StoreError with
    nvcc's errors."""
    kcheck = os.path.join(outdir, "kcheck")
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    r = subprocess.run([nvcc, "-O2", "-Xcompiler", "-fopenmp", "-Ikernels", "-o", kcheck,
                        "tests/gpu/kcheck.cu", "-ldl", "-lgomp"], capture_output=True, text=True)
    if r.returncode:
        raise StoreError("cannot build tests/gpu/kcheck.cu:\n" + r.stderr)
    return kcheck
