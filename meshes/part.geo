// A mechanical part for heat-conduction demos: an L-shaped bracket (dimensionless units).
// Base plate [0, 4] x [0, 2] x [0, 0.5] with a semicircular (rounded) end of radius 1 around
// (x, y) = (4, 1), an upright flange [0, 0.5] x [0, 2] x [0, 2] at x = 0, and two vertical
// cylindrical through-holes of radius 0.35 in the base at (1.75, 1) and (4, 1).
// OpenCASCADE kernel; boundary surfaces are picked by bounding box after the booleans.
// Patches (physical surfaces): hot (the wall of the hole at (4, 1), in the rounded end),
// cold (the flat back face of the flange, x = 0), walls (every other surface).
// Region (physical volume): solid.
// Mesh size: h (default 0.25); refine with `gmsh part.geo -setnumber h 0.125 -3 -format msh41`.
SetFactory("OpenCASCADE");
DefineConstant[ h = {0.25, Name "Parameters/mesh size h"} ];

Mesh.Algorithm = 6;        // Frontal-Delaunay for the surfaces
Mesh.Algorithm3D = 1;      // Delaunay for the volume
General.NumThreads = 1;    // deterministic output
Mesh.SaveAll = 0;          // save only elements of physical groups
Mesh.MeshSizeMin = 0;
Mesh.MeshSizeMax = h;
Mesh.MeshSizeFromCurvature = 0;

t = 0.5;    // plate and flange thickness
W = 2;      // width (y)
Lb = 4;     // base length up to the centre of the rounded end
R = 1;      // radius of the rounded end
rh = 0.35;  // hole radius
xh = 1.75;  // centre of the first hole (the second one is at the rounded end's centre)
Hf = 2;     // flange height

Box(1) = {0, 0, 0, Lb, W, t};
Cylinder(2) = {Lb, W / 2, 0, 0, 0, t, R};
Box(3) = {0, 0, 0, t, W, Hf};
body() = BooleanUnion{ Volume{1}; Delete; }{ Volume{2, 3}; Delete; };
Cylinder(10) = {xh, W / 2, -1, 0, 0, t + 2, rh};
Cylinder(11) = {Lb, W / 2, -1, 0, 0, t + 2, rh};
solid() = BooleanDifference{ Volume{body()}; Delete; }{ Volume{10, 11}; Delete; };
MeshSize{ PointsOf{ Volume{solid()}; } } = h;

e = 1e-6;  // tolerance of the bounding-box selections
hot[] = Surface In BoundingBox{Lb - rh - e, W / 2 - rh - e, -e, Lb + rh + e, W / 2 + rh + e, t + e};
cold[] = Surface In BoundingBox{-e, -e, -e, e, W + e, Hf + e};
walls[] = Surface{:};
walls[] -= {hot[], cold[]};

Physical Surface("hot", 1) = {hot[]};
Physical Surface("cold", 2) = {cold[]};
Physical Surface("walls", 3) = {walls[]};
Physical Volume("solid", 10) = {solid()};
