// Checkpoint and restart through `streamcfd run` (app/checkpoints.hpp, checkpoint/): a run of
// 2n steps and a run of n steps continued from its checkpoint write the same bits in every array
// of step 2n on the same rank count (heat, ns-classical, ns-exact); across rank counts (1 -> 2, 2
// -> 3) they agree to the solver tolerance; every kind of bad checkpoint is one line and exit 2
// with nothing written; a run that diverges or meets a NaN on 2 ranks, or gets SIGTERM, leaves a
// checkpoint that restarts; a run on a 200 kB file system fails with one clear line and no
// temporary file left.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkPointData.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "common/run_command.hpp"

namespace scfd {
namespace {

namespace fs = std::filesystem;

const std::string kBinary = SCFD_BINARY;
const std::string kMpirun = SCFD_MPIRUN;
const std::string kCases = std::string(SCFD_SOURCE_DIR) + "/cases/";

std::string in(const fs::path& dir) {
  return " --set output.directory='\"" + dir.string() + "\"'";
}

test::CommandResult run(const std::string& args, int np = 1) {
  const std::string launcher = np == 1 ? "" : kMpirun + " -np " + std::to_string(np) + " ";
  return test::run_command("timeout 300 " + launcher + kBinary + " run " + args);
}

// The JSON summary's figures, name -> value.
std::map<std::string, double> figures(const fs::path& dir, const std::string& model) {
  const std::string json = test::slurp(dir / (model + "_summary.json"));
  const std::size_t at = json.find("\"figures\"");
  std::map<std::string, double> out;
  if (at == std::string::npos) return out;
  const std::string part = json.substr(at, json.find('}', at) - at);
  const std::regex entry("\"([a-z_0-9]+)\": ([-+0-9.eE]+)");
  for (auto it = std::sregex_iterator(part.begin(), part.end(), entry);
       it != std::sregex_iterator(); ++it)
    out[(*it)[1]] = std::stod((*it)[2]);
  return out;
}

// The summary's last_relative_residual (the last solve's), as written.
std::string last_residual(const fs::path& dir, const std::string& model) {
  const std::string json = test::slurp(dir / (model + "_summary.json"));
  std::smatch m;
  std::regex_search(json, m, std::regex("\"last_relative_residual\": ([-+0-9.eE]+)"));
  return m.empty() ? "" : m[1].str();
}

struct Case {
  std::string model, args;  // case file and settings of both runs
  std::string half, whole;  // the settings for n and 2n steps
  std::string last_output;  // the output file of step 2n (serial)
};

const Case kHeat{"heat", kCases + "heat-box/case.toml --set 'mesh.divisions=[6,6,6]'",
                 "--set time.end=0.025", "--set time.end=0.05", "heat_000020.vtu"};
const Case kClassical{"ns-classical",
                      kCases + "cavity-box/case.toml --set 'mesh.divisions=[5,5,5]'",
                      "--set time.steps=10", "--set time.steps=20", "ns-classical_000020.vtu"};
const Case kExact{"ns-exact",
                  kCases +
                      "cavity-box/case.toml --set 'mesh.divisions=[5,5,5]' --set "
                      "physics.model=ns-exact",
                  "--set time.steps=10", "--set time.steps=20", "ns-exact_000020.vtu"};

// 2n steps in one run (whole/), n steps with a checkpoint at the end (part/), then n more from
// that checkpoint into part/ (on np_restart ranks).
void run_both(const Case& c, const fs::path& whole, const fs::path& part, int np, int np_restart) {
  const std::string common = c.args + " --set output.interval=10 ";
  auto r = run(common + c.whole + in(whole), np);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run(common + c.half + " --set checkpoint.every_steps=10" + in(part), np);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const fs::path checkpoint = part / (c.model + "_checkpoint_000010.h5");
  ASSERT_TRUE(fs::exists(checkpoint)) << r.out;
  r = run(common + c.whole + " --restart " + checkpoint.string() + in(part), np_restart);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("restart: " + checkpoint.string() + " (step 10, t = "), std::string::npos)
      << r.out;
}

// Every point and cell array of a .vtu (VTK's reader), "point:NAME" / "cell:NAME" -> values.
std::map<std::string, std::vector<double>> arrays(const fs::path& vtu) {
  auto reader = vtkSmartPointer<vtkXMLUnstructuredGridReader>::New();
  reader->SetFileName(vtu.c_str());
  reader->Update();
  std::map<std::string, std::vector<double>> out;
  vtkUnstructuredGrid* g = reader->GetOutput();
  for (auto [prefix, data] :
       {std::pair<std::string, vtkDataSetAttributes*>{"point:", g->GetPointData()},
        {"cell:", g->GetCellData()}})
    for (int k = 0; k < data->GetNumberOfArrays(); ++k) {
      vtkDataArray* a = data->GetArray(k);
      std::vector<double>& v = out[prefix + a->GetName()];
      for (vtkIdType t = 0; t < a->GetNumberOfTuples(); ++t)
        for (int c = 0; c < a->GetNumberOfComponents(); ++c) v.push_back(a->GetComponent(t, c));
    }
  return out;
}

// The same arrays with the same bits (the bit patterns: NaN-safe, -0 != +0).
void expect_same_bits(const fs::path& a, const fs::path& b) {
  const auto x = arrays(a), y = arrays(b);
  ASSERT_FALSE(x.empty()) << a;
  ASSERT_EQ(x.size(), y.size()) << a << " vs " << b;
  for (const auto& [name, values] : x) {
    ASSERT_TRUE(y.count(name)) << name;
    const std::vector<double>& other = y.at(name);
    ASSERT_EQ(values.size(), other.size()) << name;
    EXPECT_TRUE(std::equal(values.begin(), values.end(), other.begin(),
                           [](double p, double q) {
                             return std::bit_cast<std::uint64_t>(p) ==
                                    std::bit_cast<std::uint64_t>(q);
                           }))
        << name << " differs: " << a << " vs " << b;
  }
}

void expect_bit_identical(const Case& c) {
  const fs::path dir = test::fresh_directory("restart_bits");
  run_both(c, dir / "whole", dir / "part", 1, 1);
  expect_same_bits(dir / "whole" / c.last_output, dir / "part" / c.last_output);
  // Equal data give equal files, byte for byte (the restarted run's first write once closed its
  // integer arrays with "/>" where the uninterrupted run's third wrote "></DataArray>").
  EXPECT_TRUE(test::slurp(dir / "whole" / c.last_output) ==
              test::slurp(dir / "part" / c.last_output))
      << "the .vtu files differ in bytes";
  // The series goes on in one .pvd: steps 0, 10 (first run) and 20 (restart).
  const std::string pvd = test::slurp(dir / "part" / (c.model + ".pvd"));
  for (const char* step : {"_000000.vtu", "_000010.vtu", "_000020.vtu"})
    EXPECT_NE(pvd.find(c.model + step), std::string::npos) << pvd;
  fs::remove_all(dir);
}

TEST(Restart, HeatRepeatsTheRunBitForBit) {
  expect_bit_identical(kHeat);
}
TEST(Restart, NsClassicalRepeatsTheRunBitForBit) {
  expect_bit_identical(kClassical);
}
TEST(Restart, NsExactRepeatsTheRunBitForBit) {
  expect_bit_identical(kExact);
}

// A checkpoint of an earlier release lacks the datasets (and scalars) that keep a solve's
// extrapolated initial guess: the restart takes the last answer for them (no extrapolation in
// its first step) and ends within the solver tolerance of the uninterrupted run.
void expect_restart_without(const Case& c, const std::vector<std::string>& datasets,
                            const std::vector<std::string>& values) {
  const fs::path dir = test::fresh_directory("restart_previous");
  const std::string common = c.args + " --set output.interval=10 ";
  auto r = run(common + c.whole + in(dir / "whole"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run(common + c.half + " --set checkpoint.every_steps=10" + in(dir / "part"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const fs::path checkpoint = dir / "part" / (c.model + "_checkpoint_000010.h5");
  const hid_t f = H5Fopen(checkpoint.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  for (const std::string& name : datasets)
    ASSERT_GE(H5Ldelete(f, ("/fields/" + name).c_str(), H5P_DEFAULT), 0) << name;
  // (the checksum of an earlier release's file covers the values it has; this one's covered the
  // deleted ones too)
  for (const std::string& name : values)
    ASSERT_GE(H5Adelete_by_name(f, "/values", name.c_str(), H5P_DEFAULT), 0) << name;
  if (!values.empty()) {
    ASSERT_GE(H5Adelete_by_name(f, "/values", "checksum", H5P_DEFAULT), 0);
  }
  H5Fclose(f);
  r = run(common + c.whole + " --restart " + checkpoint.string() + in(dir / "part"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto whole = figures(dir / "whole", c.model), part = figures(dir / "part", c.model);
  ASSERT_TRUE(whole.count("kinetic_energy")) << r.out;
  EXPECT_NEAR(part.at("kinetic_energy"), whole.at("kinetic_energy"),
              1e-8 * whole.at("kinetic_energy"));
  // (the kinetic energy's 10 digits in the summary may not show that; the last solve's
  // residual does)
  ASSERT_FALSE(last_residual(dir / "whole", c.model).empty());
  EXPECT_NE(last_residual(dir / "part", c.model), last_residual(dir / "whole", c.model))
      << "the first step after the restart should start from the last answer, not the "
         "extrapolation";
}

TEST(Restart, NsExactFromACheckpointWithoutTheGuesses) {
  std::vector<std::string> datasets = {"streamfunction_unknowns_previous",
                                       "streamfunction_unknowns_before_previous",
                                       "pressure_earlier_0", "pressure_earlier_1"};
  for (int k = 0; k < 8; ++k) datasets.push_back("pressure_basis_" + std::to_string(k));
  for (int k = 0; k < 6; ++k) {
    datasets.push_back("streamfunction_kept_" + std::to_string(k));
    datasets.push_back("streamfunction_kept_image_" + std::to_string(k));
  }
  expect_restart_without(
      kExact, datasets,
      {"streamfunction_history", "streamfunction_history_ratio", "pressure_basis_size",
       "streamfunction_kept", "streamfunction_kept_newest", "streamfunction_kept_active",
       "streamfunction_kept_declined", "streamfunction_uncorrected_iterations",
       "streamfunction_corrections_failed", "streamfunction_corrections_retired",
       "streamfunction_kept_capacity"});
}

TEST(Restart, NsClassicalFromACheckpointWithoutTheGuesses) {
  std::vector<std::string> datasets = {
      "pressure_increment_earlier_0", "pressure_increment_earlier_1", "momentum_solution",
      "momentum_solution_previous", "momentum_solution_before_previous"};
  for (int k = 0; k < 8; ++k) datasets.push_back("pressure_increment_basis_" + std::to_string(k));
  expect_restart_without(
      kClassical, datasets,
      {"pressure_increment_basis_size", "momentum_solutions", "momentum_solutions_ratio"});
}

// The forces of the steps after a restart are those of the uninterrupted run, the first one's
// du/dt included (U^(n-1) and the last step are in the checkpoint).
TEST(Restart, ForcesGoOnAsWithoutTheRestart) {
  const fs::path dir = test::fresh_directory("restart_forces");
  Case c = kClassical;
  c.args += " --set forces.patch=top --set 'forces.normal=[0,1,0]'";
  run_both(c, dir / "whole", dir / "part", 1, 1);
  // Steps 11-20 of both runs (the restarted run continues part/forces.csv).
  auto tail = [](const std::string& csv) { return csv.substr(csv.find("\n11,") + 1); };
  const std::string whole = test::slurp(dir / "whole" / "forces.csv");
  ASSERT_NE(whole.find("\n11,"), std::string::npos) << whole;
  EXPECT_EQ(tail(whole), tail(test::slurp(dir / "part" / "forces.csv")));
  fs::remove_all(dir);
}

// A restart keeps the probe and force history: the interrupted run got to step 15 past its
// checkpoint of step 10; continued from that checkpoint to step 20, probes.csv and forces.csv
// hold every row of the uninterrupted run, bit for bit (rows 11-15 of the first run are replaced
// by the restarted run's). Both models, 1 and 2 ranks.
TEST(Restart, ProbeAndForceHistoryIsKept) {
  const std::string extra =
      " --set forces.patch=top --set 'forces.normal=[0,1,0]' --set 'probes.x=[0.5, 0.25]'"
      " --set 'probes.y=[0.5, 0.75]' --set 'probes.z=[0.5, 0.5]' --set output.interval=0 ";
  for (const auto& [c, np] : {std::pair<Case, int>{kClassical, 1}, {kExact, 2}}) {
    SCOPED_TRACE(c.model + " on " + std::to_string(np) + " ranks");
    const fs::path dir = test::fresh_directory("restart_history");
    auto r = run(c.args + extra + c.whole + in(dir / "whole"), np);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = run(
        c.args + extra + "--set time.steps=15 --set checkpoint.every_steps=10" + in(dir / "part"),
        np);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const fs::path checkpoint = dir / "part" / (c.model + "_checkpoint_000010.h5");
    ASSERT_TRUE(fs::exists(checkpoint)) << r.out;
    r = run(c.args + extra + c.whole + " --restart " + checkpoint.string() + in(dir / "part"), np);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const char* file : {"probes.csv", "forces.csv"}) {
      const std::string whole = test::slurp(dir / "whole" / file);
      EXPECT_NE(whole.find("\n20,"), std::string::npos) << whole;
      EXPECT_EQ(test::slurp(dir / "part" / file), whole) << file;
    }
    fs::remove_all(dir);
  }
}

// Probes that changed between the runs cannot continue the old file: it is kept beside the new
// one, whose rows start after the restart step.
TEST(Restart, ChangedProbesKeepTheOldFileBesideTheNewOne) {
  const fs::path dir = test::fresh_directory("restart_probes_changed");
  const std::string probes =
      " --set 'probes.x=[0.5]' --set 'probes.y=[0.5]' --set 'probes.z=[0.5]'";
  auto r = run(kClassical.args + probes + " --set time.steps=10 --set checkpoint.every_steps=10" +
               in(dir));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string before = test::slurp(dir / "probes.csv");
  r = run(kClassical.args + probes + " --set probes.pressure=false --set time.steps=12 --restart " +
          (dir / "ns-classical_checkpoint_000010.h5").string() + in(dir));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("probes.csv: its columns differ"), std::string::npos) << r.err;
  EXPECT_EQ(test::slurp(dir / "probes.csv.before-restart"), before);
  const std::string after = test::slurp(dir / "probes.csv");
  EXPECT_EQ(after.rfind("step,time,p0_ux,p0_uy,p0_uz\n11,", 0), 0u) << after;
  fs::remove_all(dir);
}

// The same rank count in parallel: the pieces of step 20 hold the same bits.
TEST(Restart, TwoRanksRepeatTheRunBitForBit) {
  const fs::path dir = test::fresh_directory("restart_np2");
  run_both(kClassical, dir / "whole", dir / "part", 2, 2);
  for (const char* piece : {"ns-classical_000020_0.vtu", "ns-classical_000020_1.vtu"})
    expect_same_bits(dir / "whole" / piece, dir / "part" / piece);
  fs::remove_all(dir);
}

void expect_close_figures(const Case& c, int np, int np_restart) {
  const fs::path dir = test::fresh_directory("restart_nm");
  run_both(c, dir / "whole", dir / "part", np, np_restart);
  const auto a = figures(dir / "whole", c.model), b = figures(dir / "part", c.model);
  ASSERT_FALSE(a.empty());
  for (const auto& [name, value] : a) {
    ASSERT_TRUE(b.count(name)) << name;
    // max |D U| is the projection's residual, round-off and solver tolerance (1e-9) alone: both
    // runs within that, not equal to each other (2.1e-12 against 3.8e-12 on 3 ranks and 2)
    if (name.starts_with("max_div")) {
      EXPECT_LT(std::abs(b.at(name)), 1e-10) << name;
      EXPECT_LT(std::abs(value), 1e-10) << name;
    } else {
      EXPECT_NEAR(b.at(name), value, 1e-6 * std::abs(value) + 1e-12) << name;
    }
  }
  fs::remove_all(dir);
}

TEST(Restart, SerialToTwoRanks) {
  expect_close_figures(kHeat, 1, 2);
}
TEST(Restart, TwoRanksToThree) {
  expect_close_figures(kClassical, 2, 3);
}
TEST(Restart, NsExactThreeRanksToSerial) {
  expect_close_figures(kExact, 3, 1);
}

// every_time: a checkpoint each time t passes a multiple of 0.03 (steps 3, 6, 9 at dt 0.01) and
// at the last step (10); keep = 2 leaves the last two.
TEST(Restart, PeriodicCheckpointsAndKeep) {
  const fs::path dir = test::fresh_directory("restart_keep");
  const auto r = run(kClassical.args +
                     " --set time.steps=10 --set checkpoint.every_time=0.03"
                     " --set checkpoint.keep=2" +
                     in(dir));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> left;
  for (const auto& f : fs::directory_iterator(dir))
    if (f.path().extension() == ".h5") left.push_back(f.path().filename().string());
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<std::string>{"ns-classical_checkpoint_000009.h5",
                                            "ns-classical_checkpoint_000010.h5"}))
      << r.out;
  for (const char* step : {"000003", "000006", "000009", "000010"})
    EXPECT_NE(r.out.find(std::string("checkpoint: ") + (dir / "ns-classical_checkpoint_").string() +
                         step + ".h5"),
              std::string::npos)
        << step << "\n"
        << r.out;
  fs::remove_all(dir);
}

// every_minutes: 1e-6 minutes of wall time pass during every step, so every step checkpoints;
// keep = 1 leaves the last. On two ranks (rank 0's clock decides for both).
TEST(Restart, WallClockCheckpointsOnTwoRanks) {
  const fs::path dir = test::fresh_directory("restart_wall");
  const auto r = run(kClassical.args +
                         " --set time.steps=4 --set checkpoint.every_minutes=1e-6"
                         " --set checkpoint.keep=1" +
                         in(dir),
                     2);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  int written = 0;
  for (std::size_t at = r.out.find("checkpoint: "); at != std::string::npos;
       at = r.out.find("checkpoint: ", at + 1))
    ++written;
  EXPECT_EQ(written, 4) << r.out;
  int left = 0;
  for (const auto& f : fs::directory_iterator(dir)) left += f.path().extension() == ".h5";
  EXPECT_EQ(left, 1);
  EXPECT_TRUE(fs::exists(dir / "ns-classical_checkpoint_000004.h5"));
  fs::remove_all(dir);
}

// A checkpoint of 10 steps of ns-classical on the 5^3 cavity, for the bad-checkpoint tests.
fs::path good_checkpoint(const fs::path& dir) {
  const auto r = run(kClassical.args + " --set time.steps=3 --set checkpoint.every_steps=3" +
                     in(dir / "good"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return dir / "good" / "ns-classical_checkpoint_000003.h5";
}

// One line on stderr naming the file and the problem, exit 2, and the output folder untouched.
void expect_refused(const std::string& args, const fs::path& file, const std::string& phrase) {
  const fs::path out = file.parent_path() / "restarted";
  const auto r = run(args + " --restart " + file.string() + in(out));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find(file.string()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(phrase), std::string::npos) << "expected '" << phrase << "' in " << r.err;
  // One line, streamcfd's: nothing else (Open MPI's MPI-IO printed a line of its own when a
  // damaged file sent HDF5 to read past its end).
  EXPECT_EQ(r.err.rfind("streamcfd: error:", 0), 0u) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
  EXPECT_FALSE(fs::exists(out)) << "a refused restart wrote " << out;
}

TEST(Restart, BadCheckpointsAreOneLineAndExit2) {
  const fs::path dir = test::fresh_directory("restart_bad");
  const fs::path good = good_checkpoint(dir);
  ASSERT_TRUE(fs::exists(good));
  const std::string cavity = kClassical.args + " --set time.steps=6";
  expect_refused(cavity, dir / "none.h5", "no such file");
  std::ofstream(dir / "text.h5") << "not a checkpoint\n";
  expect_refused(cavity, dir / "text.h5", "not a readable HDF5 file");
  {  // the first half of a good file
    const std::string bytes = test::slurp(good);
    std::ofstream(dir / "truncated.h5", std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  }
  expect_refused(cavity, dir / "truncated.h5", "not a readable HDF5 file");
  {  // one value changed: the checksum catches it
    fs::copy_file(good, dir / "damaged.h5");
    const hid_t f = H5Fopen((dir / "damaged.h5").c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    const hid_t ds = H5Dopen2(f, "/fields/pressure", H5P_DEFAULT);
    const hsize_t at = 7, one = 1;
    const hid_t space = H5Dget_space(ds), mem = H5Screate_simple(1, &one, nullptr);
    H5Sselect_hyperslab(space, H5S_SELECT_SET, &at, nullptr, &one, nullptr);
    const double v = 12345.0;
    H5Dwrite(ds, H5T_NATIVE_DOUBLE, mem, space, H5P_DEFAULT, &v);
    H5Sclose(mem), H5Sclose(space), H5Dclose(ds), H5Fclose(f);
  }
  expect_refused(cavity, dir / "damaged.h5", "/fields/pressure is damaged");
  {  // a dataset taken out
    fs::copy_file(good, dir / "missing.h5");
    const hid_t f = H5Fopen((dir / "missing.h5").c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    H5Ldelete(f, "/fields/velocity_flux_old", H5P_DEFAULT);
    H5Fclose(f);
  }
  expect_refused(cavity, dir / "missing.h5", "/fields/velocity_flux_old is missing");
  {  // one bit of the /case dataset's layout message (its version, 3 -> 2): HDF5 then copied
     // past its buffers inside H5Dread (SIGSEGV)
    const hid_t f = H5Fopen(good.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const hid_t ds = H5Dopen2(f, "/case", H5P_DEFAULT);
    const haddr_t at = H5Dget_offset(ds);
    H5Dclose(ds), H5Fclose(f);
    std::string bytes = test::slurp(good);
    // The layout message: version 3, class 1 (contiguous), then the data's address.
    std::string pattern = {3, 1};
    for (int k = 0; k < 8; ++k) pattern += static_cast<char>((at >> (8 * k)) & 0xff);
    const std::size_t message = bytes.find(pattern);
    ASSERT_NE(message, std::string::npos);
    bytes[message] ^= 1;
    std::ofstream(dir / "layout.h5", std::ios::binary) << bytes;
  }
  expect_refused(cavity, dir / "layout.h5", "the dataset case is damaged");
  {  // one bit of the root group's address in the superblock (scripts/fuzz.py found it): HDF5
     // read at a wild offset, and MPI-IO said so on stderr before streamcfd's line
    std::string bytes = test::slurp(good);
    ASSERT_EQ(bytes.substr(1, 3), "HDF");
    bytes[37] ^= 0x40;
    std::ofstream(dir / "superblock.h5", std::ios::binary) << bytes;
  }
  expect_refused(cavity, dir / "superblock.h5", "damaged");
  expect_refused(kClassical.args + " --set 'mesh.divisions=[4,5,5]'", good, "another mesh");
  expect_refused(kClassical.args + " --set mesh.jitter=0.1", good, "another mesh");
  expect_refused(kExact.args, good, "it holds a ns-classical state, the case runs ns-exact");
  fs::remove_all(dir);
}

// A copy of `good` with the double attribute `name` of the HDF5 object `object` set to v.
fs::path with_attribute(const fs::path& good, const std::string& copy, const char* object,
                        const char* name, double v) {
  const fs::path out = good.parent_path().parent_path() / copy;
  fs::copy_file(good, out, fs::copy_options::overwrite_existing);
  const hid_t f = H5Fopen(out.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  const hid_t g = H5Oopen(f, object, H5P_DEFAULT);
  const hid_t a = H5Aopen(g, name, H5P_DEFAULT);
  EXPECT_GE(H5Awrite(a, H5T_NATIVE_DOUBLE, &v), 0) << object << " " << name;
  H5Aclose(a), H5Oclose(g), H5Fclose(f);
  return out;
}

// The scalars of the state (/values) and the root's step and time: a changed or impossible
// value is refused with one line and exit 2 (before: NaN, inf or 1e300 steps ran without end or
// exited 3, -1 or 2.5 ran the wrong number of steps with exit 0, a NaN time completed with a
// null time, steady = 1 ran 0 steps).
TEST(Restart, DamagedScalarsAreRefused) {
  const fs::path dir = test::fresh_directory("restart_scalars");
  const fs::path good = good_checkpoint(dir);
  ASSERT_TRUE(fs::exists(good));
  const std::string cavity = kClassical.args + " --set time.steps=6";
  const double nan = std::nan(""), inf = HUGE_VAL;
  int k = 0;
  for (const auto& [object, name, v] :
       std::vector<std::tuple<const char*, const char*, double>>{{"/values", "step", nan},
                                                                 {"/values", "step", inf},
                                                                 {"/values", "step", 1e300},
                                                                 {"/values", "step", -1},
                                                                 {"/values", "step", 2.5},
                                                                 {"/values", "step", 4},
                                                                 {"/values", "time", nan},
                                                                 {"/values", "time", 0.5},
                                                                 {"/values", "steady", 1},
                                                                 {"/values", "last_dt", -inf},
                                                                 {"/", "step", 2},
                                                                 {"/", "time", nan}}) {
    SCOPED_TRACE(std::string(object) + " " + name + " = " + std::to_string(v));
    const fs::path bad = with_attribute(good, "bad" + std::to_string(k++) + ".h5", object, name, v);
    expect_refused(cavity, bad, "damaged");
  }
  fs::remove_all(dir);
}

// A blow-up on two ranks (time.max_cfl tripped) leaves the last good step as a checkpoint,
// which restarts with a smaller time step.
TEST(Restart, DivergenceOnTwoRanksLeavesACheckpointThatRestarts) {
  const fs::path dir = test::fresh_directory("restart_blowup");
  const std::string tg =
      kCases + "taylor-green2d/case.toml --set time.end=2 --set output.interval=1";
  auto r = run(tg + " --set time.dt=0.2 --set time.max_cfl=1" + in(dir), 2);
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const std::smatch m = [&] {
    std::smatch found;
    std::regex_search(r.err, found, std::regex("--restart (\\S+)"));
    return found;
  }();
  ASSERT_EQ(m.size(), 2u) << r.err;
  const std::string checkpoint = m[1];
  ASSERT_TRUE(fs::exists(checkpoint)) << r.err;
  r = run(tg + " --set time.dt=0.05 --restart " + checkpoint + in(dir), 2);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  fs::remove_all(dir);
}

// A NaN on two ranks (a boundary formula that is not finite from t = 0.0035 on): the run stops
// at step 2 with step 1 checkpointed, and that checkpoint restarts (with a finite boundary).
TEST(Restart, NanOnTwoRanksLeavesTheLastGoodStepThatRestarts) {
  const fs::path dir = test::fresh_directory("restart_nan");
  const std::string heat = kHeat.args + " --set time.end=0.01";
  auto r = run(heat + " --set 'boundary.top.value=\"log(0.0035 - t)\"'" + in(dir), 2);
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("not finite"), std::string::npos) << r.err;
  const fs::path checkpoint = dir / "heat_checkpoint_000001.h5";
  EXPECT_NE(r.err.find("continue with --restart " + checkpoint.string()), std::string::npos)
      << r.err;
  ASSERT_TRUE(fs::exists(checkpoint));
  r = run(heat + " --restart " + checkpoint.string() + in(dir), 2);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("step 4/4"), std::string::npos) << r.out;
  fs::remove_all(dir);
}

// SIGTERM to the ranks (a batch system at its limit): exit 143 with a checkpoint of the last
// finished step, which restarts.
TEST(Restart, SigtermLeavesACheckpointThatRestarts) {
  const fs::path dir = test::fresh_directory("restart_sigterm");
  const std::string cube = kCases + "heat-cube/case.toml --set output.interval=0";
  const std::string command =
      kMpirun + " -np 2 " + kBinary + " run " + cube + " --set time.dt=1e-9" + in(dir);
  const auto r =
      test::run_command("timeout 120 bash -c '" + command +
                        " & pid=$!; for i in $(seq 600); do [ -e " + (dir / "heat.pvd").string() +
                        " ] && break; sleep 0.1; done; sleep 0.5; pkill -TERM -P $pid; "
                        "wait $pid'");
  ASSERT_EQ(r.exit_code, 143) << r.err;
  fs::path checkpoint;
  for (const auto& f : fs::directory_iterator(dir))
    if (f.path().extension() == ".h5") checkpoint = f.path();
  ASSERT_FALSE(checkpoint.empty()) << r.err;
  const auto again = run(cube + " --set time.dt=1e-9 --set time.end=1e-9 --restart " +
                             checkpoint.string() + in(dir / "again"),
                         2);
  EXPECT_EQ(again.exit_code, 0) << again.err;
  fs::remove_all(dir);
}

// A 200 kB file system (a tmpfs in a private mount namespace): the run stops with one line
// naming the file and "No space left on device", exit 1, and leaves no .tmp file.
TEST(Restart, FullFileSystemFailsCleanly) {
  if (test::run_command("unshare -rm true").exit_code != 0)
    GTEST_SKIP() << "no private mount namespace here (unshare -rm)";
  const fs::path dir = test::fresh_directory("restart_tmpfs");
  const auto r = test::run_command(
      "timeout 120 unshare -rm sh -c 'mount -t tmpfs -o size=200k tmpfs " + dir.string() + " && " +
      kBinary + " run " + kClassical.args +
      " --set time.steps=50 --set output.interval=1 --set checkpoint.every_steps=5" + in(dir) +
      "; code=$?; ls -a " + dir.string() + "; exit $code'");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find(".tmp"), std::string::npos) << r.out;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace scfd
