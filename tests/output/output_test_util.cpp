// Helpers for the output tests (see output_test_util.hpp).
#include "output/output_test_util.hpp"

#include <gtest/gtest.h>
#include <vtkErrorCode.h>
#include <vtkNew.h>
#include <vtkXMLPUnstructuredGridReader.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <unistd.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "mesh_io/generate.hpp"
#include "topology/build.hpp"

namespace scfd::output::test {
namespace fs = std::filesystem;

namespace {

// One scratch root per test process (ctest runs tests of several build dirs, and in parallel),
// removed at exit unless a test failed, so its files can be inspected.
fs::path scratch_root() {
  static const fs::path root =
      fs::temp_directory_path() / ("scfd_output_test_" + std::to_string(::getpid()));
  return root;
}

class RemoveScratch : public testing::Environment {
 public:
  void TearDown() override {
    if (!testing::UnitTest::GetInstance()->Passed()) return;
    std::error_code ignored;
    fs::remove_all(scratch_root(), ignored);
  }
};

[[maybe_unused]] testing::Environment* const remove_scratch =
    testing::AddGlobalTestEnvironment(new RemoveScratch);

}  // namespace

fs::path fresh_dir(const std::string& name) {
  fs::path dir = scratch_root() / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::vector<std::string> tmp_files(const fs::path& dir) {
  std::vector<std::string> found;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.path().extension() == ".tmp") found.push_back(entry.path().string());
  return found;
}

topology::Mesh two_triangles() {
  topology::Mesh m;
  m.source = "two_triangles";
  m.dim = 2;
  m.n_nodes = 4;
  m.n_cells = 2;
  m.n_faces = 5;
  m.n_interior_faces = 1;
  m.node_x = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  m.cell_nodes = {0, 1, 2, 0, 2, 3};
  m.cell_region = {0, 0};
  m.face_nodes = {0, 2, 0, 1, 1, 2, 2, 3, 3, 0};  // interior, bottom, right, top, left
  m.face_patch = {-1, 2, 1, 3, 0};
  m.patches = {{"left", 1, {4}, {4}, {0, 3}},
               {"right", 2, {2}, {2}, {1, 2}},
               {"bottom", 3, {1}, {1}, {0, 1}},
               {"top", 4, {3}, {3}, {2, 3}}};
  m.regions = {{"domain", 10, 2}};
  return m;
}

topology::Mesh square_mesh(int nx, int ny) {
  return topology::build_mesh(mesh_io::generate_square(nx, ny, 0.2, 7));
}

topology::Mesh cube_mesh(int n) {
  return topology::build_mesh(mesh_io::generate_cube(n, n, n, 0.2, 7));
}

namespace {
// Reads PATH with an XML reader of type Reader; a read error fails the test and returns null.
template <typename Reader>
vtkSmartPointer<vtkUnstructuredGrid> read_with(const fs::path& path) {
  vtkNew<Reader> reader;
  reader->SetFileName(path.c_str());
  reader->Update();
  if (reader->GetErrorCode() != vtkErrorCode::NoError || reader->GetOutput() == nullptr) {
    ADD_FAILURE() << "VTK could not read " << path;
    return nullptr;
  }
  vtkSmartPointer<vtkUnstructuredGrid> grid = reader->GetOutput();
  return grid;
}
}  // namespace

vtkSmartPointer<vtkUnstructuredGrid> read_vtu(const fs::path& path) {
  return read_with<vtkXMLUnstructuredGridReader>(path);
}

vtkSmartPointer<vtkUnstructuredGrid> read_pvtu(const fs::path& path) {
  return read_with<vtkXMLPUnstructuredGridReader>(path);
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<PvdDataSet> read_pvd(const fs::path& path) {
  const std::string text = read_text(path);
  const std::regex dataset(R"re(<DataSet\s+timestep="([^"]*)"[^>]*\sfile="([^"]*)"\s*/>)re");
  std::vector<PvdDataSet> sets;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), dataset);
       it != std::sregex_iterator(); ++it)
    sets.push_back({std::stod((*it)[1].str()), (*it)[2].str()});
  return sets;
}

}  // namespace scfd::output::test
