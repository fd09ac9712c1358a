// write_mesh_vtu (see mesh_file.hpp): the whole mesh as one grid with zero-copy views of the
// caller's fields.
#include "output/mesh_file.hpp"

#include <vtkCellData.h>
#include <vtkPointData.h>

#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "output/vtk_grid.hpp"
#include "output/vtu_file.hpp"

namespace scfd::output {

std::filesystem::path write_mesh_vtu(const topology::Mesh& mesh, const std::filesystem::path& file,
                                     std::span<const Field> point_fields,
                                     std::span<const Field> cell_fields) {
  std::set<std::string> names;
  check_fields(point_fields, mesh.n_nodes, -1, "point", names);
  check_fields(cell_fields, mesh.n_cells, -1, "cell", names);
  std::vector<index> nodes(static_cast<std::size_t>(mesh.n_nodes));
  std::iota(nodes.begin(), nodes.end(), index{0});
  vtkSmartPointer<vtkUnstructuredGrid> grid = make_cell_grid(mesh, mesh.n_cells, nodes);
  for (const Field& f : point_fields) grid->GetPointData()->AddArray(real_array_view(f));
  for (const Field& f : cell_fields) grid->GetCellData()->AddArray(real_array_view(f));
  write_vtu(grid, file, Compression::lz4);  // the grid, and with it the views, dies here
  return file;
}

}  // namespace scfd::output
