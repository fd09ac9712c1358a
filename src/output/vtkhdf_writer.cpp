// VTKHDF output (see vtkhdf_writer.hpp).
#include "output/vtkhdf_writer.hpp"

#include <fmt/format.h>
#include <mpi.h>
#include <vtkCellArray.h>
#include <vtkCellType.h>
#include <vtkDataArray.h>
#include <vtkDoubleArray.h>
#include <vtkIntArray.h>
#include <vtkPoints.h>

#include <array>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <vector>

#include "core/collectives.hpp"
#include "core/error.hpp"
#include "h5/h5.hpp"
#include "output/atomic_file.hpp"
#include "output/vtk_grid.hpp"

namespace scfd::output {
namespace fs = std::filesystem;

namespace {

// Every rank's count, and this rank's first row (the sum of the counts of the ranks before it).
struct Rows {
  std::vector<std::int64_t> all;
  std::int64_t begin = 0, total = 0;
};
Rows gather_rows(std::int64_t mine) {
  Rows r;
  const int ranks = world_size();
  r.all = all_gather(std::vector<std::int64_t>{mine});
  const int me = world_rank();
  for (int k = 0; k < ranks; ++k) {
    if (k < me) r.begin += r.all[static_cast<std::size_t>(k)];
    r.total += r.all[static_cast<std::size_t>(k)];
  }
  return r;
}

// "name" -> JSON string (the names are ours: no quotes or backslashes to escape but in paths).
std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

struct VtkHdfWriter::Impl {
  const topology::Mesh* mesh = nullptr;
  fs::path dir;
  std::string basename;
  int rank = 0;
  index n_cells = 0;
  std::vector<index> nodes;
  PieceArrays arrays;
  // This rank's rows of the geometry datasets, made once (the mesh does not change), and every
  // rank's row counts of them.
  std::vector<double> xyz;
  std::vector<std::int64_t> offsets, connectivity;
  std::vector<std::uint8_t> types;
  Rows point_rows, cell_rows, offset_rows, conn_rows;
  std::vector<std::pair<double, std::string>> series;  // rank 0: time, file name
};

VtkHdfWriter::VtkHdfWriter(const topology::Mesh& mesh, fs::path dir, std::string basename)
    : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  s.mesh = &mesh;
  s.dir = std::move(dir);
  s.basename = std::move(basename);
  s.rank = world_rank();
  std::error_code ec;
  fs::create_directories(s.dir, ec);
  const std::string failed = first_message(
      ec ? fmt::format("cannot create output directory '{}': {}", s.dir.string(), ec.message())
         : std::string());
  if (!failed.empty()) throw InputError(failed);
  s.n_cells = owned_cells(mesh);
  s.nodes = nodes_of_cells(mesh, s.n_cells);
  s.arrays = piece_arrays(mesh, s.nodes, s.n_cells, s.rank);
  const vtkSmartPointer<vtkUnstructuredGrid> grid = make_cell_grid(mesh, s.n_cells, s.nodes);
  vtkPoints* points = grid->GetPoints();
  vtkCellArray* cells = grid->GetCells();
  const auto np = static_cast<std::int64_t>(points->GetNumberOfPoints());
  s.xyz.resize(static_cast<std::size_t>(3 * np));
  for (std::int64_t i = 0; i < np; ++i)
    points->GetPoint(i, &s.xyz[static_cast<std::size_t>(3 * i)]);
  for (vtkIdType k = 0; k <= cells->GetNumberOfCells(); ++k)
    s.offsets.push_back(static_cast<std::int64_t>(cells->GetOffsetsArray()->GetComponent(k, 0)));
  for (vtkIdType k = 0; k < cells->GetNumberOfConnectivityIds(); ++k)
    s.connectivity.push_back(
        static_cast<std::int64_t>(cells->GetConnectivityArray()->GetComponent(k, 0)));
  s.types.assign(static_cast<std::size_t>(s.n_cells),
                 static_cast<std::uint8_t>(mesh.dim == 3 ? VTK_TETRA : VTK_TRIANGLE));
  s.point_rows = gather_rows(np);
  s.cell_rows = gather_rows(s.n_cells);
  s.offset_rows = gather_rows(s.n_cells + 1);
  s.conn_rows = gather_rows(static_cast<std::int64_t>(s.connectivity.size()));
}

VtkHdfWriter::~VtkHdfWriter() = default;

fs::path VtkHdfWriter::series_path() const {
  return impl_->dir / (impl_->basename + ".hdf.series");
}

fs::path VtkHdfWriter::file_path(int step) const {
  return impl_->dir / fmt::format("{}_{:06d}.hdf", impl_->basename, step);
}

void VtkHdfWriter::continue_series(double time) {
  std::ifstream in(series_path());
  if (!in) return;
  std::stringstream text;
  text << in.rdbuf();
  const std::string t = text.str();
  static const std::regex entry(
      R"re(\{\s*"name"\s*:\s*"([^"]*)"\s*,\s*"time"\s*:\s*([^\s}]+)\s*\})re");
  for (auto it = std::sregex_iterator(t.begin(), t.end(), entry); it != std::sregex_iterator();
       ++it) {
    try {
      const double at = std::stod((*it)[2]);
      if (at <= time) impl_->series.emplace_back(at, (*it)[1]);
    } catch (const std::exception&) {
    }
  }
}

fs::path VtkHdfWriter::write(double time, int step, std::span<const Field> point_fields,
                             std::span<const Field> cell_fields) {
  Impl& s = *impl_;
  const topology::Mesh& m = *s.mesh;
  std::set<std::string> names{"patch", "node_id", "region", "rank", "cell_id"};
  check_fields(point_fields, m.n_nodes, -1, "point", names);
  check_fields(cell_fields, m.n_cells, s.n_cells, "cell", names);
  const fs::path path = file_path(step), tmp = temp_path_for(path);

  std::vector<std::vector<real>> store;
  std::vector<Field> piece_points, piece_cells;
  for (const Field& f : point_fields) piece_points.push_back(gathered(f, s.nodes, store));
  for (const Field& f : cell_fields) piece_cells.push_back(prefix(f, s.n_cells));

  h5::Steps steps;
  h5::Id file;
  // This rank's rows of a dataset of ROWS.total rows (its count: ROWS.all[rank]).
  const auto put = [&](hid_t g, const std::string& name, h5::Type type, const Rows& rows,
                       int columns, const void* data) {
    h5::write_rows(g, name, type, rows.total, columns, rows.begin,
                   rows.all[static_cast<std::size_t>(s.rank)], data);
  };
  // One count per partition (rank).
  const auto counts = [&](hid_t g, const char* name, const Rows& rows) {
    const auto ranks = static_cast<std::int64_t>(rows.all.size());
    h5::write_rows(g, name, h5::Type::i64, ranks, 1, s.rank, 1,
                   &rows.all[static_cast<std::size_t>(s.rank)]);
  };
  const auto vtk_array = [&](hid_t g, vtkAbstractArray* a, const Rows& rows) {
    const int k = a->GetNumberOfComponents();
    if (auto* ints = vtkIntArray::SafeDownCast(a))
      put(g, a->GetName(), h5::Type::i32, rows, k, ints->GetPointer(0));
    else if (auto* doubles = vtkDoubleArray::SafeDownCast(a))
      put(g, a->GetName(), h5::Type::f64, rows, k, doubles->GetPointer(0));
  };
  const auto field = [&](hid_t g, const Field& f, const Rows& rows) {
    put(g, f.name, h5::Type::f64, rows, f.components, f.data.data());
  };
  steps([&] { file = h5::create_file(tmp, MPI_COMM_WORLD); });
  steps([&] {
    const h5::Id g = h5::create_group(file.get(), "VTKHDF");
    const std::array<std::int64_t, 2> version{1, 0};
    h5::write_attribute(g.get(), "Version", version);
    h5::write_attribute(g.get(), "Type", std::string("UnstructuredGrid"));
    counts(g.get(), "NumberOfPoints", s.point_rows);
    counts(g.get(), "NumberOfCells", s.cell_rows);
    counts(g.get(), "NumberOfConnectivityIds", s.conn_rows);
    put(g.get(), "Points", h5::Type::f64, s.point_rows, 3, s.xyz.data());
    put(g.get(), "Offsets", h5::Type::i64, s.offset_rows, 1, s.offsets.data());
    put(g.get(), "Connectivity", h5::Type::i64, s.conn_rows, 1, s.connectivity.data());
    put(g.get(), "Types", h5::Type::u8, s.cell_rows, 1, s.types.data());
    const h5::Id pd = h5::create_group(g.get(), "PointData");
    for (const auto& a : s.arrays.point) vtk_array(pd.get(), a, s.point_rows);
    for (const Field& f : piece_points) field(pd.get(), f, s.point_rows);
    const h5::Id cd = h5::create_group(g.get(), "CellData");
    for (const auto& a : s.arrays.cell) vtk_array(cd.get(), a, s.cell_rows);
    for (const Field& f : piece_cells) field(cd.get(), f, s.cell_rows);
    // The time, as ParaView names it in field data (the .series has it too).
    const h5::Id fd = h5::create_group(g.get(), "FieldData");
    h5::write_rows(fd.get(), "TimeValue", h5::Type::f64, 1, 1, 0, s.rank == 0 ? 1 : 0, &time);
  });
  steps([&] { file.close(); });
  std::string error = steps.error();
  const bool written = error.empty();  // later errors are lines that name their file
  if (error.empty() && s.rank == 0) {
    try {
      commit_temp_file(path);  // fsync, rename
    } catch (const InputError& e) {
      error = e.what();
    }
    if (error.empty()) {
      std::erase_if(s.series, [&](const auto& e) { return e.second == path.filename().string(); });
      s.series.emplace_back(time, path.filename().string());
      std::string text = "{\n  \"file-series-version\" : \"1.0\",\n  \"files\" : [\n";
      for (std::size_t k = 0; k < s.series.size(); ++k)
        text += fmt::format("    {{ \"name\" : {}, \"time\" : {} }}{}\n",
                            json_string(s.series[k].second), s.series[k].first,
                            k + 1 < s.series.size() ? "," : "");
      text += "  ]\n}\n";
      try {
        write_text_atomic(series_path(), text);
      } catch (const InputError& e) {
        error = e.what();
      }
    }
  }
  error = first_message(error);
  if (error.empty()) return path;
  file = {};
  if (s.rank == 0) {
    std::error_code ec;
    fs::remove(tmp, ec);
  }
  if (written) throw InputError(error);
  throw input_error("cannot write '{}': {}", path.string(), error);
}

}  // namespace scfd::output
