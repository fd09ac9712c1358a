#!/usr/bin/env python3
"""Strong and weak scaling studies of streamcfd (docs/scaling.md).

  scripts/scaling.py strong CASE --ranks 1 2 4 [options]
  scripts/scaling.py weak CASE --ranks 1 2 4 --cells-per-rank 500000 [options]
  scripts/scaling.py plot DIR [--kind strong|weak]

`strong` runs the same case on every rank count; `weak` gives every run about the same number of
cells per rank by setting `mesh.divisions` (the case must use `[mesh] generate`). Each run is

  MPIRUN -np N BINARY run CASE --quiet --set output.directory=DIR/npN --set ... (your --set)

and writes its summary JSON there. Then, and by `plot` on a folder of earlier runs, the script
writes DIR/scaling.csv (one row per run: time per step, speed-up, parallel efficiency, time per
unknown, partition quality, halo figures, peak memory) and DIR/scaling.png (time per step,
speed-up, efficiency and core time per unknown and step, each with its ideal line).

Time per step is the summary's `solve` phase (rank 0) over its steps: no mesh reading, set-up or
output. Strong: speed-up S = r0 t0 / t (r0, t0: the run with the fewest ranks), efficiency S / r.
Weak: the cell counts differ slightly from the target (divisions are integers), so efficiency
compares time per step and owned cell: (t0 / c0) / (t / c), c = cells per rank.
"""
import argparse
import csv
import json
import math
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BINARY = ROOT / "build" / "src" / "app" / "streamcfd"
CELLS_PER_BOX = {"cube": 6, "square": 2}  # Kuhn tetrahedra per grid cube, triangles per square

COLUMNS = [
    "ranks", "cells", "cells_per_rank", "steps", "iterations_mean", "seconds_per_step",
    "speedup", "efficiency", "ideal_speedup", "core_us_per_cell_step", "edge_cut", "cut_fraction",
    "imbalance", "halo_comm_seconds", "halo_wait_seconds", "hidden_fraction",
    "halo_wait_max_seconds", "peak_rank0_mb", "peak_others_max_mb", "backend", "mesh", "summary",
]


def fail(message):
    print(f"scaling.py: error: {message}", file=sys.stderr)
    sys.exit(2)


def weak_divisions(case, cells_per_rank, ranks):
    """The divisions [n, n(, n)] whose generated mesh has about cells_per_rank * ranks cells."""
    try:
        with open(case, "rb") as f:
            shape = tomllib.load(f).get("mesh", {}).get("generate")
    except (OSError, tomllib.TOMLDecodeError) as e:
        fail(f"{case}: {e}")
    if shape not in CELLS_PER_BOX:
        fail(f"{case}: a weak study needs [mesh] generate = \"cube\" or \"square\"")
    dim = 3 if shape == "cube" else 2
    n = max(1, round((cells_per_rank * ranks / CELLS_PER_BOX[shape]) ** (1 / dim)))
    return [n] * dim


def run_study(args):
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    binary = Path(args.binary)
    if not binary.exists():
        fail(f"{binary}: no such binary (build first, or give --binary)")
    for r in args.ranks:
        sets = list(args.set)
        if args.kind == "weak":
            n = weak_divisions(args.case, args.cells_per_rank, r)
            sets.append("mesh.divisions=[" + ",".join(map(str, n)) + "]")
        run_dir = out / f"np{r}"
        command = shlex.split(args.mpirun) + ["-np", str(r), str(binary), "run", args.case,
                                               "--quiet", "--set", f"output.directory={run_dir}"]
        for s in sets:
            command += ["--set", s]
        print("scaling.py:", shlex.join(command), flush=True)
        done = subprocess.run(command)
        if done.returncode != 0:
            fail(f"the run on {r} ranks exited with {done.returncode}")
    return out


def read_runs(folder):
    runs = []
    for path in sorted(Path(folder).glob("**/*_summary.json")):
        with open(path) as f:
            s = json.load(f)
        steps = s.get("steps", 0)
        if steps <= 0 or s.get("status") != "completed":
            print(f"scaling.py: skipping {path} (status {s.get('status')}, {steps} steps)")
            continue
        seconds = s["seconds"]
        part, halo, memory = s.get("partition", {}), s.get("halo", {}), s.get("memory", {})
        ranks = s["ranks"]
        runs.append({
            "ranks": ranks,
            "cells": s["mesh"]["cells"],
            "cells_per_rank": s["mesh"]["cells"] / ranks,
            "steps": steps,
            "iterations_mean": s["solver"]["iterations_mean"],
            "seconds_per_step": seconds["solve"] / steps,
            "edge_cut": part.get("edge_cut", ""),
            "cut_fraction": part.get("cut_fraction", ""),
            "imbalance": part.get("imbalance", ""),
            "halo_comm_seconds": halo.get("comm_seconds", ""),
            "halo_wait_seconds": halo.get("wait_seconds", ""),
            "hidden_fraction": halo.get("hidden_fraction", ""),
            "halo_wait_max_seconds": seconds.get("halo_wait_ranks", {}).get("max", ""),
            "peak_rank0_mb": memory.get("peak_rank0_bytes", 0) / 2**20,
            "peak_others_max_mb": memory.get("peak_others_max_bytes", 0) / 2**20,
            "backend": s["backend"],
            "mesh": s["mesh"]["file"],
            "summary": str(path),
        })
    if not runs:
        fail(f"{folder}: no completed run summaries (*_summary.json) below it")
    runs.sort(key=lambda r: r["ranks"])
    return runs


def add_scaling(runs, kind):
    base = runs[0]
    for r in runs:
        r["core_us_per_cell_step"] = 1e6 * r["seconds_per_step"] * r["ranks"] / r["cells"]
        if kind == "strong":  # S = r0 t0 / t, ideal r
            r["speedup"] = base["ranks"] * base["seconds_per_step"] / r["seconds_per_step"]
            r["efficiency"] = r["speedup"] / r["ranks"]
            r["ideal_speedup"] = r["ranks"]
        else:  # scaled speed-up: efficiency r / r0, ideal r / r0
            per_cell = r["seconds_per_step"] / r["cells_per_rank"]
            r["efficiency"] = (base["seconds_per_step"] / base["cells_per_rank"]) / per_cell
            r["speedup"] = r["efficiency"] * r["ranks"] / base["ranks"]
            r["ideal_speedup"] = r["ranks"] / base["ranks"]


def write_csv(runs, path):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        for r in runs:
            w.writerow({k: (f"{v:.6g}" if isinstance(v, float) else v) for k, v in r.items()})


def plot(runs, kind, path, title):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("scaling.py: matplotlib is missing (apt-get install python3-matplotlib); no plot")
        return False
    ranks = [r["ranks"] for r in runs]
    fig, ax = plt.subplots(2, 2, figsize=(8, 6), dpi=80)
    panels = [
        (ax[0][0], "seconds_per_step", "time per step (s)", None),
        (ax[0][1], "speedup", "scaled speed-up" if kind == "weak" else "speed-up", "ideal_speedup"),
        (ax[1][0], "efficiency", "parallel efficiency", 1.0),
        (ax[1][1], "core_us_per_cell_step", "core-µs per cell and step", None),
    ]
    for a, key, label, ideal in panels:
        a.plot(ranks, [r[key] for r in runs], "o-", label="measured")
        if key == "seconds_per_step":
            base = runs[0]
            ideal_t = [base["seconds_per_step"] * (base["ranks"] / n if kind == "strong" else
                                                   r["cells_per_rank"] / base["cells_per_rank"])
                       for n, r in zip(ranks, runs)]
            a.plot(ranks, ideal_t, "k--", label="ideal")
        elif key == "core_us_per_cell_step":
            a.plot(ranks, [runs[0][key]] * len(runs), "k--", label="ideal")
        elif isinstance(ideal, str):
            a.plot(ranks, [r[ideal] for r in runs], "k--", label="ideal")
        else:
            a.plot(ranks, [ideal] * len(runs), "k--", label="ideal")
        a.set_xlabel("ranks")
        a.set_ylabel(label)
        a.set_xticks(ranks)
        a.grid(alpha=0.3)
        a.legend(fontsize=8)
    ax[1][0].set_ylim(0, max(1.1, max(r["efficiency"] for r in runs) * 1.05))
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return True


def report(folder, kind, title):
    runs = read_runs(folder)
    add_scaling(runs, kind)
    csv_path, png_path = Path(folder) / "scaling.csv", Path(folder) / "scaling.png"
    write_csv(runs, csv_path)
    first = runs[0]
    title = title or f"{kind} scaling: {first['mesh']}, {first['backend']}"
    plotted = plot(runs, kind, png_path, title)
    print(f"{'ranks':>5} {'cells':>9} {'s/step':>9} {'speed-up':>8} {'eff':>5} {'hidden':>6} "
          f"{'cut %':>6} {'imbal':>6} {'rank0 MB':>8} {'others MB':>9}")
    for r in runs:
        cut = 100 * r["cut_fraction"] if r["cut_fraction"] != "" else math.nan
        hidden = r["hidden_fraction"] if r["hidden_fraction"] != "" else math.nan
        imbalance = r["imbalance"] if r["imbalance"] != "" else math.nan
        print(f"{r['ranks']:>5} {r['cells']:>9} {r['seconds_per_step']:>9.4g} "
              f"{r['speedup']:>8.3f} {r['efficiency']:>5.2f} {hidden:>6.2f} {cut:>6.2f} "
              f"{imbalance:>6.3f} {r['peak_rank0_mb']:>8.0f} {r['peak_others_max_mb']:>9.0f}")
    print(f"scaling.py: wrote {csv_path}" + (f" and {png_path}" if plotted else ""))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    for kind in ("strong", "weak"):
        s = sub.add_parser(kind, help=f"run a {kind} scaling study and plot it")
        s.add_argument("case", help="case file (.toml)")
        s.add_argument("--ranks", type=int, nargs="+", required=True, help="rank counts")
        if kind == "weak":
            s.add_argument("--cells-per-rank", type=float, required=True,
                           help="target cells per rank (the case must use [mesh] generate)")
        s.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                       help="case-file override for every run (repeatable)")
        s.add_argument("--out", default=f"scaling-{kind}", help="folder of the runs and plots")
        s.add_argument("--mpirun", default="mpirun",
                       help="launcher and its options, e.g. 'mpirun --oversubscribe'")
        s.add_argument("--binary", default=str(DEFAULT_BINARY), help="the streamcfd binary")
        s.add_argument("--title", default="", help="plot title")
    s = sub.add_parser("plot", help="re-plot the summaries below a folder")
    s.add_argument("folder")
    s.add_argument("--kind", choices=["strong", "weak"], default="strong")
    s.add_argument("--title", default="", help="plot title")
    args = p.parse_args()

    if args.command == "plot":
        report(args.folder, args.kind, args.title)
        return
    args.kind = args.command
    if any(r < 1 for r in args.ranks):
        fail("--ranks: every rank count must be >= 1")
    report(run_study(args), args.kind, args.title)


if __name__ == "__main__":
    main()
