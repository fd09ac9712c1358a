// The parallel VTK XML UnstructuredGrid (.pvtu) index file: it declares the arrays that every
// piece holds and lists the pieces (one .vtu per rank), e.g.
//   <VTKFile type="PUnstructuredGrid" version="1.0" byte_order="LittleEndian" header_type="UInt64">
//     <PUnstructuredGrid GhostLevel="0">
//       <PPointData> <PDataArray type="Float64" Name="u" NumberOfComponents="3"/> </PPointData>
//       <PCellData> <PDataArray type="Int32" Name="rank"/> <PArray type="String" .../> </PCellData>
//       <PPoints> <PDataArray type="Float64" Name="Points" NumberOfComponents="3"/> </PPoints>
//       <Piece Source="heat_000010_0.vtu"/> <Piece Source="heat_000010_1.vtu"/>
//     </PUnstructuredGrid>
//   </VTKFile>
// This is what vtkXMLPUnstructuredGridWriter writes (VTK 9.1, checked against its output), without
// the field data (vtkXMLPUnstructuredGridReader takes field data from the pieces). Written as text
// by rank 0, so the output module needs no vtkMPIController. Internal to the output module; no VTK.
#pragma once

#include <string>
#include <vector>

namespace scfd::output {

struct ArrayDecl {
  std::string name;
  std::string type;  // VTK XML type name: "Float64", "Float32", "Int32", "Int64", "String", ...
  int components = 1;
};

// The arrays of one piece, in the order the piece's .vtu lists them.
struct PieceLayout {
  std::vector<ArrayDecl> point_arrays, cell_arrays;
  std::string points_type = "Float64";
};

// The .pvtu document for pieces with LAYOUT, stored in the files PIECES (relative to the .pvtu's
// directory) in rank order; names are XML-escaped.
std::string pvtu_text(const PieceLayout& layout, const std::vector<std::string>& pieces);

}  // namespace scfd::output
