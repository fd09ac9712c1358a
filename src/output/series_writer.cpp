// SeriesWriter (see series_writer.hpp): converts the mesh to a vtkUnstructuredGrid once, then per
// output time attaches zero-copy views of the caller's fields, writes one .vtu piece and rewrites
// the .pvd time series.
#include "output/series_writer.hpp"

#include <fmt/format.h>
#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkPointData.h>

#include <set>
#include <system_error>
#include <vector>

#include "core/error.hpp"
#include "output/atomic_file.hpp"
#include "output/pvd.hpp"
#include "output/vtk_grid.hpp"
#include "output/vtu_file.hpp"

namespace scfd::output {
namespace fs = std::filesystem;

struct SeriesWriter::Impl {
  const topology::Mesh* mesh = nullptr;
  fs::path dir;
  std::string basename;
  vtkSmartPointer<vtkUnstructuredGrid> grid;  // points + cells, built once
  vtkSmartPointer<vtkIntArray> region;        // cell array "region"
  vtkSmartPointer<vtkIntArray> patch;         // point array "patch"
  vtkSmartPointer<vtkFieldData> field_data;   // region_names, patch_names, TimeValue
  vtkSmartPointer<vtkDoubleArray> time_value;
  std::vector<PvdEntry> series;
};

namespace {

void make_output_directory(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw input_error("cannot create output directory '{}': {}", dir.string(), ec.message());
  if (!fs::is_directory(dir, ec))
    throw input_error("cannot create output directory '{}': a file of that name exists",
                      dir.string());
}

void check_basename(const std::string& basename) {
  if (basename.empty() || basename == "." || basename == ".." ||
      basename.find('/') != std::string::npos)
    throw input_error("output basename '{}': expected a file name (non-empty, no '/')", basename);
}

// Checks sizes, component counts and the uniqueness of names (the reserved "region" and "patch"
// included): a mismatch is a programming error of the caller, not bad user input.
void check_fields(std::span<const Field> fields, index n, const char* kind,
                  std::set<std::string>& names) {
  for (const Field& f : fields) {
    SCFD_CHECK(f.components == 1 || f.components == 3, "{} field '{}' has {} components", kind,
               f.name, f.components);
    SCFD_CHECK(
        f.data.size() == static_cast<std::size_t>(n) * static_cast<std::size_t>(f.components),
        "{} field '{}' has {} values, expected {} x {}", kind, f.name, f.data.size(), n,
        f.components);
    SCFD_CHECK(!f.name.empty(), "{} field without a name", kind);
    SCFD_CHECK(names.insert(f.name).second, "field name '{}' used twice in one write", f.name);
  }
}

void attach(vtkDataSetAttributes* attributes, std::span<const Field> fields) {
  for (const Field& f : fields) attributes->AddArray(real_array_view(f));
}

}  // namespace

SeriesWriter::SeriesWriter(const topology::Mesh& mesh, fs::path dir, std::string basename)
    : impl_(std::make_unique<Impl>()) {
  check_basename(basename);
  make_output_directory(dir);
  Impl& s = *impl_;
  s.mesh = &mesh;
  s.dir = std::move(dir);
  s.basename = std::move(basename);
  s.grid = make_cell_grid(mesh);
  SCFD_CHECK(mesh.cell_region.size() == static_cast<std::size_t>(mesh.n_cells),
             "cell_region has {} entries", mesh.cell_region.size());
  s.region = int_array("region", mesh.cell_region);
  const std::vector<int> node_patches = node_patch(mesh);
  s.patch = int_array("patch", node_patches);
  s.time_value = vtkSmartPointer<vtkDoubleArray>::New();
  s.time_value->SetName("TimeValue");  // ParaView's name for a dataset's time
  s.time_value->SetNumberOfValues(1);
  s.field_data = vtkSmartPointer<vtkFieldData>::New();
  s.field_data->AddArray(s.time_value);
  s.field_data->AddArray(string_array("region_names", region_names(mesh)));
  s.field_data->AddArray(string_array("patch_names", patch_names(mesh)));
  s.grid->SetFieldData(s.field_data);
}

SeriesWriter::~SeriesWriter() = default;
SeriesWriter::SeriesWriter(SeriesWriter&&) noexcept = default;
SeriesWriter& SeriesWriter::operator=(SeriesWriter&&) noexcept = default;

fs::path SeriesWriter::pvd_path() const {
  return impl_->dir / (impl_->basename + ".pvd");
}

fs::path SeriesWriter::write(double time, int step, std::span<const Field> point_fields,
                             std::span<const Field> cell_fields) {
  Impl& s = *impl_;
  SCFD_CHECK(step >= 0, "output step {}", step);
  std::set<std::string> names{"region", "patch"};
  check_fields(point_fields, s.mesh->n_nodes, "point", names);
  check_fields(cell_fields, s.mesh->n_cells, "cell", names);

  const std::string file = fmt::format("{}_{:06d}.vtu", s.basename, step);
  fs::path path = s.dir / file;
  vtkPointData* points = s.grid->GetPointData();
  vtkCellData* cells = s.grid->GetCellData();
  points->Initialize();
  cells->Initialize();
  points->AddArray(s.patch);
  cells->AddArray(s.region);
  attach(points, point_fields);
  attach(cells, cell_fields);
  s.time_value->SetValue(0, time);
  s.time_value->Modified();  // SetValue does not; the writer's cached range would be stale
  s.grid->Modified();
  try {
    write_vtu(s.grid, path);
  } catch (...) {
    points->Initialize();  // drop the views of the caller's data
    cells->Initialize();
    throw;
  }
  points->Initialize();
  cells->Initialize();

  add_or_replace(s.series, PvdEntry{time, file, 0});
  write_text_atomic(pvd_path(), pvd_text(s.series));
  return path;
}

fs::path SeriesWriter::write_boundary() {
  fs::path path = impl_->dir / (impl_->basename + "_boundary.vtu");
  write_vtu(make_boundary_grid(*impl_->mesh), path);
  return path;
}

}  // namespace scfd::output
