#!/usr/bin/env python3
"""Shows that a change leaves every result of streamcfd unchanged (docs/architecture.md,
"Refactors").

  scripts/same_results.py run BINARY DIR [--backends cpu,gl-compute] [--ranks 1,2,3]
  scripts/same_results.py diff DIR_BEFORE DIR_AFTER [--common]

`run` runs a fixed set of short cases (heat, ns-classical and ns-exact in 2D and 3D, with
probes, lines, forces and exact solutions) with BINARY on every backend and rank count given,
and writes DIR/results.json: per run, every figure of the summary, the step count and solver
iterations, the progress lines without their wall times, and the SHA-256 of every CSV and VTU
file written. `diff` compares two such files and exits 1 when anything differs (numbers are
compared bit for bit: a refactor that must not change results must not change one bit); for a
.vtu file that differs it prints, per array, the largest change against the largest value.

Typical use: build the old commit, `run` into /tmp/before; build the new one, `run` into
/tmp/after; `diff /tmp/before /tmp/after`.
"""
import argparse
import hashlib
import json
import os
import re
import struct
import subprocess
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (name, case file, overrides): short runs that still reach every code path that writes a number.
CASES = [
    ("heat-square", "cases/heat-square/case.toml", []),
    ("heat-cube", "cases/heat-cube/case.toml", ["time.end=0.02"]),
    ("heat-part", "cases/heat-part/case.toml", []),
    ("cavity2d-classical", "cases/cavity2d/case.toml", ["time.end=0.3"]),
    ("cavity2d-exact", "cases/cavity2d/case.toml",
     ["time.end=0.3", "physics.model=\"ns-exact\"", "probes.pressure=true"]),
    ("cylinder2d-classical", "cases/cylinder2d/case.toml", ["time.end=0.15"]),
    ("cylinder2d-exact", "cases/cylinder2d/case.toml",
     ["time.end=0.15", "physics.model=\"ns-exact\""]),
    ("poiseuille2d-classical", "cases/poiseuille2d/case.toml", ["time.end=0.5"]),
    ("poiseuille2d-exact", "cases/poiseuille2d/case.toml",
     ["time.end=0.5", "physics.model=\"ns-exact\""]),
    ("taylor-green2d-exact", "cases/taylor-green2d/case.toml",
     ["time.end=0.1", "physics.model=\"ns-exact\""]),
    ("kovasznay-classical", "cases/kovasznay/case.toml", ["time.end=0.5"]),
    ("cavity3d-classical", "cases/cavity3d/case.toml", ["time.end=0.03"]),
    ("cavity3d-exact", "cases/cavity3d/case.toml",
     ["time.end=0.03", "physics.model=\"ns-exact\"", "probes.pressure=true"]),
    ("cylinder3d-classical", "cases/cylinder3d/case.toml", ["time.end=0.01"]),
    ("cylinder3d-exact", "cases/cylinder3d/case.toml",
     ["time.end=0.01", "physics.model=\"ns-exact\""]),
]

# Wall times and estimates in a progress line: "4.4 ms/step  ETA 13.1 ms" or "... done".
TIMING = re.compile(r"\s+[0-9.]+ (µs|ms|s|min|h)/step\s+(ETA [0-9.]+ (µs|ms|s|min|h)|done)\s*$")


def sha(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run_one(binary, name, case, overrides, backend, ranks, out_root):
    out = out_root / f"{name}.{backend}.np{ranks}"
    out.mkdir(parents=True, exist_ok=True)
    args = [str(binary), "run", str(ROOT / case), "--set", f"solver.backend=\"{backend}\"",
            "--set", f"output.directory=\"{out}\""]
    for o in overrides:
        args += ["--set", o]
    if ranks > 1:
        args = ["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", str(ranks)] + args
    p = subprocess.run(args, capture_output=True, text=True, env=os.environ)
    record = {"exit": p.returncode}
    if p.returncode != 0:
        record["stderr"] = p.stderr[-2000:]
        return record
    record["steps"] = [TIMING.sub("", line) for line in p.stdout.splitlines()
                       if line.startswith("step ")]
    summary = next(out.glob("*_summary.json"))
    s = json.loads(summary.read_text())
    record["figures"] = {k: repr(v) for k, v in s["figures"].items()}
    record["solver"] = {k: repr(v) for k, v in s["solver"].items()}
    record["files"] = {str(f.relative_to(out)): sha(f)
                       for f in sorted(out.rglob("*")) if f.suffix in (".csv", ".vtu")}
    return record


def cmd_run(a):
    out_root = Path(a.dir).resolve()
    out_root.mkdir(parents=True, exist_ok=True)
    results = {}
    for name, case, overrides in CASES:
        for backend in a.backends.split(","):
            for ranks in [int(r) for r in a.ranks.split(",")]:
                key = f"{name} {backend} np{ranks}"
                results[key] = run_one(Path(a.binary).resolve(), name, case, overrides, backend,
                                       ranks, out_root / "runs")
                ok = "ok" if results[key]["exit"] == 0 else f"exit {results[key]['exit']}"
                print(f"{key:<44} {ok}", flush=True)
    (out_root / "results.json").write_text(json.dumps(results, indent=1, sort_keys=True))
    print(f"written: {out_root / 'results.json'} ({len(results)} runs)")
    return 0


def vtu_arrays(path):
    """The Float64 arrays of a streamcfd .vtu file (VTK XML, appended raw data, zlib, UInt64
    headers), by name."""
    data = path.read_bytes()
    start = data.index(b"<AppendedData")
    raw = data[data.index(b"_", start) + 1:]
    arrays = {}
    for m in re.finditer(rb'<DataArray type="Float64" Name="([^"]+)"[^>]*offset="\s*(\d+)', data[:start]):
        pos = int(m.group(2))
        blocks = struct.unpack_from("<Q", raw, pos)[0]
        sizes = struct.unpack_from(f"<{3 + blocks}Q", raw, pos)[3:]
        pos += 8 * (3 + blocks)
        payload = b""
        for size in sizes:
            payload += zlib.decompress(raw[pos:pos + size])
            pos += size
        arrays[m.group(1).decode()] = struct.unpack(f"<{len(payload) // 8}d", payload)
    return arrays


def explain_vtu(before_dir, after_dir, run, name):
    """One line per array that differs: its largest change against its largest value."""
    folder = run.replace(" np", ".np").replace(" ", ".")
    b = vtu_arrays(Path(before_dir) / "runs" / folder / name)
    c = vtu_arrays(Path(after_dir) / "runs" / folder / name)
    for array in sorted(set(b) | set(c)):
        x, y = b.get(array, ()), c.get(array, ())
        if x == y:
            if struct.pack(f"<{len(x)}d", *x) != struct.pack(f"<{len(y)}d", *y):
                print(f"    {array}: the same values; only signs of zeros differ")
            continue
        if len(x) != len(y):
            print(f"    {array}: {len(x)} -> {len(y)} values")
            continue
        change = max(abs(p - q) for p, q in zip(x, y))
        size = max(max(abs(p) for p in x), 1e-300)
        print(f"    {array}: max |change| {change:.3g}, max |value| {size:.3g} "
              f"(relative {change / size:.2g})")


def cmd_diff(a):
    before = json.loads((Path(a.before) / "results.json").read_text())
    after = json.loads((Path(a.after) / "results.json").read_text())
    differences = 0
    keys = set(before) & set(after) if a.common else set(before) | set(after)
    for key in sorted(keys):
        if key not in before or key not in after:
            print(f"{key}: only in {'after' if key not in before else 'before'}")
            differences += 1
            continue
        b, c = before[key], after[key]
        for part in sorted(set(b) | set(c)):
            if b.get(part) == c.get(part):
                continue
            differences += 1
            if isinstance(b.get(part), dict) and isinstance(c.get(part), dict):
                for k in sorted(set(b[part]) | set(c[part])):
                    if b[part].get(k) != c[part].get(k):
                        print(f"{key}: {part}.{k}: {b[part].get(k)} -> {c[part].get(k)}")
                        if part == "files" and k.endswith(".vtu") and k in b[part] and k in c[part]:
                            explain_vtu(a.before, a.after, key, k)
            else:
                print(f"{key}: {part} differs")
    runs = len(set(before) & set(after))
    figures = sum(len(before[k].get("figures", {})) for k in set(before) & set(after))
    files = sum(len(before[k].get("files", {})) for k in set(before) & set(after))
    print(f"{runs} runs, {figures} figures, {files} files compared: "
          f"{'identical' if differences == 0 else f'{differences} differences'}")
    return 0 if differences == 0 else 1


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="run the case set with one binary")
    r.add_argument("binary")
    r.add_argument("dir")
    r.add_argument("--backends", default="cpu,gl-compute")
    r.add_argument("--ranks", default="1,2,3")
    d = sub.add_parser("diff", help="compare two result folders")
    d.add_argument("before")
    d.add_argument("after")
    d.add_argument("--common", action="store_true",
                   help="compare only the runs both folders have (a quick check on a subset)")
    a = p.parse_args()
    return cmd_run(a) if a.command == "run" else cmd_diff(a)


if __name__ == "__main__":
    sys.exit(main())
