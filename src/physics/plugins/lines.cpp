// The lines plugin ([output.lines.NAME]): the flow sampled at `points` equally spaced points of
// a straight line from `from` to `to` (both included), written when the run ends to
// OUTPUT/lines/NAME.csv with the columns s (distance from `from`), x, y, z, u, v, w (0 in 2D)
// and p (density x pressure).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "physics/plugins/csv_file.hpp"
#include "physics/plugins/plugin_list.hpp"
#include "physics/plugins/point_sampler.hpp"

namespace scfd::physics {
namespace {

struct Line {
  std::string name;
  Vec3 from, to;
  int points = 2;
};

Line read_line(const config::Case& c, const std::string& name, int dim) {
  const std::string key = "output.lines." + config::key_segment(name);
  // The name becomes a file name (lines/NAME.csv).
  if (name.empty() || !std::all_of(name.begin(), name.end(), [](char ch) {
        return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-';
      }))
    c.fail(key,
           "a line name may use only letters, digits, '_' and '-' (it names the file "
           "lines/NAME.csv)");
  Line line{name, {}, {}, 2};
  Vec3* ends[2] = {&line.from, &line.to};
  const char* end_names[2] = {".from", ".to"};
  for (int e = 0; e < 2; ++e) {
    const auto xyz = c.require<std::vector<double>>(key + end_names[e]);
    if (static_cast<int>(xyz.size()) != dim)
      c.fail(key + end_names[e],
             fmt::format("needs {} coordinates (the mesh is {}D), got {}", dim, dim, xyz.size()));
    for (int d = 0; d < dim; ++d) (*ends[e])[d] = xyz[static_cast<std::size_t>(d)];
  }
  const long long points = c.get<long long>(key + ".points", 101);
  if (points < 2 || points > 100000)
    c.fail(key + ".points", fmt::format("must be between 2 and 100000, got {}", points));
  line.points = static_cast<int>(points);
  return line;
}

std::vector<Vec3> points_of(const Line& line) {
  std::vector<Vec3> points;
  for (int i = 0; i < line.points; ++i)
    points.push_back(line.from +
                     (static_cast<real>(i) / (line.points - 1)) * (line.to - line.from));
  return points;
}

class Lines final : public Plugin {
 public:
  Lines(const config::Case& c, FlowAccess& flow, const std::vector<Line>& lines,
        const std::filesystem::path& dir)
      : flow_(flow) {
    for (const Line& line : lines) {
      samplers_.emplace_back(c, "output.lines." + line.name + ".from", flow, points_of(line));
      files_.emplace_back(dir / (line.name + ".csv"), "s,x,y,z,u,v,w,p");
    }
  }

  void start(bool /*restarted*/) override {  // written at the end: no history
    for (const CsvFile& f : files_) f.create();
  }

  void finish() override {
    const int dim = flow_.mesh().dim;
    const auto w = static_cast<std::size_t>(dim) + 1;
    for (std::size_t l = 0; l < samplers_.size(); ++l) {
      const std::vector<real> v = samplers_[l].sample(true);
      const std::vector<Vec3>& points = samplers_[l].points();
      std::string text;
      for (std::size_t i = 0; i < points.size(); ++i) {
        const Vec3 x = points[i];
        Vec3 u{};
        for (int d = 0; d < dim; ++d) u[d] = v[i * w + static_cast<std::size_t>(d)];
        text += fmt::format("{:.8g},{:.8g},{:.8g},{:.8g},{:.10g},{:.10g},{:.10g},{:.10g}\n",
                            norm(x - points[0]), x.x, x.y, x.z, u.x, u.y, u.z,
                            v[i * w + static_cast<std::size_t>(dim)]);
      }
      files_[l].append(text);
    }
  }

 private:
  FlowAccess& flow_;
  std::vector<PointSampler> samplers_;
  std::vector<CsvFile> files_;
};

}  // namespace

std::unique_ptr<Plugin> make_lines(const config::Case& c, FlowAccess& flow,
                                   const std::filesystem::path& output_dir) {
  std::vector<Line> lines;
  for (const std::string& name : c.table_keys("output.lines"))
    lines.push_back(read_line(c, name, flow.mesh().dim));
  if (lines.empty()) return nullptr;
  return std::make_unique<Lines>(c, flow, lines, output_dir / "lines");
}

}  // namespace scfd::physics
