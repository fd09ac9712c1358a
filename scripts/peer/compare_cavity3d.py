#!/usr/bin/env python3
"""The 3D cavity figures of docs/methods.md ("3D on tetrahedral meshes"), for streamcfd and
icoFoam results on the same Gmsh mesh.

  compare_cavity3d.py --reference REF.xy [--streamcfd DIR]... [--icofoam DIR]... [--json OUT]

REF.xy: a centreline u(y) on x = z = 0.5 (columns y ux uy uz, icoFoam's `sets` output; the
reference of docs/methods.md is icoFoam on a uniform 64³ hexahedral mesh at t = 10,
docs/bench/h100-2026-11-26/cavity3d/hex64_vertical_U.xy). A streamcfd DIR is an
output folder of cases like cases/cavity3d (the last step of its .pvd, lines/vertical.csv); an
icoFoam DIR is a case of scripts/peer/icofoam_cavity3d.sh (its latest time, converted by
foamToVTK, and postProcessing/centreline). For each result it prints and writes:

  centreline_max, centreline_rms   |u - u_ref| over the centreline points (y in [0, 1])
  centreline_max_core               the same maximum over 0.05 <= y <= 0.95: the points next to
                                   the lid sit inside the cells that touch it, where the sampled
                                   value is an interpolation across the lid's boundary layer
  roughness                        RMS over the cells of |u_c - mean of u over the face
                                   neighbours of c| (the cell velocity's cell-to-cell noise)
  outlier_max                      the largest component of u_c - (neighbour mean) over cells
  outliers                         the number of cells where that exceeds 0.3
  component_max                    the largest |component of u_c| (the lid moves at 1)

Needs numpy and VTK's Python module (Debian: python3-numpy python3-vtk9) and, for icoFoam
results, OpenFOAM's foamToVTK.
"""
import argparse
import csv
import glob
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import vtk
from vtk.util.numpy_support import vtk_to_numpy


def cell_velocity_and_neighbours(grid, name):
    """Cell velocities (n x 3) and, per cell, the cells sharing a face with it."""
    u = vtk_to_numpy(grid.GetCellData().GetArray(name))
    faces = {}
    for c in range(grid.GetNumberOfCells()):
        cell = grid.GetCell(c)
        for k in range(cell.GetNumberOfFaces()):
            f = cell.GetFace(k)
            key = tuple(sorted(f.GetPointId(j) for j in range(f.GetNumberOfPoints())))
            faces.setdefault(key, []).append(c)
    neighbours = [[] for _ in range(grid.GetNumberOfCells())]
    for cells in faces.values():
        if len(cells) == 2:
            neighbours[cells[0]].append(cells[1])
            neighbours[cells[1]].append(cells[0])
    return u[:, :3], neighbours


def noise(u, neighbours):
    dev = np.array([u[c] - u[n].mean(axis=0) for c, n in enumerate(neighbours) if n])
    worst = np.abs(dev).max(axis=1)
    return (float(np.sqrt((dev ** 2).sum(axis=1).mean())), float(worst.max()),
            int((worst > 0.3).sum()))


def centreline_error(y, ux, ref):
    diff = np.abs(ux - np.interp(y, ref[:, 0], ref[:, 1]))
    core = (y >= 0.05) & (y <= 0.95)
    return float(diff.max()), float(np.sqrt((diff ** 2).mean())), float(diff[core].max())


def streamcfd_result(folder):
    pvd = glob.glob(os.path.join(folder, "*.pvd"))
    if not pvd:
        sys.exit(f"{folder}: no .pvd")
    last = ET.parse(pvd[0]).getroot().findall(".//DataSet")[-1].get("file")
    reader = vtk.vtkXMLUnstructuredGridReader()
    reader.SetFileName(os.path.join(folder, last))
    reader.Update()
    u, neighbours = cell_velocity_and_neighbours(reader.GetOutput(), "velocity")
    with open(os.path.join(folder, "lines", "vertical.csv")) as f:
        rows = [r for r in csv.DictReader(f)]
    y = np.array([float(r["y"]) for r in rows])
    ux = np.array([float(r["u"]) for r in rows])
    return u, neighbours, y, ux


def icofoam_result(case):
    subprocess.run(["foamToVTK", "-latestTime", "-no-boundary", "-no-point-data", "-fields", "(U)",
                    "-overwrite", "-case", case], check=True, stdout=subprocess.DEVNULL)
    files = sorted(glob.glob(os.path.join(case, "VTK", "*.vtk")) +
                   glob.glob(os.path.join(case, "VTK", "*", "internal.vtu")), key=os.path.getmtime)
    if not files:
        sys.exit(f"{case}: foamToVTK wrote nothing")
    if files[-1].endswith(".vtu"):
        reader = vtk.vtkXMLUnstructuredGridReader()
    else:
        reader = vtk.vtkUnstructuredGridReader()
    reader.SetFileName(files[-1])
    reader.Update()
    u, neighbours = cell_velocity_and_neighbours(reader.GetOutput(), "U")
    times = glob.glob(os.path.join(case, "postProcessing", "centreline", "*"))
    latest = max(times, key=lambda t: float(os.path.basename(t)))
    line = np.loadtxt(os.path.join(latest, "vertical_U.xy"))
    return u, neighbours, line[:, 0], line[:, 1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reference", required=True)
    ap.add_argument("--streamcfd", action="append", default=[])
    ap.add_argument("--icofoam", action="append", default=[])
    ap.add_argument("--json")
    a = ap.parse_args()
    ref = np.loadtxt(a.reference)
    out = {}
    for kind, folders, load in (("streamcfd", a.streamcfd, streamcfd_result),
                                ("icofoam", a.icofoam, icofoam_result)):
        for folder in folders:
            u, neighbours, y, ux = load(folder)
            cmax, crms, ccore = centreline_error(y, ux, ref)
            rough, outlier, outliers = noise(u, neighbours)
            out[folder] = {"code": kind, "cells": len(u), "centreline_max": cmax,
                           "centreline_rms": crms, "centreline_max_core": ccore, "roughness": rough, "outlier_max": outlier,
                           "outliers": outliers, "component_max": float(np.abs(u).max())}
            print(f"{kind:9} {folder}: {len(u)} cells, centreline max {cmax:.4f} rms {crms:.4f} "
                  f"core {ccore:.4f}, "
                  f"roughness {rough:.4f}, largest outlier {outlier:.3f} ({outliers} above 0.3), "
                  f"largest |component| {np.abs(u).max():.3f}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=2)


if __name__ == "__main__":
    main()
