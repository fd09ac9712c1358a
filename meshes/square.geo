// Unit square [0,1]^2 meshed with unstructured triangles (Frontal-Delaunay).
// Patches (physical curves): left (x=0), right (x=1), bottom (y=0), top (y=1).
// Region (physical surface): domain.
// Mesh size: h (default 0.1); refine with `gmsh square.geo -setnumber h 0.05 -2 -format msh41`.
DefineConstant[ h = {0.1, Name "Parameters/mesh size h"} ];

Mesh.Algorithm = 6;        // Frontal-Delaunay for 2D
General.NumThreads = 1;    // deterministic output
Mesh.SaveAll = 0;          // save only elements of physical groups

Point(1) = {0, 0, 0, h};
Point(2) = {1, 0, 0, h};
Point(3) = {1, 1, 0, h};
Point(4) = {0, 1, 0, h};

Line(1) = {1, 2};  // bottom
Line(2) = {2, 3};  // right
Line(3) = {3, 4};  // top
Line(4) = {4, 1};  // left

Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};

Physical Curve("left", 1) = {4};
Physical Curve("right", 2) = {2};
Physical Curve("bottom", 3) = {1};
Physical Curve("top", 4) = {3};
Physical Surface("domain", 10) = {1};
