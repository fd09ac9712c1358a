// `streamcfd info MESH`: reads a mesh, builds its topology and geometry, and reports entity
// counts, patches and regions with their sizes, the domain volume, the element quality range,
// how far the circumcentric dual is from well-centred (topology::dual_stats),
// the bytes per cell of the topology and the time of each phase. `--json` prints the same as one
// JSON object for scripts.
#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "app/commands.hpp"
#include "config/case.hpp"
#include "core/error.hpp"
#include "core/json.hpp"
#include "core/log.hpp"
#include "core/timer.hpp"
#include "mesh_io/gmsh.hpp"
#include "topology/build.hpp"
#include "topology/quality.hpp"

namespace scfd::app {
namespace {

struct InfoOptions {
  std::string mesh;
  bool json = false;
  bool no_renumber = false;
};

int run_info(const InfoOptions& opt) {
  PhaseTimers timers;
  Timer total;
  mesh_io::RawMesh raw;
  {
    ScopedPhase p(timers, "read");
    raw = mesh_io::read_gmsh(opt.mesh);
  }
  std::vector<std::string> notes = raw.notes;
  topology::Mesh m;
  {
    ScopedPhase p(timers, "topology+geometry");
    m = topology::build_mesh(raw, {.renumber = !opt.no_renumber}, &notes);
  }
  raw = {};
  std::vector<real> q = topology::cell_quality(m);
  auto [qmin, qmax] = std::minmax_element(q.begin(), q.end());
  const topology::DualStats dual = topology::dual_stats(m);
  const auto percent = [&](index n) { return 100.0 * static_cast<double>(n) / dual.faces; };
  real volume = 0;
  for (real v : m.cell_volume) volume += v;
  const double bytes_per_cell = static_cast<double>(m.bytes()) / m.n_cells;
  const double seconds = total.seconds();

  if (opt.json) {
    std::string patches, regions, phases;
    for (const auto& p : m.patches)
      patches +=
          fmt::format("{}{{\"name\": {}, \"tag\": {}, \"faces\": {}}}", patches.empty() ? "" : ", ",
                      json::string(p.name), p.tag, p.faces.size());
    for (const auto& r : m.regions)
      regions += fmt::format("{}{{\"name\": {}, \"tag\": {}, \"cells\": {}}}",
                             regions.empty() ? "" : ", ", json::string(r.name), r.tag, r.n_cells);
    for (const auto& [name, s] : timers.phases())
      phases += fmt::format("{}\"{}\": {:.6f}", phases.empty() ? "" : ", ", name, s);
    fmt::print(
        "{{\"mesh\": {}, \"dim\": {}, \"nodes\": {}, \"edges\": {}, \"faces\": {}, "
        "\"boundary_faces\": {}, \"cells\": {}, \"euler_characteristic\": {}, \"volume\": {:.17g}, "
        "\"quality_min\": {:.6g}, \"quality_max\": {:.6g}, \"dual_negative_faces\": {}, "
        "\"topology_bytes\": {}, "
        "\"bytes_per_cell\": {:.1f}, \"patches\": [{}], \"regions\": [{}], \"seconds\": {{{}, "
        "\"total\": {:.6f}}}}}\n",
        json::string(opt.mesh), m.dim, m.n_nodes, m.n_edges, m.n_faces, m.n_boundary_faces(),
        m.n_cells, m.euler_characteristic(), volume, *qmin, *qmax, dual.negative, m.bytes(),
        bytes_per_cell, patches, regions, phases, seconds);
    return 0;
  }
  log::info("mesh       {}", opt.mesh);
  for (const auto& n : notes) log::info("note       {}", n);
  log::info("dimension  {}D ({})", m.dim, m.dim == 2 ? "triangles" : "tetrahedra");
  log::info("entities   {} nodes, {} edges, {} faces ({} on the boundary), {} cells", m.n_nodes,
            m.n_edges, m.n_faces, m.n_boundary_faces(), m.n_cells);
  log::info("{}     {:.10g}", m.dim == 2 ? "area  " : "volume", volume);
  log::info("quality    radius ratio {:.4f} .. {:.4f} (1 = equilateral)", *qmin, *qmax);
  log::info("dual       {} faces ({:.2f}%) non-Delaunay (negative circumcentric dual length){}",
            dual.negative, percent(dual.negative),
            m.dim == 3 ? "; the 3D Navier-Stokes scheme does not use that dual" : "");
  log::info("memory     {:.1f} MiB topology+geometry, {:.0f} bytes per cell",
            static_cast<double>(m.bytes()) / (1 << 20), bytes_per_cell);
  // Names as a case file's keys write them ([boundary.'side walls']).
  log::info("patches    {}", m.patches.size());
  for (const auto& p : m.patches)
    log::info("  {:<24} tag {:>4}  {} faces", printable(config::key_segment(p.name), 60), p.tag,
              p.faces.size());
  log::info("regions    {}", m.regions.size());
  for (const auto& r : m.regions)
    log::info("  {:<24} tag {:>4}  {} cells", printable(config::key_segment(r.name), 60), r.tag,
              r.n_cells);
  std::string phases;
  for (const auto& [name, s] : timers.phases()) phases += fmt::format("{} {:.3f} s, ", name, s);
  log::info("time       {}total {:.3f} s", phases, seconds);
  return 0;
}

}  // namespace

Command add_info_command(CLI::App& app) {
  auto opt = std::make_shared<InfoOptions>();
  CLI::App* sub = app.add_subcommand("info",
                                     "Read a mesh and report its entities, patches, "
                                     "volume, quality and memory");
  sub->add_option("mesh", opt->mesh, "Gmsh mesh file (.msh, version 2.2 or 4.1)")->required();
  sub->add_flag("--json", opt->json, "Print one JSON object instead of text");
  sub->add_flag("--no-renumber", opt->no_renumber, "Keep the file's entity order");
  return [opt] { return run_info(*opt); };
}

}  // namespace scfd::app
