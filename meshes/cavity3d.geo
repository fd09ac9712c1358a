// Lid-driven cube cavity: the unit cube [0,1]^3 meshed with unstructured tetrahedra, OpenCASCADE
// kernel. The lid is the face y=1 (the case moves it in +x with speed 1), as in cavity.geo, so the
// mid-plane z=0.5 holds the 2D cavity's centrelines (x=0.5 and y=0.5) and z is the spanwise
// direction. Patches (physical surfaces): lid (y=1), walls (the other five faces).
// Region (physical volume): fluid.
// Mesh size: h (default 0.1); refine with `gmsh cavity3d.geo -setnumber h 0.05 -3 -format msh41`.
SetFactory("OpenCASCADE");
DefineConstant[ h = {0.1, Name "Parameters/mesh size h"} ];

Mesh.Algorithm = 6;        // Frontal-Delaunay for the surfaces
Mesh.Algorithm3D = 1;      // Delaunay for the volume
// Optimisation pass on (gmsh's and Netgen's): without it the Delaunay tetrahedra include slivers
// (radius ratio down to 0.016) on which the explicit convection of ns-classical is unstable at any
// usable step (docs/methods.md, "3D meshes"). The price is some non-Delaunay faces (the solver
// falls back to the centroid distance there; see meshes/README.md, "Delaunay check").
Mesh.Optimize = 1;
Mesh.OptimizeNetgen = 1;
General.NumThreads = 1;    // deterministic output
Mesh.SaveAll = 0;          // save only elements of physical groups
Mesh.MeshSizeMin = 0;
Mesh.MeshSizeMax = h;
Mesh.MeshSizeFromCurvature = 0;

Box(1) = {0, 0, 0, 1, 1, 1};
MeshSize{ PointsOf{ Volume{1}; } } = h;

e = 1e-6;  // tolerance of the bounding-box selections
Physical Surface("lid", 1) = Surface In BoundingBox{-e, 1 - e, -e, 1 + e, 1 + e, 1 + e};
walls[] = Surface In BoundingBox{-e, -e, -e, e, 1 + e, 1 + e};            // x=0
walls[] += Surface In BoundingBox{1 - e, -e, -e, 1 + e, 1 + e, 1 + e};    // x=1
walls[] += Surface In BoundingBox{-e, -e, -e, 1 + e, e, 1 + e};           // y=0
walls[] += Surface In BoundingBox{-e, -e, -e, 1 + e, 1 + e, e};           // z=0
walls[] += Surface In BoundingBox{-e, -e, 1 - e, 1 + e, 1 + e, 1 + e};    // z=1
Physical Surface("walls", 2) = walls[];
Physical Volume("fluid", 10) = {1};
