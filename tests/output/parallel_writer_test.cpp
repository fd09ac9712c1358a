// Parallel output without MPI: generated meshes cut into rank meshes by partition::extract_local
// (parts by hand: slabs in x, no METIS), one SeriesWriter per rank, pieces and the rank-0 index
// written in the order the run loop uses. The .pvtu read back with vtkXMLPUnstructuredGridReader
// must be the serial result matched through the global ids: every global cell exactly once, with
// its nodes, region, rank and field values; ghost values (set to a sentinel) never written.
// write() with a FirstError runs with one thread per rank, including a rank that fails.
#include <gtest/gtest.h>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkFieldData.h>
#include <vtkIdList.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkStringArray.h>

#include <algorithm>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "core/error.hpp"
#include "output/output_test_util.hpp"
#include "output/series_writer.hpp"
#include "partition/extract.hpp"

namespace scfd::output {
namespace {
namespace fs = std::filesystem;

constexpr real kGhost = -1e30;  // value of entities a piece must not write

struct Decomposition {
  topology::Mesh global;
  std::vector<int> part;  // per global cell
  std::vector<topology::Mesh> local;
};

// NPARTS slabs of equal width in x, by cell centroid.
Decomposition decompose(topology::Mesh global, int nparts) {
  Decomposition d;
  d.global = std::move(global);
  double lo = std::numeric_limits<double>::max(), hi = -lo;
  for (const Vec3& x : d.global.node_x) {
    lo = std::min(lo, static_cast<double>(x.x));
    hi = std::max(hi, static_cast<double>(x.x));
  }
  for (const Vec3& c : d.global.cell_centroid)
    d.part.push_back(std::min(nparts - 1, static_cast<int>((c.x - lo) / (hi - lo) * nparts)));
  for (int r = 0; r < nparts; ++r) d.local.push_back(partition::extract_local(d.global, d.part, r));
  return d;
}

real temperature(const Vec3& x, int step) {
  return x.x + 2 * x.y + 3 * x.z + step;
}
real pressure(index gid, int step) {
  return 0.1 * gid + step / 3.0;
}

struct StepFields {
  std::vector<real> t, u, p;
};

// Fields of a rank mesh as the solver holds them: every local node (nodes of no owned cell get
// kGhost), every local cell (ghosts kGhost) or, with OWNED_CELLS_ONLY, the owned ones only.
StepFields local_fields(const topology::Mesh& m, int step, bool owned_cells_only) {
  std::vector<char> written(static_cast<std::size_t>(m.n_nodes), 0);
  for (std::size_t i = 0; i < static_cast<std::size_t>(m.n_owned_cells * m.cell_width()); ++i)
    written[static_cast<std::size_t>(m.cell_nodes[i])] = 1;
  StepFields f;
  for (std::size_t n = 0; n < written.size(); ++n) {
    const Vec3& x = m.node_x[n];
    const bool w = written[n] != 0;
    f.t.push_back(w ? temperature(x, step) : kGhost);
    f.u.insert(f.u.end(), {w ? x.y : kGhost, w ? -x.x : kGhost, w ? x.z + 1 : kGhost});
  }
  const index n_cells = owned_cells_only ? m.n_owned_cells : m.n_cells;
  for (index c = 0; c < n_cells; ++c)
    f.p.push_back(c < m.n_owned_cells ? pressure(m.cell_gid[static_cast<std::size_t>(c)], step)
                                      : kGhost);
  return f;
}

void write_piece(SeriesWriter& w, const topology::Mesh& m, int step, double time) {
  const StepFields f = local_fields(m, step, w.rank() % 2 == 1);
  const Field points[] = {{"T", 1, f.t}, {"u", 3, f.u}};
  const Field cells[] = {{"p", 1, f.p}};
  EXPECT_EQ(w.write_piece(time, step, points, cells), w.piece_path(step));
}

// Lowest patch index per global node, from the patches' faces.
std::vector<int> expected_node_patch(const topology::Mesh& g) {
  std::vector<int> patch(static_cast<std::size_t>(g.n_nodes), -1);
  for (int p = static_cast<int>(g.patches.size()) - 1; p >= 0; --p)
    for (index f : g.patches[static_cast<std::size_t>(p)].faces)
      for (int k = 0; k < g.face_width(); ++k)
        patch[static_cast<std::size_t>(g.face_nodes[static_cast<std::size_t>(f * g.dim + k)])] = p;
  return patch;
}

vtkDataArray* array(vtkDataSetAttributes* data, const char* name, int components) {
  vtkDataArray* a = data->GetArray(name);
  EXPECT_NE(a, nullptr) << name;
  if (a != nullptr) {
    EXPECT_EQ(a->GetNumberOfComponents(), components) << name;
  }
  return a;
}

void expect_cells(vtkUnstructuredGrid* g, const Decomposition& d, int step) {
  const topology::Mesh& m = d.global;
  ASSERT_EQ(g->GetNumberOfCells(), m.n_cells);
  vtkCellData* cd = g->GetCellData();
  EXPECT_EQ(cd->GetNumberOfArrays(), 4);  // region, rank, cell_id, p
  vtkDataArray *id = array(cd, "cell_id", 1), *rank = array(cd, "rank", 1);
  vtkDataArray *region = array(cd, "region", 1), *p = array(cd, "p", 1);
  vtkDataArray* node_id = array(g->GetPointData(), "node_id", 1);
  ASSERT_TRUE(id && rank && region && p && node_id);
  std::vector<int> seen(static_cast<std::size_t>(m.n_cells), 0);
  vtkNew<vtkIdList> ids;
  for (vtkIdType c = 0; c < g->GetNumberOfCells(); ++c) {
    const auto gid = static_cast<index>(id->GetComponent(c, 0));
    ASSERT_TRUE(gid >= 0 && gid < m.n_cells) << gid;
    const auto k = static_cast<std::size_t>(gid);
    ++seen[k];
    EXPECT_EQ(rank->GetComponent(c, 0), d.part[k]) << "cell " << gid;
    EXPECT_EQ(region->GetComponent(c, 0), m.cell_region[k]) << "cell " << gid;
    EXPECT_EQ(p->GetComponent(c, 0), pressure(gid, step)) << "cell " << gid;
    g->GetCellPoints(c, ids);
    ASSERT_EQ(ids->GetNumberOfIds(), m.cell_width());
    for (int j = 0; j < m.cell_width(); ++j)  // same nodes in the same (oriented) order
      EXPECT_EQ(node_id->GetComponent(ids->GetId(j), 0),
                m.cell_nodes[k * static_cast<std::size_t>(m.cell_width()) + j])
          << "cell " << gid;
  }
  for (std::size_t c = 0; c < seen.size(); ++c) EXPECT_EQ(seen[c], 1) << "cell " << c;
}

void expect_points(vtkUnstructuredGrid* g, const Decomposition& d, int step) {
  const topology::Mesh& m = d.global;
  vtkPointData* pd = g->GetPointData();
  EXPECT_EQ(pd->GetNumberOfArrays(), 4);  // patch, node_id, T, u
  vtkDataArray *id = array(pd, "node_id", 1), *patch = array(pd, "patch", 1);
  vtkDataArray *t = array(pd, "T", 1), *u = array(pd, "u", 3);
  ASSERT_TRUE(id && patch && t && u);
  const std::vector<int> node_patch = expected_node_patch(m);
  std::set<index> covered;
  for (vtkIdType i = 0; i < g->GetNumberOfPoints(); ++i) {
    const auto gid = static_cast<index>(id->GetComponent(i, 0));
    ASSERT_TRUE(gid >= 0 && gid < m.n_nodes) << gid;
    covered.insert(gid);
    const Vec3& x = m.node_x[static_cast<std::size_t>(gid)];
    double y[3];
    g->GetPoint(i, y);
    EXPECT_TRUE(y[0] == x.x && y[1] == x.y && y[2] == x.z) << "node " << gid;
    EXPECT_EQ(t->GetComponent(i, 0), temperature(x, step)) << "node " << gid;
    EXPECT_TRUE(u->GetComponent(i, 0) == x.y && u->GetComponent(i, 1) == -x.x &&
                u->GetComponent(i, 2) == x.z + 1)
        << "node " << gid;
    EXPECT_EQ(patch->GetComponent(i, 0), node_patch[static_cast<std::size_t>(gid)]);
  }
  EXPECT_EQ(covered.size(), static_cast<std::size_t>(m.n_nodes));
}

std::set<std::string> files_in(const fs::path& dir) {
  std::set<std::string> files;
  for (const auto& entry : fs::directory_iterator(dir)) files.insert(entry.path().filename());
  return files;
}

void check_parallel_series(const topology::Mesh& global, int nranks, const std::string& name) {
  const Decomposition d = decompose(global, nranks);
  const fs::path dir = test::fresh_dir(name);
  std::vector<SeriesWriter> writers;
  for (int r = 0; r < nranks; ++r) writers.emplace_back(d.local[r], dir, "heat", r, nranks);
  const int steps[] = {0, 7};
  const double times[] = {0.0, 0.35};
  for (int s = 0; s < 2; ++s) {
    for (int r = 0; r < nranks; ++r) write_piece(writers[r], d.local[r], steps[s], times[s]);
    EXPECT_EQ(writers[0].write_index(times[s], steps[s]),
              dir / fmt::format("heat_{:06d}.pvtu", steps[s]));
  }
  std::set<std::string> expected{"heat.pvd", "heat_000000.pvtu", "heat_000007.pvtu"};
  for (int r = 0; r < nranks; ++r)
    for (int step : steps) expected.insert(fmt::format("heat_{:06d}_{}.vtu", step, r));
  EXPECT_EQ(files_in(dir), expected);

  const std::vector<test::PvdDataSet> sets = test::read_pvd(writers[0].pvd_path());
  ASSERT_EQ(sets.size(), 2u);
  for (int s = 0; s < 2; ++s) {
    EXPECT_EQ(sets[s].file, fmt::format("heat_{:06d}.pvtu", steps[s]));
    EXPECT_EQ(sets[s].time, times[s]);
    vtkSmartPointer<vtkUnstructuredGrid> g = test::read_pvtu(dir / sets[s].file);
    ASSERT_NE(g, nullptr);
    expect_cells(g, d, steps[s]);
    expect_points(g, d, steps[s]);
    vtkDataArray* time = g->GetFieldData()->GetArray("TimeValue");
    ASSERT_NE(time, nullptr);
    EXPECT_EQ(time->GetComponent(0, 0), times[s]);
  }
}

TEST(ParallelSeries, TwoRanks2D) {
  check_parallel_series(test::square_mesh(6, 4), 2, "parallel_2d");
}
TEST(ParallelSeries, ThreeRanks3D) {
  check_parallel_series(test::cube_mesh(3), 3, "parallel_3d");
}

// The boundary pieces together are the serial boundary file: each (patch, face) once, with the
// global face's nodes in order.
TEST(ParallelSeries, BoundaryPieces) {
  const Decomposition d = decompose(test::square_mesh(6, 4), 2);
  const fs::path dir = test::fresh_dir("parallel_boundary");
  SeriesWriter w0(d.local[0], dir, "case", 0, 2), w1(d.local[1], dir, "case", 1, 2);
  EXPECT_EQ(w1.write_boundary_piece(), dir / "case_boundary_1.vtu");
  EXPECT_EQ(w0.write_boundary_piece(), dir / "case_boundary_0.vtu");
  EXPECT_EQ(w0.write_boundary_index(), dir / "case_boundary.pvtu");
  EXPECT_EQ(w0.boundary_path(), dir / "case_boundary.pvtu");
  vtkSmartPointer<vtkUnstructuredGrid> g = test::read_pvtu(dir / "case_boundary.pvtu");
  ASSERT_NE(g, nullptr);
  const topology::Mesh& m = d.global;
  std::multiset<std::pair<int, index>> expected, found;
  for (std::size_t p = 0; p < m.patches.size(); ++p)
    for (index f : m.patches[p].faces) expected.insert({static_cast<int>(p), f});
  vtkCellData* cd = g->GetCellData();
  vtkDataArray *patch = cd->GetArray("patch"), *face = cd->GetArray("face_id");
  vtkDataArray *rank = cd->GetArray("rank"), *node = g->GetPointData()->GetArray("node");
  auto* name = vtkStringArray::SafeDownCast(cd->GetAbstractArray("patch_name"));
  ASSERT_TRUE(patch && face && rank && node && name);
  vtkNew<vtkIdList> ids;
  for (vtkIdType c = 0; c < g->GetNumberOfCells(); ++c) {
    const auto p = static_cast<int>(patch->GetComponent(c, 0));
    const auto f = static_cast<index>(face->GetComponent(c, 0));
    found.insert({p, f});
    EXPECT_EQ(name->GetValue(c), m.patches[static_cast<std::size_t>(p)].name);
    const index c1 = m.face_cells[static_cast<std::size_t>(2 * f)];
    EXPECT_EQ(rank->GetComponent(c, 0), d.part[static_cast<std::size_t>(c1)]);
    g->GetCellPoints(c, ids);
    for (int k = 0; k < m.face_width(); ++k)
      EXPECT_EQ(node->GetComponent(ids->GetId(k), 0),
                m.face_nodes[static_cast<std::size_t>(f * m.face_width() + k)]);
  }
  EXPECT_EQ(found, expected);
}

// FirstError across threads standing in for ranks: returns, once all arrived, the message of the
// lowest rank that has one ("rank r: " before it, as core's first_message writes it).
class ThreadFirstError {
 public:
  explicit ThreadFirstError(int n) : n_(n), messages_(static_cast<std::size_t>(n)) {}
  std::string arrive(int rank, const std::string& message) {
    std::unique_lock lock(mutex_);
    const long generation = generation_;
    messages_[static_cast<std::size_t>(rank)] = message;
    if (++arrived_ == n_) {
      result_.clear();
      for (int r = n_ - 1; r >= 0; --r)
        if (!messages_[static_cast<std::size_t>(r)].empty())
          result_ =
              (r == 0 ? "" : fmt::format("rank {}: ", r)) + messages_[static_cast<std::size_t>(r)];
      arrived_ = 0;
      ++generation_;
      done_.notify_all();
    } else {
      done_.wait(lock, [&] { return generation_ != generation; });
    }
    return result_;
  }
  // The FirstError of rank `rank`.
  FirstError on(int rank) {
    return [this, rank](const std::string& message) { return arrive(rank, message); };
  }

 private:
  int n_;
  std::vector<std::string> messages_;
  std::mutex mutex_;
  std::condition_variable done_;
  long generation_ = 0;
  int arrived_ = 0;
  std::string result_;
};

// Runs BODY(rank) on one thread per rank; returns each rank's InputError text ("" if none).
template <typename Body>
std::vector<std::string> on_ranks(int nranks, Body body) {
  std::vector<std::string> errors(static_cast<std::size_t>(nranks));
  std::vector<std::thread> threads;
  for (int r = 0; r < nranks; ++r)
    threads.emplace_back([&, r] {
      try {
        body(r);
      } catch (const InputError& e) {
        errors[static_cast<std::size_t>(r)] = e.what();
      }
    });
  for (auto& t : threads) t.join();
  return errors;
}

TEST(ParallelSeries, CollectiveWriteSucceedsOrFailsOnEveryRank) {
  const Decomposition d = decompose(test::square_mesh(5, 4), 2);
  const fs::path dir = test::fresh_dir("parallel_collective");
  std::vector<SeriesWriter> w;
  for (int r = 0; r < 2; ++r) w.emplace_back(d.local[r], dir, "run", r, 2);
  ThreadFirstError first_error(2);
  auto write = [&](int r, int step) {
    const StepFields f = local_fields(d.local[r], step, false);
    const Field points[] = {{"T", 1, f.t}};
    const Field cells[] = {{"p", 1, f.p}};
    EXPECT_EQ(w[r].write(0.5 * step, step, points, cells, first_error.on(r)),
              dir / fmt::format("run_{:06d}.pvtu", step));
  };
  std::vector<std::string> errors = on_ranks(2, [&](int r) {
    write(r, 0);
    EXPECT_EQ(w[r].write_boundary(first_error.on(r)), dir / "run_boundary.pvtu");
  });
  EXPECT_EQ(errors, (std::vector<std::string>{"", ""}));
  ASSERT_TRUE(fs::exists(dir / "run_000000.pvtu"));
  ASSERT_TRUE(fs::exists(dir / "run_boundary.pvtu"));

  fs::create_directory(dir / "run_000001_1.vtu.tmp");  // rank 1 cannot write its piece
  errors = on_ranks(2, [&](int r) { write(r, 1); });
  // Both ranks report rank 1's reason, and rank 0's piece, which no index lists, is gone.
  const std::string reason = "cannot write '" + (dir / "run_000001_1.vtu").string() + "'";
  EXPECT_NE(errors[0].find("rank 1: " + reason), std::string::npos) << errors[0];
  EXPECT_NE(errors[1].find(reason), std::string::npos) << errors[1];
  EXPECT_FALSE(fs::exists(dir / "run_000001.pvtu"));
  EXPECT_FALSE(fs::exists(dir / "run_000001_0.vtu"));
  const auto sets = test::read_pvd(w[0].pvd_path());
  ASSERT_EQ(sets.size(), 1u);
  EXPECT_EQ(sets[0].file, "run_000000.pvtu");
}

TEST(ParallelSeriesDeathTest, IndexOnRankZeroAfterItsPiece) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const topology::Mesh m = test::two_triangles();
  SeriesWriter w0(m, fs::temp_directory_path(), "scfd_output_death_test", 0, 2);
  SeriesWriter w1(m, fs::temp_directory_path(), "scfd_output_death_test", 1, 2);
  EXPECT_DEATH(w0.write(0, 0, {}, {}), "needs a FirstError");
  EXPECT_DEATH(w1.write_index(0, 0), "write_index called on rank 1");
  EXPECT_DEATH(w0.write_index(0, 3), "rank 0's last piece is step -1");
  EXPECT_DEATH(w0.write_boundary_index(), "before rank 0's boundary piece");
  EXPECT_DEATH(SeriesWriter(m, fs::temp_directory_path(), "x", 2, 2), "rank 2 of 2");
}

}  // namespace
}  // namespace scfd::output
