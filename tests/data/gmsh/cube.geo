// Unit cube, the 3D test mesh of the Gmsh reader (tests/mesh_io/gmsh_test.cpp): three boundary
// patches, one region, and a physical curve and point that the reader must ignore with a note.
// Regenerate the four .msh files with:
//   for f in msh22 msh41; do gmsh cube.geo -3 -format $f -o cube-$f.msh;
//                            gmsh cube.geo -3 -format $f -bin -o cube-$f-bin.msh; done
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 1, 1, 1};
Mesh.CharacteristicLengthMax = 0.4;
Physical Point("origin") = {2};
Physical Curve("edge") = {1};
Physical Surface("inlet") = {1};
Physical Surface("outlet") = {2};
Physical Surface("walls") = {3, 4, 5, 6};
Physical Volume("fluid") = {1};
