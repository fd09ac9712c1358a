// Lid-driven cavity: the unit square [0,1]^2 meshed with unstructured triangles. The lid is the
// top side y=1 (the case moves it in +x with speed 1); the other three sides are fixed walls.
// Patches (physical curves): lid (y=1), walls (x=0, x=1, y=0). Region (physical surface): fluid.
// Mesh size: h (default 1/16); refine with `gmsh cavity.geo -setnumber h 0.03125 -2 -format msh41`.
// Triangles are kept as close to Delaunay as gmsh gives, because the pressure operator divides by
// the distance between neighbouring circumcentres (see meshes/README.md, "Delaunay check").
DefineConstant[ h = {0.0625, Name "Parameters/mesh size h"} ];

Mesh.Algorithm = 6;        // Frontal-Delaunay for 2D
General.NumThreads = 1;    // deterministic output
Mesh.SaveAll = 0;          // save only elements of physical groups

Point(1) = {0, 0, 0, h};
Point(2) = {1, 0, 0, h};
Point(3) = {1, 1, 0, h};
Point(4) = {0, 1, 0, h};

Line(1) = {1, 2};  // bottom wall
Line(2) = {2, 3};  // right wall
Line(3) = {3, 4};  // lid
Line(4) = {4, 1};  // left wall

Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};

Physical Curve("lid", 1) = {3};
Physical Curve("walls", 2) = {1, 2, 4};
Physical Surface("fluid", 10) = {1};
