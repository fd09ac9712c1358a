// Straight channel [0, L] x [0, 1] (L = 2) meshed with unstructured triangles, for flows with an
// exact solution: plane Poiseuille flow, and Kovasznay or Taylor-Green flow with the exact
// velocity imposed on the boundary (see docs/reference-data.md).
// Patches (physical curves): inlet (x=0), outlet (x=L), walls (y=0 and y=1).
// Region (physical surface): fluid.
// Mesh size: h (default 0.1); refine with `gmsh channel.geo -setnumber h 0.05 -2 -format msh41`.
DefineConstant[ h = {0.1, Name "Parameters/mesh size h"} ];

Mesh.Algorithm = 6;        // Frontal-Delaunay for 2D
General.NumThreads = 1;    // deterministic output
Mesh.SaveAll = 0;          // save only elements of physical groups

L = 2;

Point(1) = {0, 0, 0, h};
Point(2) = {L, 0, 0, h};
Point(3) = {L, 1, 0, h};
Point(4) = {0, 1, 0, h};

Line(1) = {1, 2};  // wall y=0
Line(2) = {2, 3};  // outlet
Line(3) = {3, 4};  // wall y=1
Line(4) = {4, 1};  // inlet

Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};

Physical Curve("inlet", 1) = {4};
Physical Curve("outlet", 2) = {2};
Physical Curve("walls", 3) = {1, 3};
Physical Surface("fluid", 10) = {1};
