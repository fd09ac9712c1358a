// Unit square, the 2D test mesh of the Gmsh reader (tests/mesh_io/gmsh_test.cpp): four boundary
// patches (one left unnamed on purpose, read as "group14"), one region, and a physical point that
// the reader must ignore with a note. Regenerate the four .msh files with:
//   for f in msh22 msh41; do gmsh square.geo -2 -format $f -o square-$f.msh;
//                            gmsh square.geo -2 -format $f -bin -o square-$f-bin.msh; done
lc = 0.2;
Point(1) = {0, 0, 0, lc};
Point(2) = {1, 0, 0, lc};
Point(3) = {1, 1, 0, lc};
Point(4) = {0, 1, 0, lc};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Physical Point("corner") = {1};
Physical Curve("bottom") = {1};
Physical Curve("right") = {2};
Physical Curve("top") = {3};
Physical Curve(14) = {4};
Physical Surface("fluid") = {1};
