// The core operations of every backend of the table (tests/conformance/variants.hpp) against
// the cpu entry, their specification (docs/architecture.md §6, §8.1), in fp64 and fp32: every
// vector operation on random data of sizes 0, 1, around the GPU workgroup sizes (64 for
// element-wise kernels, 256 x 4 per reduction workgroup) and past the 2D-grid limit; dot and
// pcg_update give the same bits on every repeat and the cpu sum to 1e-12 (fp64) / 1e-5 (fp32)
// relative to sum |x_i y_i|; the PCG scalars (a dot into a slot, the breakdown record of
// pcg_update, beta of pcg_direction), the multi-rank pcg_ranks_update and the BiCGStab updates
// equal the cpu's; max_abs equals the
// cpu's bit for bit; download_indices (with any cached index lists), upload_range,
// upload_indices and upload_entries; the four sparse-matrix products (apply, residual, apply_add,
// jacobi) on random matrices with empty and long rows equal the cpu's (bit for bit in fp64) and
// leave the entries past the rows alone; PCG, Jacobi and AMG, on a heat-like node system (Dirichlet
// nodes eliminated, the assembled operator of make_node_system) reproduces the cpu backend's
// iteration count +-1 and solution.
//
// fp32: both backends get the same float-representable inputs, so the cpu result is the exact
// answer to compare the fp32 one with. fp64: the element-wise updates are `precise` (no fused
// multiply-add) and must match bit for bit; a GLSL double division need not be correctly
// rounded, so reciprocal may differ by an ulp.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "backend/backend.hpp"
#include "backend/operator_matrices.hpp"
#include "backend/sparse_matrix.hpp"
#include "backend/test_meshes.hpp"
#include "conformance/variants.hpp"
#include "solvers/amg.hpp"
#include "solvers/pcg.hpp"

namespace scfd::test {
namespace {

using backend::Backend;
using backend::BicgstabSlots;
using backend::Field;
using backend::Matrix;
using backend::PcgSlots;
using backend::Scalars;
using backend::SparseMatrix;

// Element-wise results: bitwise in fp64; a few float ulps of the terms' magnitude in fp32.
real elementwise_tolerance(bool fp32) {
  return fp32 ? 1e-6 : 0;
}
// Reductions (relative to sum |x_i y_i|) and their summation order.
real reduction_tolerance(bool fp32) {
  return fp32 ? 1e-5 : 1e-12;
}

// Random values in [lo, hi), rounded to float when the backend under test is fp32.
std::vector<real> random_values(std::size_t n, std::uint64_t seed, bool fp32, real lo = -1,
                                real hi = 1) {
  std::vector<real> v = random_field(n, seed, lo, hi);
  if (fp32)
    for (real& x : v) x = static_cast<real>(static_cast<float>(x));
  return v;
}

// A variant of the table against the cpu entry.
class CoreOperations : public ::testing::TestWithParam<BackendVariant> {
 protected:
  void SetUp() override { gpu = GetParam().make(); }
  bool fp32() const { return GetParam().fp32(); }

  // A field of each backend holding the same values.
  struct Pair {
    std::unique_ptr<Field> cpu, gpu;
  };
  Pair make_pair(const std::vector<real>& v) const {
    Pair f{cpu.make_field(static_cast<index>(v.size())),
           gpu->make_field(static_cast<index>(v.size()))};
    cpu.upload(v, *f.cpu);
    gpu->upload(v, *f.gpu);
    return f;
  }
  std::vector<real> values(const Backend& be, const Field& f) const {
    std::vector<real> v(static_cast<std::size_t>(f.size()));
    be.download(f, v);
    return v;
  }
  // Expects gpu == cpu entry by entry within tol * scale[i] (scale: the magnitude of the terms;
  // tol: the element-wise tolerance, at least `at_least`).
  void expect_close(const Pair& f, const std::vector<real>& scale, const std::string& what,
                    real at_least = 0) const {
    const std::vector<real> want = values(cpu, *f.cpu), got = values(*gpu, *f.gpu);
    ASSERT_EQ(want.size(), got.size()) << what;
    const real tol = std::max(elementwise_tolerance(fp32()), at_least);
    int bad = 0;
    for (std::size_t i = 0; i < want.size(); ++i)
      if (!(std::abs(got[i] - want[i]) <= tol * scale[i]) && bad++ < 3)
        ADD_FAILURE() << what << " n=" << want.size() << " i=" << i << ": " << got[i] << " vs "
                      << want[i];
  }

  const std::unique_ptr<Backend> reference = make_reference();
  const Backend& cpu = *reference;
  std::unique_ptr<Backend> gpu;  // the variant under test
};

// Sizes around the element-wise (64) and reduction (1024 per workgroup) blocks.
const std::vector<std::size_t> kSizes = {0, 1, 63, 64, 65, 1023, 1025, 5000, 100003};

TEST_P(CoreOperations, UploadDownloadRoundTrips) {
  for (std::size_t n : kSizes) {
    const std::vector<real> v = random_values(n, 1 + n, fp32());
    const auto f = gpu->make_field(static_cast<index>(n));
    EXPECT_EQ(f->size(), static_cast<index>(n));
    gpu->upload(v, *f);
    EXPECT_EQ(values(*gpu, *f), v) << "n=" << n;  // float-representable: exact in fp32 too
  }
}

TEST_P(CoreOperations, FillAndCopyMatchCpu) {
  for (std::size_t n : kSizes) {
    const std::vector<real> x = random_values(n, 2 + n, fp32());
    const real value = fp32() ? real(0.25f) : 0.1;
    Pair y = make_pair(std::vector<real>(n, 7.0)), xs = make_pair(x);
    cpu.fill(*y.cpu, value);
    gpu->fill(*y.gpu, value);
    expect_close(y, std::vector<real>(n, 1.0), "fill");
    cpu.copy(*xs.cpu, *y.cpu);
    gpu->copy(*xs.gpu, *y.gpu);
    expect_close(y, std::vector<real>(n, 1.0), "copy");
  }
}

TEST_P(CoreOperations, AxpyXpayScaleMultiplyReciprocalMatchCpu) {
  const real a = fp32() ? real(0.7310585f) : 0.7310585786300049;
  for (std::size_t n : kSizes) {
    const std::vector<real> x = random_values(n, 3 + n, fp32());
    const std::vector<real> y = random_values(n, 4 + n, fp32());
    const std::vector<real> d = random_values(n, 5 + n, fp32(), 0.5, 2.0);
    std::vector<real> scale(n);
    for (std::size_t i = 0; i < n; ++i) scale[i] = std::abs(y[i]) + std::abs(a * x[i]);
    Pair xs = make_pair(x), ys = make_pair(y);
    cpu.axpy(a, *xs.cpu, *ys.cpu);
    gpu->axpy(a, *xs.gpu, *ys.gpu);
    expect_close(ys, scale, "axpy");

    Pair xs2 = make_pair(y), ys2 = make_pair(x);  // y = x + a y with the roles swapped
    cpu.xpay(*xs2.cpu, a, *ys2.cpu);
    gpu->xpay(*xs2.gpu, a, *ys2.gpu);
    expect_close(ys2, scale, "xpay");

    Pair xs3 = make_pair(x), ys3 = make_pair(y);  // y = a x, and in place: x = a x
    std::vector<real> scaled(n);
    for (std::size_t i = 0; i < n; ++i) scaled[i] = std::abs(a * x[i]);
    cpu.scale(a, *xs3.cpu, *ys3.cpu);
    gpu->scale(a, *xs3.gpu, *ys3.gpu);
    expect_close(ys3, scaled, "scale");
    cpu.scale(a, *xs3.cpu, *xs3.cpu);
    gpu->scale(a, *xs3.gpu, *xs3.gpu);
    expect_close(xs3, scaled, "scale in place");

    Pair ds = make_pair(d), out = make_pair(std::vector<real>(n, 0.0));
    std::vector<real> product_scale(n), reciprocal_scale(n);
    for (std::size_t i = 0; i < n; ++i) {
      product_scale[i] = std::abs(d[i] * x[i]);
      // 2 ulps of 1/d in fp64; a few float ulps in fp32 (elementwise_tolerance).
      reciprocal_scale[i] = !fp32() ? 4.5e-16 / d[i] : 1 / d[i];
    }
    cpu.multiply(*ds.cpu, *xs.cpu, *out.cpu);
    gpu->multiply(*ds.gpu, *xs.gpu, *out.gpu);
    expect_close(out, product_scale, "multiply");

    cpu.reciprocal(*ds.cpu, *out.cpu);
    gpu->reciprocal(*ds.gpu, *out.gpu);
    if (!fp32()) {
      const std::vector<real> want = values(cpu, *out.cpu), got = values(*gpu, *out.gpu);
      for (std::size_t i = 0; i < n; ++i)
        ASSERT_LE(std::abs(got[i] - want[i]), reciprocal_scale[i]) << "reciprocal i=" << i;
    } else {
      expect_close(out, reciprocal_scale, "reciprocal");
    }
  }
}

// Above 65535 x 64 entries the element-wise kernels run on a 2D grid (docs/architecture.md §9).
TEST_P(CoreOperations, TwoDimensionalGridCoversEveryEntry) {
  const std::size_t n = 65535 * 64 + 1000;
  const std::vector<real> x = random_values(n, 6, fp32());
  Pair xs = make_pair(x), ys = make_pair(std::vector<real>(n, 1.0));
  cpu.axpy(2, *xs.cpu, *ys.cpu);
  gpu->axpy(2, *xs.gpu, *ys.gpu);
  std::vector<real> scale(n);
  for (std::size_t i = 0; i < n; ++i) scale[i] = 1 + std::abs(2 * x[i]);
  expect_close(ys, scale, "axpy on a 2D grid");
}

real sum_abs_products(const std::vector<real>& x, const std::vector<real>& y, std::size_t n) {
  real s = 0;
  for (std::size_t i = 0; i < n; ++i) s += std::abs(x[i] * y[i]);
  return s;
}

TEST_P(CoreOperations, DotMatchesCpuAndIsDeterministic) {
  for (std::size_t size : kSizes) {
    const auto n = static_cast<index>(size - size / 7);  // owned entries: ghosts never count
    const std::vector<real> x = random_values(size, 7 + size, fp32());
    const std::vector<real> y = random_values(size, 8 + size, fp32());
    Pair xs = make_pair(x), ys = make_pair(y);
    const real want = cpu.dot(*xs.cpu, *ys.cpu, n);
    const real got = gpu->dot(*xs.gpu, *ys.gpu, n);
    EXPECT_LE(std::abs(got - want),
              reduction_tolerance(fp32()) * sum_abs_products(x, y, static_cast<std::size_t>(n)))
        << "size " << size << " n " << n << ": " << got << " vs " << want;
    for (int repeat = 0; repeat < 3; ++repeat)
      ASSERT_EQ(std::bit_cast<std::uint64_t>(gpu->dot(*xs.gpu, *ys.gpu, n)),
                std::bit_cast<std::uint64_t>(got))
          << "size " << size << ": dot changed on repeat " << repeat;
  }
}

// A maximum is exact: max_abs must equal the cpu's bit for bit. The largest |x_i| is planted as
// a negative value in the last owned entry, and a larger ghost entry (i >= n) must not count.
TEST_P(CoreOperations, MaxAbsEqualsCpuBitForBit) {
  for (std::size_t size : {0, 1, 63, 1025, 100003}) {
    const auto n = static_cast<index>(size - size / 7);  // owned entries: ghosts never count
    std::vector<real> x = random_values(size, 9 + size, fp32());
    if (n > 0) x[static_cast<std::size_t>(n) - 1] = -1.5;
    if (static_cast<std::size_t>(n) < size) x.back() = 8;
    Pair xs = make_pair(x);
    for (const index count : {n, n / 2}) {
      const real want = cpu.max_abs(*xs.cpu, count);
      const real got = gpu->max_abs(*xs.gpu, count);
      EXPECT_EQ(std::bit_cast<std::uint64_t>(got), std::bit_cast<std::uint64_t>(want))
          << "size " << size << " n " << count << ": " << got << " vs " << want;
    }
    if (n > 0) {
      EXPECT_EQ(gpu->max_abs(*xs.gpu, n), 1.5) << "size " << size;
    }
  }
}

// PCG scalars of both backends holding the same values.
struct ScalarPair {
  std::unique_ptr<Scalars> cpu, gpu;
};

TEST_P(CoreOperations, ScalarsRoundTripAndDotIntoASlot) {
  ScalarPair s{cpu.make_scalars(PcgSlots::count), gpu->make_scalars(PcgSlots::count)};
  std::vector<real> got(PcgSlots::count, 1);
  gpu->read_scalars(*s.gpu, got);
  EXPECT_EQ(got, std::vector<real>(PcgSlots::count, 0));  // made as zeros
  const std::vector<real> v = {0.5, -2, 3.25, static_cast<real>(1e-3f), 0, 7, 1, -4};
  gpu->write_scalars(v, *s.gpu);
  gpu->read_scalars(*s.gpu, got);
  for (std::size_t k = 0; k < v.size(); ++k)
    EXPECT_EQ(got[k], v[k]);  // float-representable: exact whatever the scalars' precision
  cpu.write_scalars(v, *s.cpu);
  for (std::size_t size : {0, 1, 1025, 100003}) {
    const auto n = static_cast<index>(size - size / 7);
    Pair xs = make_pair(random_values(size, 30 + size, fp32()));
    Pair ys = make_pair(random_values(size, 31 + size, fp32()));
    gpu->dot(*xs.gpu, *ys.gpu, n, *s.gpu, 3);
    cpu.dot(*xs.cpu, *ys.cpu, n, *s.cpu, 3);
    std::vector<real> want(PcgSlots::count);
    gpu->read_scalars(*s.gpu, got);
    cpu.read_scalars(*s.cpu, want);
    // The same kernels as the read-back dot: the same bits; the other slots are untouched.
    EXPECT_EQ(got[3], gpu->dot(*xs.gpu, *ys.gpu, n)) << "size " << size;
    const std::vector<real> x = values(cpu, *xs.cpu), y = values(cpu, *ys.cpu);
    EXPECT_LE(std::abs(got[3] - want[3]),
              reduction_tolerance(fp32()) * sum_abs_products(x, y, static_cast<std::size_t>(n)))
        << "size " << size;
    EXPECT_EQ(got[2], 3.25);
    EXPECT_EQ(got[4], 0);
  }
}

// slot_op, slot_check_positive and the slot forms of axpy and xpay against the cpu: the slots
// bit for bit (fp64; fp32 scalars round the quotients), the fields as axpy and xpay do (with an
// inverse square root, to the few ulps by which GLSL may round it otherwise).
TEST_P(CoreOperations, SlotOperationsMatchCpu) {
  using backend::SlotCoefficient;
  using backend::SlotOp;
  constexpr index kCount = 8;  // 0..3 operands, 4..6 a record (flag 4), 7 a result
  const std::vector<real> s0 = {0.75, -2.5, 0, 3, 0, 0, 0, 1};
  const real tol = elementwise_tolerance(fp32());
  const auto expect_slots = [&](const Scalars& c, const Scalars& g, const std::string& what) {
    std::vector<real> want(kCount), got(kCount);
    cpu.read_scalars(c, want);
    gpu->read_scalars(g, got);
    for (std::size_t j = 0; j < want.size(); ++j)
      EXPECT_LE(std::abs(got[j] - want[j]), tol * std::abs(want[j]))
          << what << ": slot " << j << " " << got[j] << " vs " << want[j];
    return want;
  };
  struct Case {
    index out, a;
    SlotOp op;
    index b;
    real want;
  };
  const Case cases[] = {
      {7, 0, SlotOp::divide, 3, 0.25},
      {7, 0, SlotOp::divide, 1, -0.3},
      {7, 0, SlotOp::divide, 2, 0},
      {7, 0, SlotOp::divide_if_positive, 3, 0.25},
      {7, 0, SlotOp::divide_if_positive, 1, 0},
      {7, 0, SlotOp::divide_if_positive, 2, 0},
      {7, 1, SlotOp::multiply, 3, -7.5},
      {7, 1, SlotOp::multiply, 2, 0},
      {0, 0, SlotOp::divide, 3, 0.25},  // the result replaces an operand
  };
  for (const Case& c : cases) {
    ScalarPair s{cpu.make_scalars(kCount), gpu->make_scalars(kCount)};
    cpu.write_scalars(s0, *s.cpu);
    gpu->write_scalars(s0, *s.gpu);
    cpu.slot_op(*s.cpu, c.out, c.a, c.op, c.b);
    gpu->slot_op(*s.gpu, c.out, c.a, c.op, c.b);
    const std::string what =
        fmt::format("slot_op {} {} {} -> {}", c.a, static_cast<int>(c.op), c.b, c.out);
    const std::vector<real> want = expect_slots(*s.cpu, *s.gpu, what);
    EXPECT_NEAR(want[static_cast<std::size_t>(c.out)], c.want, 1e-15) << what;
  }

  // A record: nothing while both are > 0, the first failure, then nothing again.
  ScalarPair s{cpu.make_scalars(kCount), gpu->make_scalars(kCount)};
  cpu.write_scalars(s0, *s.cpu);
  gpu->write_scalars(s0, *s.gpu);
  const std::vector<real> recorded = {0.75, -2.5, 0, 3, 5, -2.5, 3, 1};
  for (const auto& [a, b, tag, after] : {std::tuple{0, 3, 4.0, s0}, std::tuple{1, 3, 5.0, recorded},
                                         std::tuple{2, 3, 6.0, recorded}}) {
    cpu.slot_check_positive(*s.cpu, a, b, 4, tag);
    gpu->slot_check_positive(*s.gpu, a, b, 4, tag);
    EXPECT_EQ(expect_slots(*s.cpu, *s.gpu, fmt::format("check {} {}", a, b)), after);
  }

  // Coefficients: -s[0]; s[1] through an open gate (s[2] = 0); s[3] through a shut one (s[4]);
  // -1 / sqrt(s[3]), 2 / sqrt(s[0]), and 0 for 1 / sqrt(s[1]) (s[1] < 0).
  for (const std::size_t n : {std::size_t{0}, std::size_t{65}, std::size_t{5000}}) {
    const std::vector<real> x = random_values(n, 40 + n, fp32());
    const std::vector<real> y = random_values(n, 41 + n, fp32());
    constexpr index kNone = SlotCoefficient::none;
    for (const SlotCoefficient c :
         {SlotCoefficient{0, -1}, SlotCoefficient{1, 1, 2}, SlotCoefficient{3, 1, 4},
          SlotCoefficient{3, -1, kNone, true}, SlotCoefficient{0, 2, kNone, true},
          SlotCoefficient{1, 1, kNone, true}}) {
      const real v = recorded[static_cast<std::size_t>(c.slot)];
      const real a = c.gate == 4      ? 0
                     : c.inverse_sqrt ? (v > 0 ? c.sign / std::sqrt(v) : 0)
                                      : c.sign * v;
      std::vector<real> scale(n);
      for (std::size_t i = 0; i < n; ++i) scale[i] = std::abs(y[i]) + std::abs(a * x[i]);
      Pair xs = make_pair(x), ys = make_pair(y);
      cpu.axpy(*s.cpu, c, *xs.cpu, *ys.cpu);
      gpu->axpy(*s.gpu, c, *xs.gpu, *ys.gpu);
      // GLSL's inverse square root need not be correctly rounded (NVIDIA's 1 / sqrt(3) is an
      // ulp off the cpu's): the fields then as close as a coefficient an ulp or two off gives.
      const real at_least = c.inverse_sqrt ? 4 * std::numeric_limits<real>::epsilon() : 0;
      expect_close(ys, scale, fmt::format("axpy slot {} n={}", c.slot, n), at_least);
      if (c.gate == 4) {
        EXPECT_EQ(values(*gpu, *ys.gpu), y) << "axpy through a shut gate";
      }
      Pair xs2 = make_pair(y), ys2 = make_pair(x);  // y = x + c y with the roles swapped
      cpu.xpay(*xs2.cpu, *s.cpu, c, *ys2.cpu);
      gpu->xpay(*xs2.gpu, *s.gpu, c, *ys2.gpu);
      expect_close(ys2, scale, fmt::format("xpay slot {} n={}", c.slot, n), at_least);
      if (c.gate == 4) {
        EXPECT_EQ(values(*gpu, *ys2.gpu), x) << "xpay through a shut gate";
      }
    }
  }
}

// dots and axpys (GMRES's Gram-Schmidt) against the cpu over 0-5 fields: the dots to the
// reductions' tolerance in slots after an untouched one and the same bits on a repeat, y as the
// loop of axpys rounds it.
TEST_P(CoreOperations, DotsAndAxpysMatchCpu) {
  constexpr index kFirst = 1;
  for (std::size_t size : kSizes) {
    const auto n = static_cast<index>(size - size / 7);
    const std::vector<real> y = random_values(size, 60 + size, fp32());
    std::vector<std::vector<real>> xv;
    std::vector<Pair> xs;
    for (int i = 0; i < 5; ++i) {
      xv.push_back(random_values(size, 61 + i + size, fp32()));
      xs.push_back(make_pair(xv.back()));
    }
    for (std::size_t count = 0; count <= xs.size(); ++count) {
      std::vector<const Field*> xc, xg;
      for (std::size_t i = 0; i < count; ++i) {
        xc.push_back(xs[i].cpu.get());
        xg.push_back(xs[i].gpu.get());
      }
      Pair ys = make_pair(y);
      ScalarPair s{cpu.make_scalars(8), gpu->make_scalars(8)};
      const std::vector<real> s0(8, -7);
      cpu.write_scalars(s0, *s.cpu);
      gpu->write_scalars(s0, *s.gpu);
      cpu.dots(xc, *ys.cpu, n, *s.cpu, kFirst);
      gpu->dots(xg, *ys.gpu, n, *s.gpu, kFirst);
      std::vector<real> want(8), got(8);
      cpu.read_scalars(*s.cpu, want);
      gpu->read_scalars(*s.gpu, got);
      const std::string what = fmt::format("size {} count {}", size, count);
      EXPECT_EQ(got[0], -7) << what;
      for (std::size_t i = 0; i < count; ++i)
        EXPECT_LE(
            std::abs(got[i + 1] - want[i + 1]),
            reduction_tolerance(fp32()) * sum_abs_products(xv[i], y, static_cast<std::size_t>(n)))
            << what << " dot " << i << ": " << got[i + 1] << " vs " << want[i + 1];
      EXPECT_EQ(got[count + 1], -7) << what;
      std::vector<real> again(8);
      gpu->dots(xg, *ys.gpu, n, *s.gpu, kFirst);
      gpu->read_scalars(*s.gpu, again);
      EXPECT_EQ(again, got) << what << ": dots changed on a repeat";
      // y - sum_i s[1 + i] x_i with the cpu's slots on both (their dots may differ in rounding).
      gpu->write_scalars(want, *s.gpu);
      cpu.axpys(*s.cpu, kFirst, -1, xc, *ys.cpu);
      gpu->axpys(*s.gpu, kFirst, -1, xg, *ys.gpu);
      std::vector<real> scale(size);
      for (std::size_t e = 0; e < size; ++e) {
        scale[e] = std::abs(y[e]);
        for (std::size_t i = 0; i < count; ++i) scale[e] += std::abs(want[i + 1] * xv[i][e]);
      }
      expect_close(ys, scale, "axpys " + what);
    }
  }
}

// The multi-rank PCG's update (alpha and beta from the host), with and without Jacobi, first
// and later iterations: the first n entries of every vector as the cpu's (element-wise
// tolerance), r·z and r·r to the reduction tolerance; the other slots untouched.
TEST_P(CoreOperations, PcgRanksUpdateMatchesCpu) {
  const real alpha = fp32() ? real(0.375f) : 0.3754321, beta = fp32() ? real(0.625f) : 0.6251234;
  constexpr index kRz = 0, kRr = 2;
  for (std::size_t size : kSizes) {
    const auto n = static_cast<index>(size - size / 7);
    const auto un = static_cast<std::size_t>(n);
    const std::vector<real> w = random_values(size, 20 + size, fp32());
    const std::vector<real> dinv = random_values(size, 21 + size, fp32(), 0.5, 2.0);
    const std::vector<real> z0 = random_values(size, 22 + size, fp32());
    const std::vector<real> p0 = random_values(size, 23 + size, fp32());
    const std::vector<real> q0 = random_values(size, 24 + size, fp32());
    const std::vector<real> x0 = random_values(size, 25 + size, fp32());
    const std::vector<real> r0 = random_values(size, 26 + size, fp32());
    const std::vector<real> s0 = {-9, 5, -9, 7};
    Pair ws = make_pair(w), ds = make_pair(dinv);
    for (const bool jacobi : {true, false}) {
      for (const bool first : {true, false}) {
        const std::string what =
            fmt::format("size {}{}{}: ", size, jacobi ? " jacobi" : "", first ? " first" : "");
        Pair zs = make_pair(z0), ps = make_pair(p0), qs = make_pair(q0), xs = make_pair(x0),
             rs = make_pair(r0);
        ScalarPair s{cpu.make_scalars(4), gpu->make_scalars(4)};
        cpu.write_scalars(s0, *s.cpu);
        gpu->write_scalars(s0, *s.gpu);
        cpu.pcg_ranks_update(alpha, beta, first, *ws.cpu, jacobi ? ds.cpu.get() : nullptr, *zs.cpu,
                             *ps.cpu, *qs.cpu, *xs.cpu, *rs.cpu, n, *s.cpu, kRz, kRr);
        gpu->pcg_ranks_update(alpha, beta, first, *ws.gpu, jacobi ? ds.gpu.get() : nullptr, *zs.gpu,
                              *ps.gpu, *qs.gpu, *xs.gpu, *rs.gpu, n, *s.gpu, kRz, kRr);
        // Scales of the first n entries (the rest is unspecified and not compared).
        std::vector<real> sp(size), sq(size), sx(size), sr(size), sz(size);
        for (std::size_t i = 0; i < un; ++i) {
          sp[i] = std::abs(z0[i]) + (first ? 0 : std::abs(beta * p0[i]));
          sq[i] = std::abs(w[i]) + (first ? 0 : std::abs(beta * q0[i]));
          sx[i] = std::abs(x0[i]) + std::abs(alpha) * sp[i];
          sr[i] = std::abs(r0[i]) + std::abs(alpha) * sq[i];
          sz[i] = jacobi ? std::abs(dinv[i]) * sr[i] : std::abs(z0[i]);
        }
        const auto expect_first_n = [&](const Pair& f, const std::vector<real>& scale,
                                        const char* name) {
          const std::vector<real> want = values(cpu, *f.cpu), got = values(*gpu, *f.gpu);
          int bad = 0;
          for (std::size_t i = 0; i < un; ++i)
            if (!(std::abs(got[i] - want[i]) <= elementwise_tolerance(fp32()) * scale[i]) &&
                bad++ < 3)
              ADD_FAILURE() << what << name << " i=" << i << ": " << got[i] << " vs " << want[i];
        };
        expect_first_n(ps, sp, "p");
        expect_first_n(qs, sq, "q");
        expect_first_n(xs, sx, "x");
        expect_first_n(rs, sr, "r");
        expect_first_n(zs, sz, "z");
        std::vector<real> want(4), got(4);
        cpu.read_scalars(*s.cpu, want);
        gpu->read_scalars(*s.gpu, got);
        const std::vector<real> r1 = values(cpu, *rs.cpu), z1 = values(cpu, *zs.cpu);
        const real tol = reduction_tolerance(fp32());
        EXPECT_LE(std::abs(got[kRr] - want[kRr]), tol * sum_abs_products(r1, r1, un)) << what;
        if (jacobi) {
          EXPECT_LE(std::abs(got[kRz] - want[kRz]), tol * sum_abs_products(r1, z1, un)) << what;
        } else {
          EXPECT_EQ(got[kRz], s0[kRz]) << what;  // not a Jacobi step: r·z is left alone
          EXPECT_EQ(want[kRz], s0[kRz]) << what;
        }
        EXPECT_EQ(got[1], s0[1]) << what;
        EXPECT_EQ(got[3], s0[3]) << what;
      }
    }
  }
}

// Iteration k = 1 (r·z before it in slot rz0 + 1, after it in slot rz0): a sound iteration
// updates x, r, z and the sums as the cpu does, bit for bit on every repeat; then p·q <= 0 at
// iteration k + 1 must leave x and r alone and record the breakdown, and a later sound-looking
// iteration must not undo the record or move x.
TEST_P(CoreOperations, PcgUpdateMatchesCpuAndIsDeterministic) {
  const real alpha = fp32() ? real(0.375f) : 0.3754321;
  using Sl = PcgSlots;
  constexpr int k = 1;
  for (std::size_t size : kSizes) {
    const auto n = static_cast<index>(size - size / 7);
    const std::vector<real> p = random_values(size, 10 + size, fp32());
    const std::vector<real> q = random_values(size, 11 + size, fp32());
    const std::vector<real> dinv = random_values(size, 12 + size, fp32(), 0.5, 2.0);
    const std::vector<real> x0 = random_values(size, 13 + size, fp32());
    const std::vector<real> r0 = random_values(size, 14 + size, fp32());
    const std::vector<real> z0 = random_values(size, 15 + size, fp32());
    Pair ps = make_pair(p), qs = make_pair(q), ds = make_pair(dinv);
    std::vector<real> s0(Sl::count, 0);
    // rz / pq = alpha / 3: in fp64 a quotient that no float holds, so a division done in float
    // precision on a device shows (the scales below take alpha, an upper bound).
    s0[Sl::pq] = 3;
    s0[Sl::rz_before(k)] = alpha;
    s0[Sl::rz_after(k)] = -9;
    s0[Sl::rr] = -9;
    std::vector<real> first;
    for (int repeat = 0; repeat < 3; ++repeat) {
      Pair xs = make_pair(x0), rs = make_pair(r0), zs = make_pair(z0);
      ScalarPair s{cpu.make_scalars(Sl::count), gpu->make_scalars(Sl::count)};
      cpu.write_scalars(s0, *s.cpu);
      gpu->write_scalars(s0, *s.gpu);
      cpu.pcg_update(k, *s.cpu, *ps.cpu, *qs.cpu, *ds.cpu, *xs.cpu, *rs.cpu, *zs.cpu, n);
      gpu->pcg_update(k, *s.gpu, *ps.gpu, *qs.gpu, *ds.gpu, *xs.gpu, *rs.gpu, *zs.gpu, n);
      std::vector<real> want(Sl::count), got(Sl::count);
      cpu.read_scalars(*s.cpu, want);
      gpu->read_scalars(*s.gpu, got);
      if (repeat > 0) {
        for (std::size_t j = 0; j < got.size(); ++j)
          ASSERT_EQ(std::bit_cast<std::uint64_t>(got[j]), std::bit_cast<std::uint64_t>(first[j]));
        continue;
      }
      first = got;
      // Scales of the updated entries; entries >= n must be untouched (exact).
      std::vector<real> sx(size, 0.0), sr(size, 0.0), sz(size, 0.0);
      const std::vector<real> r1 = values(cpu, *rs.cpu), z1 = values(cpu, *zs.cpu);
      for (index i = 0; i < n; ++i) {
        sx[i] = std::abs(x0[i]) + std::abs(alpha * p[i]);
        sr[i] = std::abs(r0[i]) + std::abs(alpha * q[i]);
        sz[i] = std::abs(dinv[i]) * sr[i];
      }
      expect_close(xs, sx, "pcg_update x");
      expect_close(rs, sr, "pcg_update r");
      expect_close(zs, sz, "pcg_update z");
      const auto un = static_cast<std::size_t>(n);
      const real tol = reduction_tolerance(fp32());
      // fp32: r and z are rounded on the GPU, so r·z carries their rounding (relative 1e-7 each).
      EXPECT_LE(std::abs(got[Sl::rz_after(k)] - want[Sl::rz_after(k)]),
                tol * sum_abs_products(r1, z1, un))
          << "r·z size " << size;
      EXPECT_LE(std::abs(got[Sl::rr] - want[Sl::rr]), tol * sum_abs_products(r1, r1, un))
          << "r·r size " << size;
      for (index j : {Sl::pq, Sl::rz_before(k), Sl::breakdown, Sl::breakdown_pq, Sl::breakdown_rz})
        EXPECT_EQ(got[j], want[j]) << "slot " << j << " size " << size;

      // Breakdown: p·q = -0.5 at iteration k + 1; then iteration k + 2, whose p·q looks sound.
      const real rz_want = want[Sl::rz_after(k)], rz_got = got[Sl::rz_after(k)];
      for (const auto& [it, pq] : {std::pair{k + 1, -0.5}, std::pair{k + 2, 1.0}}) {
        got[Sl::pq] = want[Sl::pq] = pq;
        cpu.write_scalars(want, *s.cpu);
        gpu->write_scalars(got, *s.gpu);
        const std::vector<real> x1 = values(*gpu, *xs.gpu), r1g = values(*gpu, *rs.gpu);
        cpu.pcg_update(it, *s.cpu, *ps.cpu, *qs.cpu, *ds.cpu, *xs.cpu, *rs.cpu, *zs.cpu, n);
        gpu->pcg_update(it, *s.gpu, *ps.gpu, *qs.gpu, *ds.gpu, *xs.gpu, *rs.gpu, *zs.gpu, n);
        EXPECT_EQ(values(*gpu, *xs.gpu), x1) << "x moved after a breakdown, size " << size;
        EXPECT_EQ(values(*gpu, *rs.gpu), r1g) << "r moved after a breakdown, size " << size;
        // Each backend keeps its sums (they differ in the last bits: summation order): r·z and
        // r·r stay those of the unchanged r and z = dinv .* r (a fused kernel keeps them, the
        // default sequence recomputes them: the same bits); the record is the same on both.
        const std::vector<real> want_before = want, got_before = got;
        cpu.read_scalars(*s.cpu, want);
        gpu->read_scalars(*s.gpu, got);
        EXPECT_EQ(want[Sl::breakdown], k + 2);
        EXPECT_EQ(want[Sl::breakdown_pq], -0.5);
        EXPECT_EQ(want[Sl::breakdown_rz], rz_want);
        EXPECT_EQ(got[Sl::breakdown], want[Sl::breakdown]) << "size " << size << " pq " << pq;
        EXPECT_EQ(got[Sl::breakdown_pq], want[Sl::breakdown_pq]) << "size " << size;
        EXPECT_EQ(got[Sl::breakdown_rz], rz_got) << "size " << size << " pq " << pq;
        for (const auto* v : {&want, &got}) {
          const auto& before = v == &want ? want_before : got_before;
          EXPECT_EQ((*v)[Sl::rz_after(it)], (*v)[Sl::rz_before(it)]) << "size " << size;
          EXPECT_EQ((*v)[Sl::rr], before[Sl::rr]) << "size " << size;
        }
      }
    }
  }
}

// p = z + beta p with beta = s[rz_after(k)] / s[rz_before(k)], or beta = 0 when that divisor is
// not > 0; for both parities of k.
TEST_P(CoreOperations, PcgDirectionMatchesCpu) {
  for (std::size_t size : kSizes) {
    const std::vector<real> z = random_values(size, 40 + size, fp32());
    const std::vector<real> p = random_values(size, 41 + size, fp32());
    for (const int k : {0, 1})
      for (const real rz_before : {0.75, 0.0}) {
        std::vector<real> sv(PcgSlots::count, 0);
        sv[PcgSlots::rz_before(k)] = rz_before;
        sv[PcgSlots::rz_after(k)] = 0.5;
        ScalarPair s{cpu.make_scalars(PcgSlots::count), gpu->make_scalars(PcgSlots::count)};
        cpu.write_scalars(sv, *s.cpu);
        gpu->write_scalars(sv, *s.gpu);
        Pair zs = make_pair(z), ps = make_pair(p);
        cpu.pcg_direction(k, *s.cpu, *zs.cpu, *ps.cpu);
        gpu->pcg_direction(k, *s.gpu, *zs.gpu, *ps.gpu);
        std::vector<real> scale(size);
        for (std::size_t i = 0; i < size; ++i) scale[i] = std::abs(z[i]) + std::abs(p[i]);
        expect_close(ps, scale, "pcg_direction");
      }
  }
}

// The BiCGStab updates take alpha, beta and omega from the scalars on the device; against the
// cpu's from the same slots (a GLSL double division may differ by an ulp: 1e-14 relative in
// fp64, a few float ulps in fp32). Case 1: omega 0 (beta 0); case 2: r0·v and rho_{k-1} 0
// (alpha and beta 0): finite vectors, as the twin.
TEST_P(CoreOperations, BicgstabUpdatesMatchCpu) {
  using S = BicgstabSlots;
  const real tol = !fp32() ? 1e-14 : 1e-6;
  for (std::size_t n : {std::size_t(1), std::size_t(65), std::size_t(5000)}) {
    for (const int c : {0, 1, 2}) {
      const int k = c % 2;
      std::vector<real> slots(S::count);
      slots[S::rho_now(k)] = 0.8125;
      slots[S::rho_before(k)] = c == 2 ? 0.0 : 1.25;
      slots[S::r0v] = c == 2 ? 0.0 : -0.625;
      slots[S::ts] = 0.375;
      slots[S::tt] = c == 1 ? 0.0 : 0.5;  // omega 0.75, or 0 (t·t not > 0)
      const auto cs = cpu.make_scalars(S::count), gs = gpu->make_scalars(S::count);
      cpu.write_scalars(slots, *cs);
      gpu->write_scalars(slots, *gs);
      Pair r = make_pair(random_values(n, 1 + n, fp32())),
           v = make_pair(random_values(n, 2 + n, fp32())),
           p = make_pair(random_values(n, 3 + n, fp32())),
           y = make_pair(random_values(n, 4 + n, fp32())),
           t = make_pair(random_values(n, 5 + n, fp32())),
           x = make_pair(random_values(n, 6 + n, fp32()));
      const std::vector<real> scale(n, 8.0);  // |terms| below 1 times scalars below 4
      const auto close = [&](const Pair& f, const char* what) {
        const std::vector<real> want = values(cpu, *f.cpu), got = values(*gpu, *f.gpu);
        for (std::size_t i = 0; i < n; ++i) {
          ASSERT_TRUE(std::isfinite(want[i])) << what << " case " << c << " i=" << i;
          ASSERT_NEAR(got[i], want[i], tol * scale[i]) << what << " case " << c << " i=" << i;
        }
      };
      cpu.bicgstab_direction(k, *cs, *r.cpu, *v.cpu, *p.cpu);
      gpu->bicgstab_direction(k, *gs, *r.gpu, *v.gpu, *p.gpu);
      close(p, "direction");
      cpu.bicgstab_half(k, *cs, *r.cpu, *v.cpu, *y.cpu);
      gpu->bicgstab_half(k, *gs, *r.gpu, *v.gpu, *y.gpu);
      close(y, "half");
      cpu.bicgstab_update(k, *cs, *p.cpu, *v.cpu, *y.cpu, *t.cpu, *x.cpu, *r.cpu);
      gpu->bicgstab_update(k, *gs, *p.gpu, *v.gpu, *y.gpu, *t.gpu, *x.gpu, *r.gpu);
      close(x, "update x");
      close(r, "update r");
    }
  }
}

TEST_P(CoreOperations, DownloadIndicesGathersAndRefreshesItsCache) {
  const std::size_t size = 3000;
  const std::vector<real> v = random_values(size, 20, fp32());
  Pair f = make_pair(v);
  std::vector<index> indices;
  for (index k = 0; k < 1500; ++k) indices.push_back((k * 7919) % 3000);  // scattered, repeats
  indices.push_back(0);
  indices.push_back(2999);
  std::vector<real> got(indices.size()), want(indices.size());
  for (int pass = 0; pass < 3; ++pass) {
    if (pass == 2) indices[5] = 1234;  // edited in place: the cached copy must be refreshed
    gpu->download_indices(*f.gpu, indices, got);
    cpu.download_indices(*f.cpu, indices, want);
    ASSERT_EQ(got, want) << "pass " << pass;
  }
  // The same contents at another address, and an empty list.
  const std::vector<index> copy = indices;
  gpu->download_indices(*f.gpu, copy, got);
  EXPECT_EQ(got, want);
  std::vector<real> none;
  gpu->download_indices(*f.gpu, std::vector<index>{}, none);
}

// The two halves of a gather (a halo pack with overlap): two gathers pending into two outputs
// at once, other work queued between the halves, the ends in the other order; the values where
// the end says they are (gl-compute fp64: its mapped memory).
TEST_P(CoreOperations, DownloadIndicesInTwoHalvesGathersTheSame) {
  const std::size_t size = 3000;
  Pair f = make_pair(random_values(size, 30, fp32()));
  Pair g = make_pair(random_values(size, 31, fp32()));
  std::vector<index> a, b;
  for (index k = 0; k < 1200; ++k) a.push_back((k * 7919) % 3000);
  for (index k = 0; k < 700; ++k) b.push_back((k * 104729 + 5) % 3000);
  std::vector<real> got_a(a.size()), got_b(b.size()), want_a(a.size()), want_b(b.size());
  cpu.download_indices(*f.cpu, a, want_a);
  cpu.download_indices(*g.cpu, b, want_b);
  for (int pass = 0; pass < 2; ++pass) {
    const bool ready_a = gpu->download_indices_begin(*f.gpu, a, got_a, 0);
    const bool ready_b = gpu->download_indices_begin(*g.gpu, b, got_b, 0);
    auto other = gpu->make_field(static_cast<index>(size));
    gpu->copy(*f.gpu, *other);  // work between the halves, reading what the gathers read
    gpu->axpy(2, *g.gpu, *other);
    const auto end = [&](bool ready, std::vector<real>& got) {
      if (ready) return got;
      const std::span<const real> at = gpu->download_indices_end(got);
      return std::vector<real>(at.begin(), at.end());
    };
    EXPECT_EQ(end(ready_b, got_b), want_b) << "pass " << pass;
    EXPECT_EQ(end(ready_a, got_a), want_a) << "pass " << pass;
  }
}

TEST_P(CoreOperations, UploadRangeWritesOnlyItsRange) {
  const std::vector<real> v = random_values(1000, 21, fp32());
  const std::vector<real> ghost = random_values(137, 22, fp32());
  Pair f = make_pair(v);
  cpu.upload_range(ghost, *f.cpu, 800);
  gpu->upload_range(ghost, *f.gpu, 800);
  EXPECT_EQ(values(*gpu, *f.gpu), values(cpu, *f.cpu));
  gpu->upload_range({}, *f.gpu, 1000);  // an empty range at the end
  EXPECT_EQ(values(*gpu, *f.gpu), values(cpu, *f.cpu));
}

// The receive of a narrowed halo plan: scattered ascending entries (runs and gaps, the first and
// last entry of the field, entries sharing a texel) get their values and every other entry keeps
// its own; twice through the same list, then through the list edited in place (its cached map or
// point list rebuilt), and through the backend's default (runs of upload_range).
TEST_P(CoreOperations, UploadIndicesWritesOnlyItsEntries) {
  const std::size_t n = 3001;
  Pair f = make_pair(random_values(n, 26, fp32()));
  std::vector<index> entries = {0, 1, 2, 5};
  for (index i = 9; i < 2990; i += (i % 5 == 0 ? 1 : 3)) entries.push_back(i);
  entries.push_back(static_cast<index>(n - 1));
  for (const unsigned seed : {27u, 28u, 29u}) {
    if (seed == 29u) entries[3] = 6;  // edited in place: the same data pointer
    const std::vector<real> v = random_values(entries.size(), seed, fp32());
    cpu.upload_indices(v, entries, *f.cpu, 0);
    gpu->upload_indices(v, entries, *f.gpu, 0);
    ASSERT_EQ(values(*gpu, *f.gpu), values(cpu, *f.cpu)) << "seed " << seed;
    gpu->Backend::upload_indices(v, entries, *f.gpu, 0);
    ASSERT_EQ(values(*gpu, *f.gpu), values(cpu, *f.cpu)) << "default, seed " << seed;
  }
}

// A halo receive into the backend's staging memory (gl-compute fp64; an empty span elsewhere):
// two receive buffers handed out at once, a plain upload between, each uploaded from where it
// was received; and index lists named by ids (a halo plan's), two at one address.
TEST_P(CoreOperations, ReceiveBuffersAndNamedListsUploadTheirValues) {
  const std::size_t n = 3001;
  Pair f = make_pair(random_values(n, 40, fp32()));
  std::vector<index> entries;
  for (index i = 3; i < 2700; i += (i % 4 == 0 ? 1 : 5)) entries.push_back(i);
  for (const unsigned seed : {41u, 42u, 43u}) {
    if (seed == 43u)  // another list at the same address, named by another id
      for (index& e : entries) e += 1;
    const std::uint64_t id = seed == 43u ? 12 : 11;
    const std::vector<real> v = random_values(entries.size(), seed, fp32());
    const std::vector<real> ghost = random_values(137, seed + 10, fp32());
    const std::vector<real> plain = random_values(50, seed + 20, fp32());
    const std::span<real> a = gpu->receive_buffer(v.size());
    const std::span<real> b = gpu->receive_buffer(ghost.size());
    ASSERT_EQ(a.empty(), b.empty());
    ASSERT_TRUE(a.empty() || (a.size() == v.size() && b.size() == ghost.size()));
    if (!a.empty()) {  // as MPI would receive them
      std::copy(v.begin(), v.end(), a.begin());
      std::copy(ghost.begin(), ghost.end(), b.begin());
    }
    gpu->upload_range(plain, *f.gpu, 20);  // must not take a or b
    cpu.upload_range(plain, *f.cpu, 20);
    gpu->upload_indices(a.empty() ? std::span<const real>(v) : a, entries, *f.gpu, id);
    cpu.upload_indices(v, entries, *f.cpu, id);
    gpu->upload_range(b.empty() ? std::span<const real>(ghost) : b, *f.gpu, 2850);
    cpu.upload_range(ghost, *f.cpu, 2850);
    ASSERT_EQ(values(*gpu, *f.gpu), values(cpu, *f.cpu)) << "seed " << seed;
    std::vector<real> got(entries.size()), want(entries.size());
    cpu.download_indices(*f.cpu, entries, want);
    if (!gpu->download_indices_begin(*f.gpu, entries, got, id + 100)) {
      const std::span<const real> at = gpu->download_indices_end(got);
      got.assign(at.begin(), at.end());
    }
    ASSERT_EQ(got, want) << "seed " << seed;
  }
}

// A boundary-data field: values at listed entries (every 7th and the last; GL_POINTS on
// gl-raster), 0 at the others, twice through the same list, then through the same list edited
// in place (its point list rebuilt).
TEST_P(CoreOperations, UploadEntriesWritesItsEntriesAndZerosTheRest) {
  const std::size_t n = 5003;
  Pair f = make_pair(std::vector<real>(n, 9.0));
  std::vector<index> entries;
  for (std::size_t i = 2; i < n; i += 7) entries.push_back(static_cast<index>(i));
  entries.push_back(static_cast<index>(n - 1));
  for (const unsigned seed : {23u, 24u, 25u}) {
    if (seed == 25u) entries.front() = 0;  // edited in place: the same data pointer
    const std::vector<real> v = random_values(entries.size(), seed, fp32());
    cpu.upload_entries(entries, v, *f.cpu);
    gpu->upload_entries(entries, v, *f.gpu);
    EXPECT_EQ(values(*gpu, *f.gpu), values(cpu, *f.cpu)) << seed;
    EXPECT_EQ(values(*gpu, *f.gpu)[1], 0.0) << seed;  // not listed: 9 before the first call
  }
  cpu.upload_entries({}, {}, *f.cpu);
  gpu->upload_entries({}, {}, *f.gpu);
  EXPECT_EQ(values(*gpu, *f.gpu), values(cpu, *f.cpu));
  EXPECT_EQ(values(*gpu, *f.gpu)[n - 1], 0.0);
}

// A random sparse matrix: rows of 0 to `longest` entries (every 7th row: up to 2; empty rows,
// rows longer than a SELL slice is wide), float-representable values.
SparseMatrix random_matrix(index rows, index cols, index longest, std::uint64_t seed, bool fp32) {
  SparseMatrix a;
  a.rows = rows;
  a.cols = cols;
  const std::vector<real> len =
      random_field(static_cast<std::size_t>(rows), seed, 0, static_cast<real>(longest + 1));
  for (index i = 0; i < rows; ++i) {
    const index n = cols == 0 ? 0 : static_cast<index>(len[i]) % (i % 7 == 0 ? 3 : longest + 1);
    const std::vector<real> col =
        random_field(static_cast<std::size_t>(n), seed + 7 * i + 1, 0, cols);
    const std::vector<real> val =
        random_values(static_cast<std::size_t>(n), seed + 7 * i + 2, fp32);
    for (index k = 0; k < n; ++k) {
      a.column.push_back(std::min(cols - 1, static_cast<index>(col[k])));
      a.value.push_back(val[k]);
    }
    a.offset.push_back(a.entries());
  }
  return a;
}

TEST_P(CoreOperations, SparseMatrixProductsMatchCpu) {
  using Product = void (*)(const Backend&, const Matrix&, const Field&, const Field&, const Field&,
                           const Field&, Field&);
  const std::vector<std::pair<const char*, Product>> products = {
      {"apply", [](const Backend& be, const Matrix& a, const Field& x, const Field&, const Field&,
                   const Field&, Field& y) { be.matrix_apply(a, x, y); }},
      {"residual", [](const Backend& be, const Matrix& a, const Field& x, const Field& b,
                      const Field&, const Field&, Field& y) { be.matrix_residual(a, b, x, y); }},
      {"apply_add",
       [](const Backend& be, const Matrix& a, const Field& x, const Field&, const Field& z,
          const Field&, Field& y) { be.matrix_apply_add(a, x, z, y); }},
      {"jacobi", [](const Backend& be, const Matrix& a, const Field& x, const Field& b,
                    const Field&, const Field& w, Field& y) { be.matrix_jacobi(a, w, b, x, y); }}};
  // fp32 sums of up to 400 products round at each step: a relative 1e-5 of sum |terms|.
  const real tol = !fp32() ? 0 : 1e-5;
  // Rows of up to 40 entries, and of up to 400: split into chunks (backend/sparse_matrix.hpp).
  for (const auto& [rows, cols, longest] :
       std::vector<std::tuple<index, index, index>>{{0, 5, 40},
                                                    {1, 1, 40},
                                                    {65, 40, 40},
                                                    {40, 65, 40},
                                                    {1025, 3000, 40},
                                                    {5000, 5000, 40},
                                                    {300, 500, 400}}) {
    const SparseMatrix a = random_matrix(rows, cols, longest, 40 + rows, fp32());
    ASSERT_EQ(backend::split_long_rows(a).has_value(), longest > 40) << rows << "x" << cols;
    const auto ga = gpu->make_matrix(a), ca = cpu.make_matrix(a);
    ASSERT_EQ(ga->rows(), rows);
    ASSERT_EQ(ga->cols(), cols);
    // Fields one longer than needed: the extra entry (a ghost) must keep its value.
    const auto n = static_cast<std::size_t>(std::max(rows, cols)) + 1;
    Pair x = make_pair(random_values(n, 1, fp32())), b = make_pair(random_values(n, 2, fp32())),
         z = make_pair(random_values(n, 3, fp32())), w = make_pair(random_values(n, 4, fp32()));
    for (const auto& [name, product] : products) {
      Pair y = make_pair(std::vector<real>(n, 9.0));
      product(cpu, *ca, *x.cpu, *b.cpu, *z.cpu, *w.cpu, *y.cpu);
      product(*gpu, *ga, *x.gpu, *b.gpu, *z.gpu, *w.gpu, *y.gpu);
      const std::vector<real> want = values(cpu, *y.cpu), got = values(*gpu, *y.gpu);
      const std::vector<real> xv = values(cpu, *x.cpu);
      for (index i = 0; i < static_cast<index>(n); ++i) {
        real scale = 4;  // |b|, |z|, |x| and |w| (b + sum) are below 1, 1, 1 and 1 x that
        if (i < rows)
          for (index k = a.offset[i]; k < a.offset[i + 1]; ++k)
            scale += std::abs(a.value[k] * xv[a.column[k]]) * 2;
        ASSERT_LE(std::abs(got[i] - want[i]), tol * scale)
            << name << " " << rows << "x" << cols << " i=" << i << ": " << got[i] << " vs "
            << want[i];
        if (i >= rows) {
          ASSERT_EQ(got[i], 9.0) << name << ": entry past the rows written";
        }
      }
    }
  }
}

// Backward-Euler heat step on the nodes of a mesh: (V/dt + K) T = rhs with Dirichlet nodes on
// the boundary, through Backend::make_node_system, as physics/heat drives it.
class NodeSystem final : public solvers::LinearOperator {
 public:
  NodeSystem(const Backend& be, const topology::Mesh& m) : be_(be), m_(m) {
    const auto n = static_cast<std::size_t>(m.n_nodes);
    std::vector<real> d(n), fixed(n);
    const std::vector<bool> interior = interior_nodes(m);
    for (std::size_t i = 0; i < n; ++i) {
      d[i] = m.node_dual_volume[i] / 0.05;  // rho c V / dt
      fixed[i] = interior[i] ? 0 : 1;
    }
    d_ = upload(d);
    w_ = upload(m.edge_stiffness);
    fixed_ = upload(fixed);
    system_ = be.make_node_system(m, *d_, 1, *w_, *fixed_);
    matrix = backend::node_system_matrix(m, d, 1, m.edge_stiffness, fixed);
  }
  index size() const override { return m_.n_nodes; }
  index owned() const override { return m_.n_owned_nodes; }
  void apply(Field& x, Field& y) const override { system_->apply(x, y); }
  void diagonal(Field& d) const override { be_.node_system_diagonal(m_, *d_, 1, *w_, *fixed_, d); }
  SparseMatrix matrix;  // the same operator on the host, for the AMG hierarchy

 private:
  std::unique_ptr<Field> upload(const std::vector<real>& v) const {
    auto f = be_.make_field(static_cast<index>(v.size()));
    be_.upload(v, *f);
    return f;
  }
  const Backend& be_;
  const topology::Mesh& m_;
  std::unique_ptr<Field> d_, w_, fixed_;
  std::unique_ptr<backend::NodeSystem> system_;
};

struct Solve {
  solvers::SolveResult result;
  std::vector<real> x;
};

Solve solve_heat(const Backend& be, const topology::Mesh& m, real tolerance, bool amg = false) {
  NodeSystem a(be, m);
  std::unique_ptr<solvers::Amg> precond;
  if (amg) precond = std::make_unique<solvers::Amg>(be, solvers::build_amg(a.matrix), m.n_nodes, 1);
  const auto n = static_cast<std::size_t>(m.n_nodes);
  std::vector<real> rhs = random_field(n, 30, 0, 1);
  auto b = be.make_field(m.n_nodes), x = be.make_field(m.n_nodes);
  be.upload(rhs, *b);
  be.fill(*x, 0);
  solvers::Pcg pcg(be, m.n_nodes);
  Solve s;
  s.result = pcg.solve(a, *b, *x, {.relative_tolerance = tolerance, .check_every = 1}, true,
                       precond.get());
  s.x.resize(n);
  be.download(*x, s.x);
  return s;
}

TEST_P(CoreOperations, PcgOnNodeSystemReproducesCpu) {
  const real tol = !fp32() ? 1e-10 : 1e-5;
  for (const bool amg : {false, true})
    for (const char* name : {"square_irregular", "cube_irregular"}) {
      SCOPED_TRACE(amg ? "AMG" : "Jacobi");
      const topology::Mesh* m = find_mesh(name);
      ASSERT_NE(m, nullptr);
      const Solve want = solve_heat(cpu, *m, tol, amg);
      const Solve got = solve_heat(*gpu, *m, tol, amg);
      ASSERT_TRUE(want.result.converged()) << want.result.message;
      ASSERT_TRUE(got.result.converged()) << name << ": " << got.result.message;
      EXPECT_NEAR(got.result.iterations, want.result.iterations, 1) << name;
      const real scale = max_abs(want.x);
      real err = 0;
      for (std::size_t i = 0; i < want.x.size(); ++i)
        err = std::max(err, std::abs(got.x[i] - want.x[i]));
      EXPECT_LE(err, 10 * tol * scale) << name;
      report(GetParam().name + " PCG solution on " + name, err / scale);
      std::printf("[ iterations  ] %s, %s: cpu %d, %s %d\n", name, amg ? "AMG" : "Jacobi",
                  want.result.iterations, GetParam().name.c_str(), got.result.iterations);
    }
}

INSTANTIATE_TEST_SUITE_P(conformance, CoreOperations, ::testing::ValuesIn(backend_variants()),
                         VariantName());

}  // namespace
}  // namespace scfd::test
