// Helpers for the output tests: fresh scratch directories, small meshes, and reading results
// back with VTK's own XML readers (the tests never trust our writer to read its own files).
#pragma once

#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>

#include <filesystem>
#include <string>
#include <vector>

#include "topology/mesh.hpp"

namespace scfd::output::test {

// An empty directory for one test (removed and recreated) under this process's scratch root in
// the system temp directory; the root is removed at exit when every test passed.
std::filesystem::path fresh_dir(const std::string& name);

// Every file under DIR (recursively) whose name ends in ".tmp".
std::vector<std::string> tmp_files(const std::filesystem::path& dir);

// The unit square as two triangles, built by hand (independent of mesh_io/topology code):
// patches left, right, bottom, top (each one face), one region "domain".
topology::Mesh two_triangles();

// Generated meshes through mesh_io + topology.
topology::Mesh square_mesh(int nx, int ny);
topology::Mesh cube_mesh(int n);

// Reads a .vtu with vtkXMLUnstructuredGridReader; nullptr (and a test failure) on error.
vtkSmartPointer<vtkUnstructuredGrid> read_vtu(const std::filesystem::path& path);

// Reads a .pvtu (and its pieces) with vtkXMLPUnstructuredGridReader; nullptr (and a test
// failure) on error.
vtkSmartPointer<vtkUnstructuredGrid> read_pvtu(const std::filesystem::path& path);

// One <DataSet> of a .pvd, read from its XML text.
struct PvdDataSet {
  double time = 0;
  std::string file;
};
std::vector<PvdDataSet> read_pvd(const std::filesystem::path& path);

std::string read_text(const std::filesystem::path& path);

}  // namespace scfd::output::test
