// SeriesWriter (see series_writer.hpp): converts this rank's owned cells to a vtkUnstructuredGrid
// once, then per output time attaches the caller's fields (zero-copy views where the piece uses
// the data as it is, gathered copies otherwise), writes the piece, and on rank 0 the .pvtu index
// and the .pvd time series.
#include "output/series_writer.hpp"

#include <fmt/format.h>
#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkInformation.h>
#include <vtkPointData.h>
#include <vtkPoints.h>

#include <exception>
#include <fstream>
#include <numeric>
#include <set>
#include <sstream>
#include <system_error>
#include <vector>

#include "core/error.hpp"
#include "output/atomic_file.hpp"
#include "output/pvd.hpp"
#include "output/pvtu.hpp"
#include "output/vtk_grid.hpp"
#include "output/vtu_file.hpp"

namespace scfd::output {
namespace fs = std::filesystem;

struct SeriesWriter::Impl {
  const topology::Mesh* mesh = nullptr;
  fs::path dir;
  std::string basename;
  int rank = 0, nranks = 1;
  index n_cells = 0;         // owned cells: the piece's cells are [0, n_cells)
  std::vector<index> nodes;  // local nodes of the piece, ascending: grid point i is nodes[i]
  bool all_nodes = false;    // nodes is 0..n_nodes-1: point fields are viewed, not gathered
  vtkSmartPointer<vtkUnstructuredGrid> grid;                    // points + cells, built once
  std::vector<vtkSmartPointer<vtkAbstractArray>> point_arrays;  // patch, node_id
  std::vector<vtkSmartPointer<vtkAbstractArray>> cell_arrays;   // region, rank, cell_id
  vtkSmartPointer<vtkDoubleArray> time_value;
  std::vector<PvdEntry> series;  // rank 0
  int piece_step = -1;           // rank 0: step and layout of its last piece, for write_index
  PieceLayout piece_layout;
  bool boundary_piece_written = false;  // rank 0: and its layout, for write_boundary_index
  Compression compression = Compression::lz4;
  PieceLayout boundary_layout;

  // BASENAME_<STEM> plus "_<rank>" for a piece of a parallel output, then EXTENSION.
  std::string file_name(const std::string& stem, int piece, const char* extension) const {
    if (piece < 0) return fmt::format("{}{}{}", basename, stem, extension);
    return fmt::format("{}{}_{}{}", basename, stem, piece, extension);
  }
  std::vector<std::string> piece_names(const std::string& stem) const {
    std::vector<std::string> names;
    for (int r = 0; r < nranks; ++r) names.push_back(file_name(stem, r, ".vtu"));
    return names;
  }
};

namespace {

std::string step_stem(int step) {
  return fmt::format("_{:06d}", step);
}
const std::string kBoundaryStem = "_boundary";

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

// Drops the arrays of GRID on scope exit: they may view the caller's data.
struct ClearArrays {
  vtkUnstructuredGrid* grid;
  ~ClearArrays() {
    grid->GetPointData()->Initialize();
    grid->GetCellData()->Initialize();
  }
};

template <typename F>
std::exception_ptr attempt(F&& f) {
  try {
    f();
    return nullptr;
  } catch (...) {
    return std::current_exception();
  }
}

// Without FIRST_ERROR, rethrows this rank's FAILURE. With it, agrees with every rank first: a
// rank with an error of its own rethrows it, every other rank throws the first failing rank's
// message (an InputError), so rank 0 can report the reason.
void agree(const FirstError& first_error, const std::exception_ptr& failure) {
  std::string local;
  if (failure) {
    try {
      std::rethrow_exception(failure);
    } catch (const std::exception& e) {
      local = e.what();
    } catch (...) {
      local = "unknown error";
    }
  }
  const std::string first = first_error ? first_error(local) : local;
  if (failure) std::rethrow_exception(failure);
  if (!first.empty()) throw InputError(first);
}

// Runs WRITE (a piece, then rank 0's index, each agreed on), and where any rank failed removes
// this rank's file PIECE: no index lists it, and a full disk needs every byte back.
template <typename Write, typename Index>
void write_collectively(const FirstError& first_error, const fs::path& piece, Write&& write,
                        Index&& index) {
  try {
    agree(first_error, attempt(write));
    agree(first_error, attempt(index));
  } catch (...) {
    std::error_code ignored;
    fs::remove(piece, ignored);
    throw;
  }
}

}  // namespace

SeriesWriter::SeriesWriter(const topology::Mesh& mesh, fs::path dir, std::string basename, int rank,
                           int nranks)
    : impl_(std::make_unique<Impl>()) {
  SCFD_CHECK(nranks >= 1 && rank >= 0 && rank < nranks, "rank {} of {}", rank, nranks);
  check_basename(basename);
  make_output_directory(dir);
  Impl& s = *impl_;
  s.mesh = &mesh;
  s.dir = std::move(dir);
  s.basename = std::move(basename);
  s.rank = rank;
  s.nranks = nranks;
  s.n_cells = owned_cells(mesh);
  s.nodes = nodes_of_cells(mesh, s.n_cells);
  s.all_nodes = s.nodes.size() == static_cast<std::size_t>(mesh.n_nodes);
  s.grid = make_cell_grid(mesh, s.n_cells, s.nodes);
  SCFD_CHECK(mesh.cell_region.size() == static_cast<std::size_t>(mesh.n_cells),
             "cell_region has {} entries", mesh.cell_region.size());
  PieceArrays arrays = piece_arrays(mesh, s.nodes, s.n_cells, rank);
  s.point_arrays = std::move(arrays.point);
  s.cell_arrays = std::move(arrays.cell);
  s.time_value = vtkSmartPointer<vtkDoubleArray>::New();
  s.time_value->SetName("TimeValue");  // ParaView's name for a dataset's time
  s.time_value->SetNumberOfValues(1);
  auto field_data = vtkSmartPointer<vtkFieldData>::New();
  field_data->AddArray(s.time_value);
  field_data->AddArray(string_array("region_names", region_names(mesh)));
  field_data->AddArray(string_array("patch_names", patch_names(mesh)));
  s.grid->SetFieldData(field_data);
}

SeriesWriter::~SeriesWriter() = default;
SeriesWriter::SeriesWriter(SeriesWriter&&) noexcept = default;
SeriesWriter& SeriesWriter::operator=(SeriesWriter&&) noexcept = default;

int SeriesWriter::rank() const {
  return impl_->rank;
}
int SeriesWriter::nranks() const {
  return impl_->nranks;
}

void SeriesWriter::set_compression(Compression c) {
  impl_->compression = c;
}

void SeriesWriter::continue_series(double time) {
  std::ifstream in(pvd_path());
  if (!in) return;
  std::stringstream text;
  text << in.rdbuf();
  for (PvdEntry& e : parse_pvd(text.str()))
    if (e.time <= time) add_or_replace(impl_->series, std::move(e));
}

fs::path SeriesWriter::pvd_path() const {
  return impl_->dir / (impl_->basename + ".pvd");
}

fs::path SeriesWriter::dataset_path(int step) const {
  const Impl& s = *impl_;
  return s.dir / s.file_name(step_stem(step), -1, s.nranks > 1 ? ".pvtu" : ".vtu");
}

fs::path SeriesWriter::piece_path(int step) const {
  const Impl& s = *impl_;
  return s.dir / s.file_name(step_stem(step), s.nranks > 1 ? s.rank : -1, ".vtu");
}

fs::path SeriesWriter::boundary_path() const {
  const Impl& s = *impl_;
  return s.dir / s.file_name(kBoundaryStem, -1, s.nranks > 1 ? ".pvtu" : ".vtu");
}

fs::path SeriesWriter::write(double time, int step, std::span<const Field> point_fields,
                             std::span<const Field> cell_fields, const FirstError& first_error) {
  SCFD_CHECK(first_error || impl_->nranks == 1,
             "SeriesWriter::write on {} ranks needs a FirstError", impl_->nranks);
  write_collectively(
      first_error, piece_path(step), [&] { write_piece(time, step, point_fields, cell_fields); },
      [&] {
        if (impl_->rank == 0) write_index(time, step);
      });
  return dataset_path(step);
}

fs::path SeriesWriter::write_piece(double time, int step, std::span<const Field> point_fields,
                                   std::span<const Field> cell_fields) {
  Impl& s = *impl_;
  SCFD_CHECK(step >= 0, "output step {}", step);
  std::set<std::string> names{"region", "rank", "cell_id", "patch", "node_id"};
  check_fields(point_fields, s.mesh->n_nodes, -1, "point", names);
  check_fields(cell_fields, s.mesh->n_cells, s.n_cells, "cell", names);

  vtkPointData* points = s.grid->GetPointData();
  vtkCellData* cells = s.grid->GetCellData();
  const ClearArrays clear{s.grid};
  points->Initialize();
  cells->Initialize();
  // The arrays kept between writes drop what the last write cached in their information (the
  // value ranges): with it the XML writer closes an array with "></DataArray>" instead of "/>",
  // so equal data would not give equal files (a restarted run against an uninterrupted one).
  for (const auto& a : s.point_arrays) {
    a->GetInformation()->Clear();
    points->AddArray(a);
  }
  for (const auto& a : s.cell_arrays) {
    a->GetInformation()->Clear();
    cells->AddArray(a);
  }
  s.time_value->GetInformation()->Clear();
  s.grid->GetPoints()->GetData()->GetInformation()->Clear();
  std::vector<std::vector<real>> store;  // point fields gathered to the piece's nodes
  store.reserve(point_fields.size());
  for (const Field& f : point_fields)
    points->AddArray(real_array_view(s.all_nodes ? f : gathered(f, s.nodes, store)));
  for (const Field& f : cell_fields) cells->AddArray(real_array_view(prefix(f, s.n_cells)));
  s.time_value->SetValue(0, time);
  s.time_value->Modified();  // SetValue does not; the writer's cached range would be stale
  s.grid->Modified();

  const fs::path path = piece_path(step);
  PieceLayout layout = layout_of(s.grid);
  write_vtu(s.grid, path, s.compression);
  if (s.rank == 0) {
    s.piece_step = step;
    s.piece_layout = std::move(layout);
  }
  return path;
}

fs::path SeriesWriter::write_index(double time, int step) {
  Impl& s = *impl_;
  SCFD_CHECK(s.rank == 0, "write_index called on rank {}", s.rank);
  SCFD_CHECK(s.piece_step == step, "write_index of step {}, but rank 0's last piece is step {}",
             step, s.piece_step);
  const fs::path dataset = dataset_path(step);
  if (s.nranks > 1)
    write_text_atomic(dataset, pvtu_text(s.piece_layout, s.piece_names(step_stem(step))));
  add_or_replace(s.series, PvdEntry{time, dataset.filename().string(), 0});
  write_text_atomic(pvd_path(), pvd_text(s.series));
  return dataset;
}

fs::path SeriesWriter::write_boundary(const FirstError& first_error) {
  SCFD_CHECK(first_error || impl_->nranks == 1,
             "SeriesWriter::write_boundary on {} ranks needs a FirstError", impl_->nranks);
  write_collectively(
      first_error, boundary_piece_path(), [&] { write_boundary_piece(); },
      [&] {
        if (impl_->rank == 0) write_boundary_index();
      });
  return boundary_path();
}

fs::path SeriesWriter::boundary_piece_path() const {
  const Impl& s = *impl_;
  return s.dir / s.file_name(kBoundaryStem, s.nranks > 1 ? s.rank : -1, ".vtu");
}

fs::path SeriesWriter::write_boundary_piece() {
  Impl& s = *impl_;
  const fs::path path = boundary_piece_path();
  vtkSmartPointer<vtkUnstructuredGrid> grid = make_boundary_grid(*s.mesh, s.rank);
  write_vtu(grid, path, s.compression);
  if (s.rank == 0) {
    s.boundary_layout = layout_of(grid);
    s.boundary_piece_written = true;
  }
  return path;
}

fs::path SeriesWriter::write_boundary_index() {
  Impl& s = *impl_;
  SCFD_CHECK(s.rank == 0, "write_boundary_index called on rank {}", s.rank);
  SCFD_CHECK(s.boundary_piece_written, "write_boundary_index before rank 0's boundary piece");
  const fs::path path = boundary_path();
  if (s.nranks > 1)
    write_text_atomic(path, pvtu_text(s.boundary_layout, s.piece_names(kBoundaryStem)));
  return path;
}

}  // namespace scfd::output
