#!/usr/bin/env python3
"""As ../h200-2026-11-29-windows/windows.py, for both builds (g7: the guesses weighted by the step
times; g5: equal steps assumed): per-step means over windows of simulated time and of steps 5-40,
ms per step ns-exact / ns-classical = ratio, and the mean iterations (ns-exact's stream; ns-classical's
momentum + pressure). Run in this folder: python3 windows.py"""
import csv


def rows(name):
    with open(f"runs/{name}-steps.csv") as f:
        return [{k: float(v) if v else 0.0 for k, v in r.items()} for r in csv.DictReader(f)]


def mean(xs):
    return sum(xs) / len(xs)


windows = [(f"t <= {t}", lambda r, t=t: r["t"] <= t + 1e-9) for t in (0.1, 0.5, 1.0)]
windows.append(("steps 5-40", lambda r: 5 <= r["step"] <= 40))
for mesh in ("49", "289"):
    for build in ("g7", "g5"):
        for run in "abc":
            x, c = rows(f"{build}-x{mesh}-{run}"), rows(f"{build}-c{mesh}-{run}")
            cells = []
            for label, keep in windows:
                xs, cs = [r for r in x if keep(r)], [r for r in c if keep(r)]
                xm, cm = mean([r["ms"] for r in xs]), mean([r["ms"] for r in cs])
                cells.append(f"{label}: {xm:.2f} / {cm:.2f} = {xm / cm:.2f}, "
                             f"{mean([r['iterations'] for r in xs]):.2f} it / "
                             f"{mean([r['momentum'] for r in cs]):.2f} + "
                             f"{mean([r['pressure'] for r in cs]):.2f}")
            print(f"{mesh}k {build} {run}  " + " | ".join(cells))
