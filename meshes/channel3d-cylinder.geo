// DFG 3D flow-around-a-cylinder benchmark domain, case 3D-1Z (Schaefer & Turek, "Benchmark
// computations of laminar flow around a cylinder", Notes Numer. Fluid Mech. 52, 1996): the channel
// [0, 2.5] x [0, 0.41] x [0, 0.41] minus a cylinder of radius 0.05 along z, centred at
// (x, y) = (0.5, 0.2). OpenCASCADE kernel.
// Patches (physical surfaces): inlet (x=0), outlet (x=2.5), walls (y=0, y=0.41, z=0, z=0.41),
// cylinder. Region (physical volume): fluid.
// Mesh size: h far from the cylinder (default 0.06); h/grading on the cylinder (default 3),
// growing to h over a distance of 0.3. Refine with
// `gmsh channel3d-cylinder.geo -setnumber h 0.03 -3 -format msh41`; grade more toward the
// cylinder with `-setnumber grading 12`.
SetFactory("OpenCASCADE");
DefineConstant[ h = {0.06, Name "Parameters/mesh size h"} ];
DefineConstant[ grading = {3, Name "Parameters/h over the size on the cylinder"} ];

Mesh.Algorithm = 6;        // Frontal-Delaunay for the surfaces
Mesh.Algorithm3D = 1;      // Delaunay for the volume
General.NumThreads = 1;    // deterministic output
Mesh.SaveAll = 0;          // save only elements of physical groups

L = 2.5;  H = 0.41;  xc = 0.5;  yc = 0.2;  r = 0.05;
hc = h / grading;  // size on the cylinder

Box(1) = {0, 0, 0, L, H, H};
Cylinder(2) = {xc, yc, 0, 0, 0, H, r};
BooleanDifference(3) = { Volume{1}; Delete; }{ Volume{2}; Delete; };

e = 1e-6;  // tolerance of the bounding-box selections
inlet[] = Surface In BoundingBox{-e, -e, -e, e, H + e, H + e};
outlet[] = Surface In BoundingBox{L - e, -e, -e, L + e, H + e, H + e};
cylinder[] = Surface In BoundingBox{xc - r - e, yc - r - e, -e, xc + r + e, yc + r + e, H + e};
walls[] = Surface In BoundingBox{-e, -e, -e, L + e, e, H + e};
walls[] += Surface In BoundingBox{-e, H - e, -e, L + e, H + e, H + e};
walls[] += Surface In BoundingBox{-e, -e, -e, L + e, H + e, e};
walls[] += Surface In BoundingBox{-e, -e, H - e, L + e, H + e, H + e};

// Size field: hc on the cylinder, growing linearly to h at distance 0.3 from it.
Field[1] = Distance;
Field[1].SurfacesList = {cylinder[]};
Field[1].NumPointsPerCurve = 40;
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

Physical Surface("inlet", 1) = {inlet[]};
Physical Surface("outlet", 2) = {outlet[]};
Physical Surface("walls", 3) = {walls[]};
Physical Surface("cylinder", 4) = {cylinder[]};
Physical Volume("fluid", 10) = {3};
