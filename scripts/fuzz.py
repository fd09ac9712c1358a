#!/usr/bin/env python3
"""Hostile input for streamcfd: damaged meshes, case files and checkpoints, as a careless or
unlucky user makes them. Every input must end in a verdict the user can act on:

  exit 0 (the input was good enough), exit 2 with one line "streamcfd: error: ..." (bad input),
  or exit 1 with one line (a run that started and failed; its state is on disk).

Anything else is a fault and is kept for reproduction: a crash (exit 3 or 4, a signal), a hang
(the time limit), a message of more than one line, or, for checkpoints, a silently wrong run (exit
0 with other results than the undamaged checkpoint gives).

  scripts/fuzz.py meshes 10000      # mutated Gmsh files (text and binary, v2.2 and v4.1):
                                    # `info`, then a heat and an ns-classical run on the survivors
  scripts/fuzz.py cases 150         # mutated case files, each run for real (short cases)
  scripts/fuzz.py checkpoints 500   # damaged checkpoints of heat and ns-classical runs, restarted
  options: --binary PATH (build/src/app/streamcfd), --jobs N (CPU count), --seed S (1),
           --out DIR (fuzz-out): DIR/report-KIND.json and DIR/faults/ with each fault's input

The same seed gives the same inputs. docs/restart.md lists what the last full run found.
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOSTILE_NUMBERS = [b"0", b"-1", b"1", b"-0", b"3.5", b"1e308", b"-1e308", b"1e-320", b"nan",
                   b"inf", b"-inf", b"2147483647", b"2147483648", b"-2147483649",
                   b"9223372036854775808", b"99999999999999999999", b"0x10", b"", b"x", b"1e",
                   b"--1", b"+", b"1.#INF"]
HOSTILE_VALUES = ["nan", "inf", "-inf", "-1", "0", "1e308", "-1e308", "1e-308", "2147483648",
                  "9223372036854775807", '""', '"x"', '"\\u0000"', '"\\u001b[31m red"', "true",
                  "[]", "[1, 2, 3]", "[[1], [2]]", "{a = 1}", '"1/0"', '"x^x^x^x^x^x^x^x"',
                  '"' + "(" * 400 + "x" + ")" * 400 + '"', '"' + "a" * 100000 + '"',
                  '"log(-1)"', '"sqrt(x) * y"', '"t/0"', '"sin("', "1979-05-27", "0.0",
                  '"../../../../../etc/passwd"', '"/dev/zero"', '"/"', '"line\\nbreak"']
TIMEOUT = 120


def run(args, cwd=None, timeout=TIMEOUT):
    try:
        p = subprocess.run(args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout, stdin=subprocess.DEVNULL)
        return p.returncode, p.stderr.decode("utf-8", "replace"), False
    except subprocess.TimeoutExpired as e:
        return None, (e.stderr or b"").decode("utf-8", "replace"), True


def verdict(rc, err, timed_out):
    """'ok', 'refused' or 'failed' (the answers a user can act on), or the fault."""
    if timed_out:
        return "hang"
    if rc is None or rc < 0 or rc >= 128 or rc in (3, 4):
        return "crash"
    lines = [line for line in err.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("streamcfd: error:")]
    others = [line for line in lines
              if not line.startswith("warning:") and not line.startswith("streamcfd: error:")]
    if others or len(errors) > 1:
        return "multi_line"
    if rc == 0:
        return "ok" if not errors else "multi_line"
    if rc in (1, 2) and len(errors) == 1:
        return "refused" if rc == 2 else "failed"
    return "crash"


# ---------------------------------------------------------------------------------------------
# Meshes

MESH_SEEDS = ["meshes/square-1.msh", "meshes/cavity-1.msh", "meshes/cube-1.msh",
              "tests/data/gmsh/square-msh22.msh", "tests/data/gmsh/square-msh22-bin.msh",
              "tests/data/gmsh/square-msh41-bin.msh", "tests/data/gmsh/cube-msh41.msh",
              "tests/data/gmsh/cube-msh22-bin.msh"]


def mutate_mesh(data, rng):
    lines = data.split(b"\n")
    kind = rng.randrange(10)
    if kind == 0:  # flip bytes
        b = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        return bytes(b)
    if kind == 1 and len(lines) > 2:  # delete a line
        del lines[rng.randrange(len(lines))]
    elif kind == 2:  # duplicate a line
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
    elif kind == 3:  # replace a number
        i = rng.randrange(len(lines))
        tokens = lines[i].split(b" ")
        j = rng.randrange(len(tokens))
        tokens[j] = rng.choice(HOSTILE_NUMBERS)
        lines[i] = b" ".join(tokens)
    elif kind == 4:  # truncate
        return data[:rng.randrange(len(data))]
    elif kind == 5 and len(lines) > 2:  # swap two lines
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == 6:  # random bytes inserted
        i = rng.randrange(len(data))
        return data[:i] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 64))) + data[i:]
    elif kind == 7:  # a section name changed or an end marker dropped
        sections = [i for i, line in enumerate(lines) if line.startswith(b"$")]
        if sections:
            i = rng.choice(sections)
            lines[i] = rng.choice([b"", lines[i] + b"x", lines[i][:-1], b"$EndNodes",
                                   b"$Elements", b"$PhysicalNames"])
    elif kind == 8:  # a physical name changed
        names = [i for i, line in enumerate(lines) if line.count(b'"') == 2]
        if names:
            i = rng.choice(names)
            head = lines[i].split(b'"')[0]
            lines[i] = head + b'"' + rng.choice([b"", b"a b", b"a.b", b"\xff\xfe", b"it's",
                                                  b"x" * 5000, b"\t", b"walls"]) + b'"'
    else:  # a node coordinate scaled
        i = rng.randrange(len(lines))
        tokens = lines[i].split(b" ")
        j = rng.randrange(len(tokens))
        try:
            tokens[j] = repr(float(tokens[j]) * rng.choice([0, -1, 1e-12, 1e12, 1.000001])).encode()
        except ValueError:
            pass
        lines[i] = b" ".join(tokens)
    return b"\n".join(lines)


def mesh_runs(binary, mesh, work):
    """The heat and ns-classical runs of a mesh that `info` accepted: first patch hot (heat) or
    moving (ns), the others cold or walls."""
    p = subprocess.run([binary, "info", "--json", str(mesh)], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, timeout=60)
    try:
        info = json.loads(p.stdout)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return []
    patches = [p["name"] for p in info.get("patches", [])]
    runs = []
    for model in ("heat", "ns-classical"):
        text = f"[mesh]\nfile = {json.dumps(str(mesh))}\n[physics]\nmodel = \"{model}\"\n"
        for i, name in enumerate(patches):
            key = json.dumps(name)
            if model == "heat":
                text += f"[boundary.{key}]\ntype = \"temperature\"\nvalue = {1 if i == 0 else 0}\n"
            else:
                text += (f"[boundary.{key}]\ntype = \"moving-wall\"\nvelocity_x = 1\n" if i == 0
                         else f"[boundary.{key}]\ntype = \"wall\"\n")
        if model == "heat":
            text += "[time]\nmode = \"transient\"\ndt = 0.01\nsteps = 2\n"
        else:
            text += "[fluid]\nreynolds = 100\n[time]\ndt = 0.001\nsteps = 2\n"
        case = work / f"{model}.toml"
        case.write_text(text)
        runs.append([binary, "run", str(case), "--set", "solver.backend=cpu", "--set",
                     f"output.directory={json.dumps(str(work / 'out'))}"])
    return runs


def mesh_trial(binary, seed, index, work_root):
    rng = random.Random(seed * 1_000_003 + index)
    source = ROOT / rng.choice(MESH_SEEDS)
    data = source.read_bytes()
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        data = mutate_mesh(data, rng)
    work = Path(tempfile.mkdtemp(dir=work_root))
    mesh = work / "mesh.msh"
    mesh.write_bytes(data)
    results = []
    rc, err, hung = run([binary, "info", str(mesh)], timeout=60)
    results.append(("info", verdict(rc, err, hung), err, [binary, "info", str(mesh)]))
    if rc == 0:
        for args in mesh_runs(binary, mesh, work):
            rc, err, hung = run(args)
            results.append((Path(args[2]).stem, verdict(rc, err, hung), err, args))
    return index, source.name, work, results


# ---------------------------------------------------------------------------------------------
# Case files

CASE_SEEDS = [("cases/heat-square/case.toml", []),
              ("cases/heat-cube/case.toml", []),
              ("cases/cavity2d/case.toml", [("end = 20", "end = 0.1")]),
              ("cases/taylor-green2d/case.toml", []),
              ("cases/cylinder2d/case.toml", []),
              ("cases/poiseuille2d/case.toml", [])]


def case_text(path, edits):
    text = (ROOT / path).read_text()
    for old, new in edits:
        text = text.replace(old, new)
    folder = (ROOT / path).parent
    # Mesh paths made absolute, so the mutated file can live elsewhere.
    return re.sub(r'(file\s*=\s*")([^"]+)"',
                  lambda m: m.group(1) + str((folder / m.group(2)).resolve()) + '"', text)


def mutate_case(text, rng):
    lines = text.split("\n")
    values = [i for i, line in enumerate(lines) if "=" in line and not line.startswith("#")]
    headers = [i for i, line in enumerate(lines) if line.startswith("[")]
    kind = rng.randrange(8)
    if kind in (0, 1, 2) and values:  # a value made hostile (most faults live here)
        i = rng.choice(values)
        key = lines[i].split("=")[0]
        lines[i] = key + "= " + rng.choice(HOSTILE_VALUES)
    elif kind == 3 and values:  # a key misspelt or dropped
        i = rng.choice(values)
        if rng.random() < 0.5:
            key, value = lines[i].split("=", 1)
            key = key.strip()
            k = rng.randrange(len(key))
            lines[i] = key[:k] + key[k + 1:] + " =" + value
        else:
            del lines[i]
    elif kind == 4 and lines:  # a line repeated (a key defined twice)
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
    elif kind == 5 and headers:  # a table renamed or quoted
        i = rng.choice(headers)
        lines[i] = rng.choice(["[boundary.'a b']", "[boundary.\"\"]", "[" + lines[i][1:-1] + "x]",
                               "[[" + lines[i][1:-1] + "]]", "[", "[boundary.lid.x.y]",
                               "[solver]"])
    elif kind == 6:  # garbage inserted
        i = rng.randrange(len(lines) + 1)
        lines.insert(i, rng.choice(["\x00\x01\x02", "a.b.c = 1", "= 3", "x = ", "\x1b[2J",
                                    "k" * 100000 + " = 1", "[time]\nend = 1e300",
                                    "physics.model = \"ns-exact\"", "\ufeffa = 1"]))
    else:  # truncated
        return text[:rng.randrange(len(text) + 1)]
    return "\n".join(lines)


def case_trial(binary, seed, index, work_root):
    rng = random.Random(seed * 1_000_033 + index)
    path, edits = rng.choice(CASE_SEEDS)
    text = case_text(path, edits)
    for _ in range(rng.choice([1, 1, 2])):
        text = mutate_case(text, rng)
    work = Path(tempfile.mkdtemp(dir=work_root))
    case = work / "case.toml"
    case.write_bytes(text.encode("utf-8", "surrogateescape"))
    args = [binary, "run", str(case), "--set", f"output.directory={json.dumps(str(work / 'out'))}"]
    rc, err, hung = run(args)
    return index, path, work, [("run", verdict(rc, err, hung), err, args)]


# ---------------------------------------------------------------------------------------------
# Checkpoints

CHECKPOINT_SEEDS = [("cases/heat-cube/case.toml", [], "heat"),
                    ("cases/cavity2d/case.toml", [("end = 20", "end = 0.4")], "ns-classical")]


def figures(summary_dir):
    found = list(Path(summary_dir).glob("*_summary.json"))
    if not found:
        return None
    s = json.loads(found[0].read_text())
    return [s.get("status"), s.get("steps"), s.get("time"), s.get("figures"),
            s.get("solver", {}).get("iterations_total")]


def make_checkpoint_seeds(binary, work_root):
    """Per seed case: its checkpoint at mid-run, and the figures of a restart from it."""
    seeds = []
    for path, edits, model in CHECKPOINT_SEEDS:
        work = Path(tempfile.mkdtemp(dir=work_root))
        case = work / "case.toml"
        case.write_text(case_text(path, edits))
        base = [binary, "run", str(case), "--set", "solver.backend=cpu"]
        rc, err, _ = run(base + ["--set", "checkpoint.every_steps=10", "--set",
                                 f"output.directory={json.dumps(str(work / 'first'))}"])
        checkpoints = sorted((work / "first").glob("*_checkpoint_*.h5"))
        if rc != 0 or not checkpoints:
            sys.exit(f"fuzz.py: the seed run of {path} failed ({rc}): {err}")
        good = checkpoints[0]
        rc, err, _ = run(base + ["--restart", str(good), "--set",
                                 f"output.directory={json.dumps(str(work / 'again'))}"])
        if rc != 0:
            sys.exit(f"fuzz.py: the restart of {path} failed ({rc}): {err}")
        seeds.append((path, case, good.read_bytes(), figures(work / "again")))
    return seeds


def damage(data, rng):
    b = bytearray(data)
    kind = rng.randrange(6)
    if kind == 0:  # one bit anywhere
        i = rng.randrange(len(b))
        b[i] ^= 1 << rng.randrange(8)
    elif kind == 1:  # one bit in the metadata near the start (superblock, object headers)
        i = rng.randrange(min(len(b), 4096))
        b[i] ^= 1 << rng.randrange(8)
    elif kind == 2:  # a few bytes anywhere
        for _ in range(rng.randint(2, 16)):
            b[rng.randrange(len(b))] = rng.randrange(256)
    elif kind == 3:  # a block zeroed (a lost disk sector)
        i = rng.randrange(len(b))
        b[i:i + 512] = bytes(len(b[i:i + 512]))
    elif kind == 4:  # truncated (a copy that stopped)
        return bytes(b[:rng.randrange(len(b))])
    else:  # a block repeated
        i = rng.randrange(len(b))
        return bytes(b[:i] + b[i:i + 1024] + b[i:])
    return bytes(b)


def checkpoint_trial(binary, seed, index, work_root, seeds):
    rng = random.Random(seed * 1_000_037 + index)
    path, case, good, expected = seeds[rng.randrange(len(seeds))]
    work = Path(tempfile.mkdtemp(dir=work_root))
    damaged = work / "damaged.h5"
    damaged.write_bytes(damage(good, rng))
    args = [binary, "run", str(case), "--set", "solver.backend=cpu", "--restart", str(damaged),
            "--set", f"output.directory={json.dumps(str(work / 'out'))}"]
    rc, err, hung = run(args)
    v = verdict(rc, err, hung)
    if v == "ok" and figures(work / "out") != expected:
        v = "silently_wrong"
    return index, path, work, [("restart", v, err, args)]


# ---------------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=["meshes", "cases", "checkpoints"])
    parser.add_argument("count", type=int)
    parser.add_argument("--binary", default=str(ROOT / "build/src/app/streamcfd"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="fuzz-out")
    a = parser.parse_args()
    binary = str(Path(a.binary).resolve())
    out = Path(a.out)
    (out / "faults").mkdir(parents=True, exist_ok=True)
    work_root = Path(tempfile.mkdtemp(prefix=f"scfd_fuzz_{a.kind}_"))
    trial, extra = {"meshes": (mesh_trial, ()), "cases": (case_trial, ()),
                    "checkpoints": (checkpoint_trial, None)}[a.kind]
    if extra is None:
        extra = (make_checkpoint_seeds(binary, work_root),)
    counts, runs, faults = {}, 0, []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        futures = [pool.submit(trial, binary, a.seed, i, work_root, *extra)
                   for i in range(a.count)]
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            index, source, work, results = future.result()
            for stage, v, err, args in results:
                runs += 1
                counts[v] = counts.get(v, 0) + 1
                if v not in ("ok", "refused", "failed"):
                    keep = out / "faults" / f"{a.kind}-{index:05d}"
                    shutil.copytree(work, keep, dirs_exist_ok=True,
                                    ignore=shutil.ignore_patterns("out"))
                    faults.append({"input": index, "source": source, "stage": stage,
                                   "verdict": v, "stderr": err[-2000:],
                                   "command": " ".join(args), "kept": str(keep)})
                    print(f"{a.kind} {index}: {v} in {stage}: {err.strip()[-300:]}", flush=True)
            shutil.rmtree(work, ignore_errors=True)
            if done % 500 == 0:
                print(f"{done}/{a.count} inputs, {runs} runs: {counts}", flush=True)
    shutil.rmtree(work_root, ignore_errors=True)
    report = {"kind": a.kind, "inputs": a.count, "runs": runs, "seed": a.seed,
              "verdicts": counts, "faults": faults}
    (out / f"report-{a.kind}.json").write_text(json.dumps(report, indent=1))
    print(json.dumps({k: v for k, v in report.items() if k != "faults"}))
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
