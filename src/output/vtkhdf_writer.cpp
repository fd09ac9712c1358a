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

#include "core/agree.hpp"
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
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  r.all.resize(static_cast<std::size_t>(ranks));
  MPI_Allgather(&mine, 1, MPI_INT64_T, r.all.data(), 1, MPI_INT64_T, MPI_COMM_WORLD);
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
  vtkSmartPointer<vtkUnstructuredGrid> grid;
  PieceArrays arrays;
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
  s.grid = make_cell_grid(mesh, s.n_cells, s.nodes);
  s.arrays = piece_arrays(mesh, s.nodes, s.n_cells, s.rank);
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

  // This rank's rows of every dataset.
  vtkPoints* points = s.grid->GetPoints();
  vtkCellArray* cells = s.grid->GetCells();
  const auto np = static_cast<std::int64_t>(points->GetNumberOfPoints());
  const auto nc = static_cast<std::int64_t>(s.n_cells);
  std::vector<double> xyz(static_cast<std::size_t>(3 * np));
  for (std::int64_t i = 0; i < np; ++i) points->GetPoint(i, &xyz[static_cast<std::size_t>(3 * i)]);
  std::vector<std::int64_t> offsets, connectivity;
  for (vtkIdType k = 0; k <= cells->GetNumberOfCells(); ++k)
    offsets.push_back(cells->GetOffsetsArray()->GetComponent(k, 0));
  for (vtkIdType k = 0; k < cells->GetNumberOfConnectivityIds(); ++k)
    connectivity.push_back(
        static_cast<std::int64_t>(cells->GetConnectivityArray()->GetComponent(k, 0)));
  std::vector<std::uint8_t> types(static_cast<std::size_t>(nc),
                                  static_cast<std::uint8_t>(m.dim == 3 ? VTK_TETRA : VTK_TRIANGLE));
  const Rows point_rows = gather_rows(np), cell_rows = gather_rows(nc),
             conn_rows = gather_rows(static_cast<std::int64_t>(connectivity.size())),
             offset_rows = gather_rows(nc + 1);
  std::vector<std::vector<real>> store;
  std::vector<Field> piece_points, piece_cells;
  for (const Field& f : point_fields) piece_points.push_back(gathered(f, s.nodes, store));
  for (const Field& f : cell_fields) piece_cells.push_back(prefix(f, s.n_cells));

  std::string error;
  h5::Id file;
  const auto step_ok = [&](const auto& part) {
    if (error.empty()) {
      std::string mine;
      try {
        part();
      } catch (const h5::Error& e) {
        mine = e.what();
      }
      error = first_message(mine);
    }
  };
  // One count per partition (rank).
  const auto counts = [&](hid_t g, const char* name, std::int64_t mine) {
    const int ranks = static_cast<int>(point_rows.all.size());
    h5::write_rows(g, name, h5::Type::i64, ranks, 1, s.rank, 1, &mine);
  };
  const auto vtk_array = [&](hid_t g, vtkAbstractArray* a, const Rows& rows) {
    const int k = a->GetNumberOfComponents();
    if (auto* ints = vtkIntArray::SafeDownCast(a))
      h5::write_rows(g, a->GetName(), h5::Type::i32, rows.total, k, rows.begin,
                     ints->GetNumberOfTuples(), ints->GetPointer(0));
    else if (auto* doubles = vtkDoubleArray::SafeDownCast(a))
      h5::write_rows(g, a->GetName(), h5::Type::f64, rows.total, k, rows.begin,
                     doubles->GetNumberOfTuples(), doubles->GetPointer(0));
  };
  const auto field = [&](hid_t g, const Field& f, const Rows& rows) {
    h5::write_rows(g, f.name, h5::Type::f64, rows.total, f.components, rows.begin,
                   static_cast<std::int64_t>(f.data.size()) / f.components, f.data.data());
  };
  step_ok([&] { file = h5::create_file(tmp, MPI_COMM_WORLD); });
  step_ok([&] {
    const h5::Id g = h5::create_group(file.get(), "VTKHDF");
    const std::array<std::int64_t, 2> version{1, 0};
    h5::write_attribute(g.get(), "Version", version);
    h5::write_attribute(g.get(), "Type", std::string("UnstructuredGrid"));
    counts(g.get(), "NumberOfPoints", np);
    counts(g.get(), "NumberOfCells", nc);
    counts(g.get(), "NumberOfConnectivityIds", static_cast<std::int64_t>(connectivity.size()));
    h5::write_rows(g.get(), "Points", h5::Type::f64, point_rows.total, 3, point_rows.begin, np,
                   xyz.data());
    h5::write_rows(g.get(), "Offsets", h5::Type::i64, offset_rows.total, 1, offset_rows.begin,
                   nc + 1, offsets.data());
    h5::write_rows(g.get(), "Connectivity", h5::Type::i64, conn_rows.total, 1, conn_rows.begin,
                   static_cast<std::int64_t>(connectivity.size()), connectivity.data());
    h5::write_rows(g.get(), "Types", h5::Type::u8, cell_rows.total, 1, cell_rows.begin, nc,
                   types.data());
    const h5::Id pd = h5::create_group(g.get(), "PointData");
    for (const auto& a : s.arrays.point) vtk_array(pd.get(), a, point_rows);
    for (const Field& f : piece_points) field(pd.get(), f, point_rows);
    const h5::Id cd = h5::create_group(g.get(), "CellData");
    for (const auto& a : s.arrays.cell) vtk_array(cd.get(), a, cell_rows);
    for (const Field& f : piece_cells) field(cd.get(), f, cell_rows);
    // The time, as ParaView names it in field data (the .series has it too).
    const h5::Id fd = h5::create_group(g.get(), "FieldData");
    h5::write_rows(fd.get(), "TimeValue", h5::Type::f64, 1, 1, 0, s.rank == 0 ? 1 : 0, &time);
  });
  step_ok([&] { file.close(); });
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
