// The probes plugin ([probes]): the velocity (and the pressure) at fixed points after every
// step, to OUTPUT/probes.csv, and at the end as the figures probeN_ux, probeN_uy(, probeN_uz,
// probeN_p) of the run summary. probes.pressure defaults to true, except where the pressure
// costs a solve per sample (ns-exact).
#include <fmt/format.h>

#include "physics/plugins/csv_file.hpp"
#include "physics/plugins/plugin_list.hpp"
#include "physics/plugins/point_sampler.hpp"

namespace scfd::physics {
namespace {

constexpr const char* kAxis[3] = {"x", "y", "z"};

class Probes final : public Plugin {
 public:
  Probes(const config::Case& c, FlowAccess& flow, std::vector<Vec3> points, bool pressure,
         const std::filesystem::path& file)
      : flow_(flow),
        pressure_(pressure),
        sampler_(c, "probes.x", flow, std::move(points)),
        csv_(file, header()) {}

  void start(bool restarted) override {
    if (restarted)
      csv_.resume(flow_.step());
    else
      csv_.create();
  }

  void after_step() override {
    std::string line = fmt::format("{},{:.10g}", flow_.step(), flow_.time());
    for (real x : sampler_.sample(pressure_)) line += fmt::format(",{:.10g}", x);
    csv_.append(line + "\n");
  }

  std::vector<std::pair<std::string, double>> figures() override {
    const std::vector<real> v = sampler_.sample(pressure_);
    const int dim = flow_.mesh().dim;
    const std::size_t w = static_cast<std::size_t>(dim) + (pressure_ ? 1 : 0);
    std::vector<std::pair<std::string, double>> out;
    for (std::size_t i = 0; i < sampler_.points().size(); ++i) {
      for (int d = 0; d < dim; ++d)
        out.emplace_back(fmt::format("probe{}_u{}", i, kAxis[d]), v[i * w + d]);
      if (pressure_) out.emplace_back(fmt::format("probe{}_p", i), v[i * w + dim]);
    }
    return out;
  }

 private:
  std::string header() const {
    std::string h = "step,time";
    for (std::size_t i = 0; i < sampler_.points().size(); ++i) {
      for (int d = 0; d < flow_.mesh().dim; ++d) h += fmt::format(",p{}_u{}", i, kAxis[d]);
      if (pressure_) h += fmt::format(",p{}_p", i);
    }
    return h;
  }

  FlowAccess& flow_;
  bool pressure_;
  PointSampler sampler_;
  CsvFile csv_;
};

}  // namespace

std::unique_ptr<Plugin> make_probes(const config::Case& c, FlowAccess& flow,
                                    const std::filesystem::path& output_dir) {
  const int dim = flow.mesh().dim;
  const bool pressure = c.get<bool>("probes.pressure", !flow.pressure_costs_a_solve());
  std::vector<double> xyz[3];
  for (int d = 0; d < dim; ++d)
    xyz[d] = c.require<std::vector<double>>(std::string("probes.") + kAxis[d]);
  for (int d = 1; d < dim; ++d)
    if (xyz[d].size() != xyz[0].size())
      c.fail(std::string("probes.") + kAxis[d],
             fmt::format("has {} values, probes.x has {}", xyz[d].size(), xyz[0].size()));
  std::vector<Vec3> points;
  for (std::size_t i = 0; i < xyz[0].size(); ++i)
    points.push_back({xyz[0][i], xyz[1][i], dim == 3 ? xyz[2][i] : 0.0});
  if (points.empty()) return nullptr;
  return std::make_unique<Probes>(c, flow, std::move(points), pressure, output_dir / "probes.csv");
}

}  // namespace scfd::physics
