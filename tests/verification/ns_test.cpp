// Verification of the ns-classical model through the documented command
// (`streamcfd run CASE --set ...`):
//  - plane Poiseuille flow (cases/poiseuille2d): the steady discrete solution approaches the
//    exact parabola with an observed order >= 1.4 in the discrete L2 norm of the face-normal
//    velocity over the two committed channel meshes (about 1.6 measured; 2.1 on the next
//    refinement, h = 0.025), and D U stays at solver tolerance;
//  - Taylor–Green vortex (cases/taylor-green2d, exact solution as time-dependent boundary data)
//    on square-1..3 with dt halved with h: observed L2 order >= 1.7 (2.1, 2.2 measured);
//  - Kovasznay flow (cases/kovasznay, Re = 40) on the two channel meshes: order >= 1.7 (2.1);
//  - the lid-driven cavity at Re = 100 (cases/cavity2d, committed mesh cavity-2.msh): the
//    centreline velocities u(y) at x = 0.5 and v(x) at y = 0.5 lie within 0.02 of Ghia, Ghia &
//    Shin (1982) at all 30 interior points of their tables (about 0.010 measured at t = 10),
//    read from the centrelines the case writes (output/lines/vertical.csv, horizontal.csv).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/json_number.hpp"
#include "common/run_command.hpp"

namespace scfd {
namespace {

const std::string kSource = SCFD_SOURCE_DIR;

// Runs CASE and returns its summary; `lines` (if given) receives the contents of the sampled
// lines output/lines/NAME.csv named in it.
std::string run_case(const std::string& case_file, const std::string& sets,
                     std::vector<std::pair<std::string, std::string>>* lines = nullptr) {
  const auto out = test::fresh_directory("ns");
  const auto r = test::run_command(std::string(SCFD_BINARY) + " run " + kSource + "/" + case_file +
                                   " --quiet --set output.directory=" + out.string() + " " + sets);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::string json = test::slurp(out / "ns-classical_summary.json");
  if (lines != nullptr)
    for (auto& [name, text] : *lines) text = test::slurp(out / "lines" / (name + ".csv"));
  std::filesystem::remove_all(out);
  return json;
}

TEST(NsVerification, PoiseuilleConvergesToTheParabola) {
  std::vector<double> h, err;
  for (const char* mesh : {"channel-1.msh", "channel-2.msh"}) {
    // Start from the exact profile: the run then only relaxes to the discrete steady state.
    const std::string json = run_case("cases/poiseuille2d/case.toml",
                                      std::string("--set mesh.file=../../meshes/") + mesh +
                                          " --set time.end=3 --set 'initial.velocity_x=4*y*(1-y)'");
    h.push_back(std::sqrt(2.0 / test::json_number(json, "cells")));
    err.push_back(test::json_number(json, "error_l2"));
    EXPECT_LT(test::json_number(json, "max_div"), 1e-9) << json;
    EXPECT_LT(test::json_number(json, "error_max"), 0.02) << json;
  }
  const double order = std::log(err[0] / err[1]) / std::log(h[0] / h[1]);
  std::printf("Poiseuille: h %.4f -> %.4f: L2 error %.3e -> %.3e, observed order %.2f\n", h[0],
              h[1], err[0], err[1], order);
  EXPECT_GE(order, 1.4);
  EXPECT_LT(err[1], 2e-3);
}

// L2 errors and mesh sizes (sqrt(area / cells)) of CASE on MESHES, dt_k = dt0 / 2^k when dt0 > 0.
struct Study {
  std::vector<double> h, err;
  double order(std::size_t a, std::size_t b) const {
    return std::log(err[a] / err[b]) / std::log(h[a] / h[b]);
  }
};
Study study(const std::string& case_file, const std::vector<std::string>& meshes, double area,
            double dt0, const std::string& sets) {
  Study s;
  double dt = dt0;
  for (const std::string& mesh : meshes) {
    std::string all = "--set mesh.file=../../meshes/" + mesh + " " + sets;
    if (dt0 > 0) all += " --set time.dt=" + std::to_string(dt);
    const std::string json = run_case(case_file, all);
    s.h.push_back(std::sqrt(area / test::json_number(json, "cells")));
    s.err.push_back(test::json_number(json, "error_l2"));
    EXPECT_LT(test::json_number(json, "max_div"), 1e-8) << json;
    dt /= 2;
  }
  for (std::size_t k = 1; k < s.h.size(); ++k)
    std::printf("%s: h %.4f -> %.4f: L2 error %.3e -> %.3e, observed order %.2f\n",
                case_file.c_str(), s.h[k - 1], s.h[k], s.err[k - 1], s.err[k], s.order(k - 1, k));
  return s;
}

TEST(NsVerification, TaylorGreenConvergesAtSecondOrder) {
  const Study s = study("cases/taylor-green2d/case.toml",
                        {"square-1.msh", "square-2.msh", "square-3.msh"}, 1.0, 0.02, "");
  EXPECT_GE(s.order(0, 2), 1.7);
}

TEST(NsVerification, KovasznayConvergesAtSecondOrder) {
  const Study s =
      study("cases/kovasznay/case.toml", {"channel-1.msh", "channel-2.msh"}, 2.0, 0, "");
  EXPECT_GE(s.order(0, 1), 1.7);
}

struct GhiaPoint {
  double x, y, value;
  bool vertical;  // u on x = 0.5 (else v on y = 0.5)
};

// The interior points of ghia1982.csv for one Reynolds number, vertical line first (the order of
// the probes in cases/cavity2d/case.toml).
std::vector<GhiaPoint> ghia(const std::string& re) {
  std::ifstream in(kSource + "/cases/cavity2d/ghia1982.csv");
  std::vector<GhiaPoint> v, h;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("line,", 0) == 0) continue;
    std::stringstream ss(line);
    std::string f[6];
    for (auto& s : f) std::getline(ss, s, ',');
    if (f[1] != re) continue;
    const GhiaPoint p{std::stod(f[2]), std::stod(f[3]), std::stod(f[5]), f[0] == "vertical"};
    const double along = p.vertical ? p.y : p.x;
    if (along > 0 && along < 1) (p.vertical ? v : h).push_back(p);
  }
  v.insert(v.end(), h.begin(), h.end());
  return v;
}

// A sampled line (columns s,x,y,z,u,v,w,p): the coordinate `along` (1: x, 2: y) and the
// velocity component `comp` (4: u, 5: v) of every row.
std::vector<std::pair<double, double>> profile(const std::string& csv, int along, int comp) {
  std::stringstream in(csv);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "s,x,y,z,u,v,w,p");
  std::vector<std::pair<double, double>> out;
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::string f[8];
    for (auto& x : f) std::getline(ss, x, ',');
    out.emplace_back(std::stod(f[along]), std::stod(f[comp]));
  }
  return out;
}

// Linear interpolation of a profile sorted by its first member.
double at(const std::vector<std::pair<double, double>>& p, double x) {
  for (std::size_t i = 1; i < p.size(); ++i)
    if (x <= p[i].first) {
      const double w = (x - p[i - 1].first) / (p[i].first - p[i - 1].first);
      return (1 - w) * p[i - 1].second + w * p[i].second;
    }
  return p.back().second;
}

// The regression of issue 6 on the committed mesh, through the centrelines the case samples
// ([output.lines.*], 129 points: Ghia's grid).
TEST(NsVerification, CavityRe100MatchesGhia) {
  const std::vector<GhiaPoint> ref = ghia("100");
  ASSERT_EQ(ref.size(), 30u);
  std::vector<std::pair<std::string, std::string>> lines = {{"vertical", ""}, {"horizontal", ""}};
  const std::string json = run_case("cases/cavity2d/case.toml", "--set time.end=10", &lines);
  const auto u = profile(lines[0].second, 2, 4), v = profile(lines[1].second, 1, 5);
  ASSERT_EQ(u.size(), 129u);
  ASSERT_EQ(v.size(), 129u);
  double worst = 0;
  for (const GhiaPoint& p : ref) {
    const double value = p.vertical ? at(u, p.y) : at(v, p.x);
    EXPECT_NEAR(value, p.value, 0.02)
        << (p.vertical ? "u" : "v") << " at (" << p.x << ", " << p.y << ")";
    worst = std::max(worst, std::abs(value - p.value));
  }
  std::printf("cavity Re 100: largest deviation from Ghia et al. %.4f\n", worst);
  EXPECT_LT(test::json_number(json, "max_div"), 1e-9) << json;
}

}  // namespace
}  // namespace scfd
