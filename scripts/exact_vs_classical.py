#!/usr/bin/env python3
"""ns-exact and ns-classical side by side on the same cases (issue 7's closing table).

For every case and both models: max |D U| over all steps, the largest deviation of the cavity
centrelines from Ghia, Ghia & Shin (1982) at the interior points of their table (2D; in 3D the
largest centreline difference of the model from ns-classical), the mean CG iterations per step
(ns-classical: momentum + pressure; ns-exact: the streamfunction solve) and the wall time per
step of the solve phase. Standard library only (runs on the GPU machines' bare Python).

  scripts/exact_vs_classical.py [--bin build/src/app/streamcfd] [--backend cpu|gl-compute]
      [--mesh2d meshes/generated/cavity-3.msh] [--cases re100,re1000,3d] [--out DIR]
      [--models ns-classical,ns-exact] [--json FILE] [--set KEY=VALUE ...]

Default cases: cavity Re 100 to t = 20 and Re 1000 to t = 60 on MESH2D (made by
scripts/make-meshes.sh --levels 3 cavity), the 3D cavity (cases/cavity3d, Re 100) to t = 10.
Prints a Markdown table; --json writes the rows. Exit status 1 when a run fails.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = {
    "re100": ("cases/cavity2d/case.toml", "100", ["fluid.reynolds=100", "time.end=20"]),
    "re1000": ("cases/cavity2d/case.toml", "1000", ["fluid.reynolds=1000", "time.end=60"]),
    "3d": ("cases/cavity3d/case.toml", None, ["time.end=10"]),
}
MODELS = ("ns-classical", "ns-exact")


def read_ghia(path, re):
    """Interior points of Ghia's table for one Re: (vertical?, coordinate along, value)."""
    points = []
    with open(path) as f:
        for row in csv.reader(line for line in f if line.strip() and not line.startswith("#")):
            if row[0] == "line" or row[1] != re:
                continue
            vertical = row[0] == "vertical"
            along = float(row[3] if vertical else row[2])
            if 0 < along < 1:
                points.append((vertical, along, float(row[5])))
    return points


def profile(path, along, comp):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return [(float(r[along]), float(r[comp])) for r in rows]


def at(p, x):
    for (x0, y0), (x1, y1) in zip(p, p[1:]):
        if x <= x1:
            w = (x - x0) / (x1 - x0)
            return (1 - w) * y0 + w * y1
    return p[-1][1]


def run(args, name, case, sets, model):
    out = os.path.join(args.out, f"{name}-{model}")
    cmd = [args.bin, "run", os.path.join(ROOT, case), "--quiet", "--set", f"output.directory={out}",
           "--set", f"physics.model={model}", "--set", f"solver.backend={args.backend}"]
    for s in sets + args.set:
        cmd += ["--set", s]
    start = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        print(f"{name} {model}: FAILED ({' '.join(cmd)})\n{r.stderr}", file=sys.stderr)
        return None
    with open(os.path.join(out, f"{model}_summary.json")) as f:
        d = json.load(f)
    fig = d["figures"]
    return {
        "case": name, "model": model, "backend": d.get("backend", args.backend),
        "backend_detail": d.get("backend_detail", ""),
        "cells": d["mesh"]["cells"], "steps": d["steps"],
        "max_div_all_steps": fig["max_div_all_steps"],
        "cg_iterations_per_step": d["solver"]["iterations_mean"],
        "ms_per_step": 1000 * d["seconds"]["solve"] / d["steps"],
        "wall_seconds": time.time() - start,
        "lines": os.path.join(out, "lines"),
    }


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin", default=os.path.join(ROOT, "build/src/app/streamcfd"))
    p.add_argument("--backend", default="cpu")
    p.add_argument("--mesh2d", default=os.path.join(ROOT, "meshes/generated/cavity-3.msh"))
    p.add_argument("--cases", default="re100,re1000,3d")
    p.add_argument("--out", default=os.path.join(ROOT, "build-validation/exact-vs-classical"))
    p.add_argument("--models", default=",".join(MODELS))
    p.add_argument("--json")
    p.add_argument("--set", action="append", default=[], help="extra KEY=VALUE for every run")
    args = p.parse_args(argv)
    rows, failed = [], False
    for name in args.cases.split(","):
        case, re, sets = CASES[name]
        if re is not None:
            sets = sets + [f"mesh.file={os.path.abspath(args.mesh2d)}"]
        by_model = {}
        for model in args.models.split(","):
            row = run(args, name, case, sets, model)
            if row is None:
                failed = True
                continue
            by_model[model] = row
            rows.append(row)
        for model, row in by_model.items():
            if re is not None:
                u = profile(os.path.join(row["lines"], "vertical.csv"), "y", "u")
                v = profile(os.path.join(row["lines"], "horizontal.csv"), "x", "v")
                ghia = read_ghia(os.path.join(ROOT, "cases/cavity2d/ghia1982.csv"), re)
                row["ghia_max_deviation"] = max(abs(at(u if vert else v, x) - val)
                                                for vert, x, val in ghia)
            elif "ns-classical" in by_model:
                ref = profile(os.path.join(by_model["ns-classical"]["lines"], "vertical.csv"), "y", "u")
                mine = profile(os.path.join(row["lines"], "vertical.csv"), "y", "u")
                row["centreline_vs_classical"] = max(abs(a[1] - b[1]) for a, b in zip(mine, ref))
    print(f"| case | model | backend | cells | steps | max abs(DU), all steps | centreline error "
          f"| CG it/step | ms/step |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        err = (f"{r['ghia_max_deviation']:.4f} vs Ghia" if "ghia_max_deviation" in r else
               f"{r.get('centreline_vs_classical', float('nan')):.1e} vs classical")
        print(f"| {r['case']} | {r['model']} | {r['backend']} | {r['cells']} | {r['steps']} "
              f"| {r['max_div_all_steps']:.1e} | {err} | {r['cg_iterations_per_step']:.0f} "
              f"| {r['ms_per_step']:.1f} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"bin": args.bin, "backend": args.backend, "rows": rows}, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
