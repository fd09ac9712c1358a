// DFG 2D flow-around-a-cylinder benchmark domain (Schaefer & Turek, "Benchmark computations of
// laminar flow around a cylinder", Notes Numer. Fluid Mech. 52, 1996): the channel
// [0, 2.2] x [0, 0.41] minus a cylinder of radius 0.05 centred at (0.2, 0.2).
// Patches (physical curves): inlet (x=0), outlet (x=2.2), walls (y=0 and y=0.41), cylinder.
// Region (physical surface): fluid.
// Mesh size: h far from the cylinder (default 0.04); h/4 on the cylinder, growing to h over a
// distance of 0.3. Refine with `gmsh channel2d-cylinder.geo -setnumber h 0.02 -2 -format msh41`.
DefineConstant[ h = {0.04, Name "Parameters/mesh size h"} ];

Mesh.Algorithm = 6;        // Frontal-Delaunay for 2D
General.NumThreads = 1;    // deterministic output
Mesh.SaveAll = 0;          // save only elements of physical groups

L = 2.2;  H = 0.41;  xc = 0.2;  yc = 0.2;  r = 0.05;
hc = h / 4;  // size on the cylinder

Point(1) = {0, 0, 0, h};
Point(2) = {L, 0, 0, h};
Point(3) = {L, H, 0, h};
Point(4) = {0, H, 0, h};
Line(1) = {1, 2};  // wall y=0
Line(2) = {2, 3};  // outlet
Line(3) = {3, 4};  // wall y=H
Line(4) = {4, 1};  // inlet

// The cylinder: four quarter arcs around the centre point 5 (only used to define the arcs).
Point(5) = {xc, yc, 0, hc};
Point(6) = {xc + r, yc, 0, hc};
Point(7) = {xc, yc + r, 0, hc};
Point(8) = {xc - r, yc, 0, hc};
Point(9) = {xc, yc - r, 0, hc};
Circle(5) = {6, 5, 7};
Circle(6) = {7, 5, 8};
Circle(7) = {8, 5, 9};
Circle(8) = {9, 5, 6};

Curve Loop(1) = {1, 2, 3, 4};
Curve Loop(2) = {5, 6, 7, 8};
Plane Surface(1) = {1, 2};

// Size field: hc on the cylinder, growing linearly to h at distance 0.3 from it.
Field[1] = Distance;
Field[1].CurvesList = {5, 6, 7, 8};
Field[1].NumPointsPerCurve = 100;
Field[2] = Threshold;
Field[2].InField = 1;
Field[2].SizeMin = hc;
Field[2].SizeMax = h;
Field[2].DistMin = 0;
Field[2].DistMax = 0.3;
Background Field = 2;
Mesh.MeshSizeExtendFromBoundary = 0;
Mesh.MeshSizeFromPoints = 0;
Mesh.MeshSizeFromCurvature = 0;

Physical Curve("inlet", 1) = {4};
Physical Curve("outlet", 2) = {2};
Physical Curve("walls", 3) = {1, 3};
Physical Curve("cylinder", 4) = {5, 6, 7, 8};
Physical Surface("fluid", 10) = {1};
