#!/usr/bin/env python3
"""Per-step means of runs/*-steps.csv (from the runs' progress lines) over windows of the same
simulated time (t <= T) and of the same steps (5-40): ms per step, ns-exact / ns-classical, and
ns-exact's stream iterations per step. Run in this folder: python3 windows.py"""
import csv


def rows(name):
    with open(f"runs/{name}-steps.csv") as f:
        return [{k: float(v) if v else 0.0 for k, v in r.items()} for r in csv.DictReader(f)]


def mean(xs):
    return sum(xs) / len(xs)


for mesh in ("49", "289"):
    for run in "abc":
        x, c = rows(f"x{mesh}-{run}"), rows(f"c{mesh}-{run}")
        cells = []
        windows = [(f"t <= {t}", lambda r, t=t: r["t"] <= t + 1e-9) for t in (0.1, 0.5, 1.0)]
        windows.append(("steps 5-40", lambda r: 5 <= r["step"] <= 40))
        for label, keep in windows:
            xs, cs = [r for r in x if keep(r)], [r for r in c if keep(r)]
            xm, cm = mean([r["ms"] for r in xs]), mean([r["ms"] for r in cs])
            its = mean([r["iterations"] for r in xs])
            cells.append(f"{label}: {xm:.2f} / {cm:.2f} = {xm / cm:.2f}, {its:.2f} it")
        print(f"{mesh}k {run}  " + " | ".join(cells))
