#!/usr/bin/env python3
"""Compares lid-driven cavity centreline profiles with Ghia, Ghia & Shin (1982).

Reads the reference table (cases/cavity2d/ghia1982.csv, see docs/reference-data.md) and the
solver's two centreline samples (CSV files with a header row, by default the columns
s,x,y,z,u,v,w,p), plots u(y) on the vertical line x = 0.5 and v(x) on the horizontal line y = 0.5
against the reference points into one PNG, and prints the deviation at every reference point
inside the sampled range, the solver profile being interpolated linearly there (the table's
boundary values at both ends of each line are not compared).

  streamcfd run cases/cavity2d/case.toml     # writes output/lines/{vertical,horizontal}.csv
  scripts/plot_cavity.py --re 100 --vertical cases/cavity2d/output/lines/vertical.csv \\
      --horizontal cases/cavity2d/output/lines/horizontal.csv
  scripts/plot_cavity.py --re 1000 --vertical out/lines/vertical.csv \\
      --horizontal out/lines/horizontal.csv --png out/cavity-re1000.png --max-dev 0.02

Exit status: 0, or 1 when --max-dev is given and a deviation exceeds it, or 2 on bad input.
Needs Python 3 with numpy and matplotlib (Debian: python3-numpy python3-matplotlib).
"""
import argparse
import csv
import sys

try:
    import numpy as np
except ImportError:
    print("plot_cavity.py: needs numpy and matplotlib "
          "(Debian: apt-get install python3-numpy python3-matplotlib)", file=sys.stderr)
    sys.exit(2)


class InputError(Exception):
    """Bad input: reported as one line, exit status 2."""


def read_columns(path, names):
    """Returns {name: float array} for the named columns of a CSV file with a header row.

    Lines starting with '#' are comments."""
    try:
        with open(path, newline="") as f:
            rows = [r for r in csv.reader(line for line in f if not line.startswith("#")) if r]
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}")
    if not rows:
        raise InputError(f"{path} is empty")
    header = [h.strip() for h in rows[0]]
    missing = [n for n in names if n not in header]
    if missing:
        raise InputError(f"{path} has no column {', '.join(missing)} (its columns: {','.join(header)})")
    index = {n: header.index(n) for n in names}
    out = {n: [] for n in names}
    for lineno, row in enumerate(rows[1:], start=2):
        for n in names:
            try:
                out[n].append(float(row[index[n]]))
            except (IndexError, ValueError):
                raise InputError(f"{path}: row {lineno} has no number in column {n}")
    if not rows[1:]:
        raise InputError(f"{path} has a header but no data rows")
    return {n: np.array(v) for n, v in out.items()}


def read_ghia(path, re):
    """Returns {'vertical': (y, u), 'horizontal': (x, v)} for Reynolds number re."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}")
    available = sorted({int(r["re"]) for r in rows})
    if re not in available:
        raise InputError(f"{path} has no data for Re = {re} (it has Re = {', '.join(map(str, available))})")
    ref = {}
    for line, coord in (("vertical", "y"), ("horizontal", "x")):
        pts = sorted((float(r[coord]), float(r["value"])) for r in rows
                     if r["line"] == line and int(r["re"]) == re)
        ref[line] = (np.array([p[0] for p in pts]), np.array([p[1] for p in pts]))
    return ref


def solver_profile(path, coord_col, value_col):
    """The solver's profile (coordinate along the line, velocity), sorted by the coordinate."""
    cols = read_columns(path, [coord_col, value_col])
    s, q = cols[coord_col], cols[value_col]
    order = np.argsort(s, kind="stable")
    s, q = s[order], q[order]
    if len(s) < 2 or s[-1] - s[0] <= 0:
        raise InputError(f"{path}: column {coord_col} must span an interval (at least two distinct values)")
    return s, q


# Table values that break the smooth trend of their neighbours, kept in the table as published
# (docs/reference-data.md): (Re, line, coordinate). Plotted, but left out of the deviations.
SUSPECT = {(400, "horizontal", 0.9063)}


def deviations(ref_s, ref_q, s, q):
    """Deviation solver - reference at the reference points inside [s.min, s.max].

    The table's end points (s = 0 and 1) are the boundary conditions, not results: the solver's
    samples there are cell averages next to the wall, so they are left out of the comparison."""
    interior = (ref_s > 1e-9) & (ref_s < 1 - 1e-9)
    inside = interior & (ref_s >= s[0] - 1e-12) & (ref_s <= s[-1] + 1e-12)
    return ref_s[inside], np.interp(ref_s[inside], s, q) - ref_q[inside], int(np.sum(interior & ~inside))


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--re", type=int, required=True, help="Reynolds number of the run (a column of the table)")
    p.add_argument("--ghia", default="cases/cavity2d/ghia1982.csv", help="reference table (default: %(default)s)")
    p.add_argument("--vertical", default="output/lines/vertical.csv",
                   help="solver samples on x = 0.5 (default: %(default)s)")
    p.add_argument("--horizontal", default="output/lines/horizontal.csv",
                   help="solver samples on y = 0.5 (default: %(default)s)")
    p.add_argument("--x-col", default="x", help="column of the x coordinate (default: %(default)s)")
    p.add_argument("--y-col", default="y", help="column of the y coordinate (default: %(default)s)")
    p.add_argument("--u-col", default="u", help="column of the x velocity (default: %(default)s)")
    p.add_argument("--v-col", default="v", help="column of the y velocity (default: %(default)s)")
    p.add_argument("--png", default="cavity-ghia.png", help="figure to write (default: %(default)s)")
    p.add_argument("--label", default="streamcfd", help="legend label of the solver curves")
    p.add_argument("--max-dev", type=float, help="exit with status 1 if any |deviation| exceeds this")
    args = p.parse_args(argv)

    try:
        ref = read_ghia(args.ghia, args.re)
        profiles = {
            "vertical": solver_profile(args.vertical, args.y_col, args.u_col),
            "horizontal": solver_profile(args.horizontal, args.x_col, args.v_col),
        }
    except InputError as e:
        print(f"plot_cavity.py: {e}", file=sys.stderr)
        return 2

    try:
        import matplotlib
        matplotlib.use("Agg")  # no display needed
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_cavity.py: needs matplotlib (Debian: apt-get install python3-matplotlib)",
              file=sys.stderr)
        return 2

    fig, (ax_u, ax_v) = plt.subplots(1, 2, figsize=(11, 5))
    worst = 0.0
    print(f"Lid-driven cavity, Re = {args.re}: solver - Ghia et al. (1982) at the reference points")
    for line, comp, coord in (("vertical", "u", "y"), ("horizontal", "v", "x")):
        s, q = profiles[line]
        ref_s, ref_q = ref[line]
        suspect = np.array([(args.re, line, round(x, 4)) in SUSPECT for x in ref_s])
        for x in ref_s[suspect]:
            print(f"  (Ghia's {comp} at {coord} = {x:.4f} is a suspected misprint: not compared)")
        at, dev, outside = deviations(ref_s[~suspect], ref_q[~suspect], s, q)
        if len(dev) == 0:
            print(f"plot_cavity.py: no reference point of the {line} line lies in the sampled range "
                  f"[{s[0]:g}, {s[-1]:g}] of {coord}", file=sys.stderr)
            return 2
        k = int(np.argmax(np.abs(dev)))
        worst = max(worst, abs(dev[k]))
        note = f" ({outside} reference points outside the sampled range skipped)" if outside else ""
        print(f"  {comp} on the {line} centreline: max |dev| = {abs(dev[k]):.5f} at {coord} = {at[k]:.4f}, "
              f"rms = {np.sqrt(np.mean(dev ** 2)):.5f} over {len(dev)} points{note}")
        ax = ax_u if line == "vertical" else ax_v
        if line == "vertical":
            ax.plot(q, s, "-", lw=1.8, label=args.label)
            ax.plot(ref_q, ref_s, "o", mfc="none", color="k", label="Ghia et al. (1982)")
            ax.set_xlabel("u")
            ax.set_ylabel("y")
            ax.set_title("u(y) on x = 0.5")
        else:
            ax.plot(s, q, "-", lw=1.8, label=args.label)
            ax.plot(ref_s, ref_q, "o", mfc="none", color="k", label="Ghia et al. (1982)")
            ax.set_xlabel("x")
            ax.set_ylabel("v")
            ax.set_title("v(x) on y = 0.5")
        ax.grid(True, alpha=0.3)
        ax.legend()
    print(f"  max |dev| over both lines: {worst:.5f}")
    fig.suptitle(f"Lid-driven cavity, Re = {args.re}")
    fig.tight_layout()
    try:
        fig.savefig(args.png, dpi=120)
    except OSError as e:
        print(f"plot_cavity.py: cannot write {args.png}: {e.strerror}", file=sys.stderr)
        return 2
    print(f"  wrote {args.png}")
    if args.max_dev is not None and worst > args.max_dev:
        print(f"plot_cavity.py: max |dev| {worst:.5f} exceeds --max-dev {args.max_dev}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
