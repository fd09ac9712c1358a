// `streamcfd partition MESH -n N [-o FILE.vtu]`: reads a mesh, partitions its cells into N parts
// as a run on N ranks would (partition/partition.hpp: METIS k-way on the cell dual graph), prints
// the quality of the partition (edge cut, imbalance, part sizes) and the time it took, and writes
// the mesh with the cell field "part" for ParaView (default: MESH's stem + "-partN.vtu" in the
// current directory). Serial: it needs no mpirun.
#include <fmt/format.h>

#include <filesystem>
#include <string>
#include <vector>

#include "app/commands.hpp"
#include "core/log.hpp"
#include "core/timer.hpp"
#include "mesh_io/gmsh.hpp"
#include "output/mesh_file.hpp"
#include "partition/partition.hpp"
#include "topology/build.hpp"

namespace scfd::app {
namespace {

struct PartitionOptions {
  std::string mesh;
  int parts = 0;
  std::string output;
};

std::filesystem::path output_path(const PartitionOptions& opt) {
  if (!opt.output.empty()) return opt.output;
  return fmt::format("{}-part{}.vtu", std::filesystem::path(opt.mesh).stem().string(), opt.parts);
}

int run_partition(const PartitionOptions& opt) {
  PhaseTimers timers;
  topology::Mesh m;
  {
    ScopedPhase p(timers, "read+topology");
    m = topology::build_mesh(mesh_io::read_gmsh(opt.mesh));
  }
  partition::PartitionQuality q;
  const std::vector<int> part = partition::partition_cells(m, opt.parts, &q);
  timers.add("partition", q.seconds);
  std::filesystem::path written;
  {
    ScopedPhase p(timers, "write");
    const std::vector<real> values(part.begin(), part.end());
    const output::Field field{.name = "part", .components = 1, .data = values};
    written = output::write_mesh_vtu(m, output_path(opt), {}, {&field, 1});
  }
  log::info("mesh       {} ({}D, {} cells, {} interior faces)", opt.mesh, m.dim, q.cells,
            q.interior_faces);
  log::info("parts      {}", q.parts);
  log::info("edge cut   {} faces ({:.2f}% of interior faces)", q.edge_cut, 100 * q.cut_fraction);
  log::info("imbalance  {:.4f} (largest part / mean part)", q.imbalance);
  log::info("cells/part min {} max {}", q.min_cells, q.max_cells);
  std::string phases;
  for (const auto& [name, s] : timers.phases()) phases += fmt::format("{} {:.3f} s, ", name, s);
  phases.resize(phases.size() - 2);
  log::info("time       {}", phases);
  log::info("written    {}", written.string());
  return 0;
}

}  // namespace

Command add_partition_command(CLI::App& app) {
  auto opt = std::make_shared<PartitionOptions>();
  CLI::App* sub = app.add_subcommand(
      "partition", "Partition a mesh's cells for N ranks, report its quality, write part as VTK");
  sub->add_option("mesh", opt->mesh, "Gmsh mesh file (.msh, version 2.2 or 4.1)")->required();
  sub->add_option("-n,--parts", opt->parts, "Number of parts (MPI ranks)")->required();
  sub->add_option("-o,--output", opt->output, "VTK file to write (default: MESH-partN.vtu)");
  return [opt] { return run_partition(*opt); };
}

}  // namespace scfd::app
