// Unit cube [0,1]^3 meshed with unstructured tetrahedra (Delaunay), OpenCASCADE kernel.
// Patches (physical surfaces): left (x=0), right (x=1), bottom (y=0), top (y=1), front (z=0),
// back (z=1). Region (physical volume): domain.
// Mesh size: h (default 0.25); refine with `gmsh cube.geo -setnumber h 0.125 -3 -format msh41`.
SetFactory("OpenCASCADE");
DefineConstant[ h = {0.25, Name "Parameters/mesh size h"} ];

Mesh.Algorithm = 6;        // Frontal-Delaunay for the surfaces
Mesh.Algorithm3D = 1;      // Delaunay for the volume
General.NumThreads = 1;    // deterministic output
Mesh.SaveAll = 0;          // save only elements of physical groups
Mesh.MeshSizeMin = 0;
Mesh.MeshSizeMax = h;
Mesh.MeshSizeFromCurvature = 0;

Box(1) = {0, 0, 0, 1, 1, 1};
MeshSize{ PointsOf{ Volume{1}; } } = h;

e = 1e-6;  // tolerance of the bounding-box selections
Physical Surface("left", 1) = Surface In BoundingBox{-e, -e, -e, e, 1 + e, 1 + e};
Physical Surface("right", 2) = Surface In BoundingBox{1 - e, -e, -e, 1 + e, 1 + e, 1 + e};
Physical Surface("bottom", 3) = Surface In BoundingBox{-e, -e, -e, 1 + e, e, 1 + e};
Physical Surface("top", 4) = Surface In BoundingBox{-e, 1 - e, -e, 1 + e, 1 + e, 1 + e};
Physical Surface("front", 5) = Surface In BoundingBox{-e, -e, -e, 1 + e, 1 + e, e};
Physical Surface("back", 6) = Surface In BoundingBox{-e, -e, 1 - e, 1 + e, 1 + e, 1 + e};
Physical Volume("domain", 10) = {1};
