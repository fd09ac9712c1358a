#!/usr/bin/env python3
"""CuPy CG on the matrix of `streamcfd bench --export-matrix DIR` (the reference of the PCG target,
docs/architecture.md §11).

Loads DIR/matrix.mtx and DIR/rhs.mtx (scipy.io.mmread), moves them to the GPU as a CuPy CSR matrix
(fp64 or fp32), and runs cupyx.scipy.sparse.linalg.cg with a Jacobi preconditioner M (a
LinearOperator applying 1/diag(A)), from x = 0: the algorithm of streamcfd's solvers::Pcg, so the
time per iteration compares like with like. Fixed iteration count (tolerance 0, as `streamcfd bench
--pcg-iterations K`) or a relative tolerance (as `--tolerance T`, same criterion |r| <= T |b|).
After one short warm-up solve it times --repeat solves with CUDA events and reports the fastest.

Prints one line and, with --json FILE, writes: matrix, unknowns, nonzeros, precision, device,
cupy, iterations, tolerance, relative_residual (true |b - A x| / |b| at exit), time_s,
time_per_iteration_s, unknown_iterations_per_s, times_s (every timed solve).

Needs numpy, scipy and, unless --dry-run, cupy (cupy-cuda13x on the GPU machine).
--dry-run loads and checks the matrix with SciPy only (square, symmetric, positive diagonal, rhs
size) and runs the same Jacobi-PCG on the CPU with scipy.sparse.linalg.cg, to check the script and
the files where there is no GPU.
"""
import argparse
import inspect
import json
import os
import sys
import time

import numpy as np
import scipy.io
import scipy.sparse
import scipy.sparse.linalg


def load(directory):
    a = scipy.sparse.csr_matrix(scipy.io.mmread(os.path.join(directory, "matrix.mtx")))
    b = np.asarray(scipy.io.mmread(os.path.join(directory, "rhs.mtx"))).ravel()
    if a.shape[0] != a.shape[1]:
        sys.exit(f"cupy_cg.py: matrix.mtx is {a.shape[0]}x{a.shape[1]}, not square")
    if b.shape[0] != a.shape[0]:
        sys.exit(f"cupy_cg.py: rhs.mtx has {b.shape[0]} rows, the matrix {a.shape[0]}")
    asym = abs(a - a.T).max() if a.nnz else 0.0
    if asym != 0:
        sys.exit(f"cupy_cg.py: matrix.mtx is not symmetric (max |A - A^T| = {asym:.3e})")
    diag = a.diagonal()
    if not np.all(diag > 0):
        sys.exit("cupy_cg.py: matrix.mtx has a diagonal entry <= 0 (Jacobi needs a positive one)")
    return a, b


def tolerance_keyword(cg):
    """SciPy >= 1.12 and recent CuPy call the relative tolerance rtol; older ones call it tol."""
    return "rtol" if "rtol" in inspect.signature(cg).parameters else "tol"


def solve_args(cg, args, iterations):
    return {tolerance_keyword(cg): args.tolerance, "atol": 0.0, "maxiter": iterations}


def dry_run(a_host, b_host, args):
    dtype = np.float64 if args.precision == "fp64" else np.float32
    a, b = a_host.astype(dtype), b_host.astype(dtype)
    counter = {"n": 0}

    def count(_):
        counter["n"] += 1

    d_inv = 1.0 / a.diagonal()
    m = scipy.sparse.linalg.LinearOperator(a.shape, matvec=lambda r: d_inv * r, dtype=a.dtype)
    cg = scipy.sparse.linalg.cg
    start = time.perf_counter()
    x, _ = cg(a, b, M=m, callback=count, **solve_args(cg, args, args.iterations))
    seconds = time.perf_counter() - start
    return {
        "device": "cpu (scipy, --dry-run)",
        "iterations": counter["n"],
        "relative_residual": float(np.linalg.norm(b - a @ x) / np.linalg.norm(b)),
        "time_s": seconds,
        "times_s": [seconds],
    }


def gpu_run(a_host, b_host, args):
    try:
        import cupy
        import cupyx.scipy.sparse
        import cupyx.scipy.sparse.linalg
    except ImportError as e:
        sys.exit(f"cupy_cg.py: {e} (the GPU run needs CuPy; --dry-run checks the files without it)")

    dtype = np.float64 if args.precision == "fp64" else np.float32
    a = cupyx.scipy.sparse.csr_matrix(a_host.astype(dtype))
    b = cupy.asarray(b_host.astype(dtype))
    d_inv = 1 / a.diagonal()
    m = cupyx.scipy.sparse.linalg.LinearOperator(a.shape, matvec=lambda r: d_inv * r, dtype=dtype)
    cg = cupyx.scipy.sparse.linalg.cg
    counter = {"n": 0}

    def count(_):
        counter["n"] += 1

    cg(a, b, M=m, **solve_args(cg, args, min(args.iterations, 3)))  # warm-up: kernels, handles
    cupy.cuda.Device().synchronize()
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    times = []
    for _ in range(args.repeat):
        counter["n"] = 0
        start.record()
        x, _ = cg(a, b, M=m, callback=count, **solve_args(cg, args, args.iterations))
        end.record()
        end.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, end) * 1e-3)
    residual = float(cupy.linalg.norm(b - a @ x) / cupy.linalg.norm(b))
    props = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)
    name = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
    return {
        "device": name,
        "cupy": cupy.__version__,
        "iterations": counter["n"],
        "relative_residual": residual,
        "time_s": min(times),
        "times_s": times,
    }


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("directory", help="folder with matrix.mtx and rhs.mtx (streamcfd bench --export-matrix)")
    p.add_argument("--precision", choices=["fp64", "fp32"], default="fp64")
    p.add_argument("--iterations", type=int, default=100,
                   help="CG iterations: exactly this many, or the cap with --tolerance (default 100)")
    p.add_argument("--tolerance", type=float, default=0.0,
                   help="stop at this relative residual instead of a fixed count")
    p.add_argument("--repeat", type=int, default=3, help="timed solves; the fastest is reported")
    p.add_argument("--json", metavar="FILE", help="write the results as JSON")
    p.add_argument("--dry-run", action="store_true",
                   help="no GPU: check the files and run the same PCG with SciPy on the CPU")
    args = p.parse_args()
    if args.iterations < 1 or args.repeat < 1 or not 0 <= args.tolerance < 1:
        p.error("--iterations and --repeat must be >= 1, --tolerance in [0, 1)")

    a, b = load(args.directory)
    result = dry_run(a, b, args) if args.dry_run else gpu_run(a, b, args)
    per_iteration = result["time_s"] / result["iterations"] if result["iterations"] else 0.0
    out = {
        "matrix": os.path.join(args.directory, "matrix.mtx"),
        "unknowns": a.shape[0],
        "nonzeros": int(a.nnz),
        "precision": args.precision,
        "tolerance": args.tolerance,
        **result,
        "time_per_iteration_s": per_iteration,
        "unknown_iterations_per_s": a.shape[0] / per_iteration if per_iteration > 0 else 0.0,
    }
    print(f"{out['device']}: {out['unknowns']} unknowns, {out['nonzeros']} nonzeros, "
          f"{args.precision}, {out['iterations']} iterations (relative residual "
          f"{out['relative_residual']:.2e}): {per_iteration * 1e3:.3f} ms/iteration, "
          f"{out['unknown_iterations_per_s']:.3g} unknown·iterations/s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
