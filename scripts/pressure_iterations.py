#!/usr/bin/env python3
"""Pressure-solve iterations under mesh refinement, Jacobi against AMG (docs/methods.md,
"Multigrid pressure solve"): runs ns-classical on the lid-driven cavity levels and the DFG 2D-1
cylinder levels from rest to a short time with each preconditioner and reports the pressure PCG
iterations per step (mean and largest, from the progress lines), as a table and as JSON.

    scripts/pressure_iterations.py [--end T] [--tolerance T] [--json FILE] [--bin PATH]

Meshes come from scripts/make-meshes.sh (cavity-3/4 and channel2d-cylinder-1..3 are made into
meshes/generated/ when missing). Runs on the cpu backend, one rank.
"""
import argparse
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROGRESS = re.compile(r"^step\s+\d+/\d+ .* \(momentum \d+, pressure (\d+)\)")


def mesh(name, level):
    committed = ROOT / "meshes" / f"{name}-{level}.msh"
    if committed.exists():
        return committed
    generated = ROOT / "meshes" / "generated" / f"{name}-{level}.msh"
    if not generated.exists():
        subprocess.run([str(ROOT / "scripts" / "make-meshes.sh"), "--levels", str(level), name],
                       check=True, stdout=subprocess.DEVNULL)
    return generated


def pressure_iterations(binary, case, mesh_file, preconditioner, end, tolerance):
    cmd = [binary, "run", str(ROOT / case), "--set", f"mesh.file={mesh_file}",
           "--set", "solver.backend=cpu", "--set", f"solver.preconditioner={preconditioner}",
           "--set", f"solver.pressure_tolerance={tolerance}", "--set", "output.interval=0",
           "--set", "output.directory=/tmp/scfd_pressure_iterations",
           "--set", f"time.end={end}"]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{out.stderr}")
    its = [int(m.group(1)) for line in out.stdout.splitlines() if (m := PROGRESS.match(line))]
    return {"mean": sum(its) / len(its), "max": max(its), "steps": len(its)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--end", type=float, default=0.5,
                        help="simulated time of each run (default 0.5: 25-80 steps)")
    parser.add_argument("--tolerance", type=float, default=1e-9)
    parser.add_argument("--json", type=pathlib.Path)
    parser.add_argument("--bin", default=str(ROOT / "build" / "src" / "app" / "streamcfd"))
    args = parser.parse_args()
    series = [("cavity", "cases/cavity2d/case.toml", [2, 3, 4]),
              ("channel2d-cylinder", "cases/cylinder2d/case.toml", [1, 2, 3])]
    results = []
    print(f"pressure PCG iterations per step, t = 0 to {args.end}, tolerance {args.tolerance}")
    print(f"{'mesh':26s} {'jacobi mean/max':>16s} {'amg mean/max':>14s}")
    for name, case, levels in series:
        for level in levels:
            m = mesh(name, level)
            row = {"mesh": f"{name}-{level}", "case": case}
            for p in ("jacobi", "amg"):
                row[p] = pressure_iterations(args.bin, case, m, p, args.end, args.tolerance)
            results.append(row)
            print(f"{row['mesh']:26s} {row['jacobi']['mean']:9.1f} / {row['jacobi']['max']:4d}"
                  f" {row['amg']['mean']:7.1f} / {row['amg']['max']:4d}")
    if args.json:
        args.json.write_text(json.dumps({"end": args.end, "tolerance": args.tolerance,
                                         "runs": results}, indent=1) + "\n")


if __name__ == "__main__":
    main()
