// The process-wide synchronisation counters (see counters.hpp).
#include "core/counters.hpp"

#include <atomic>

namespace scfd::counters {
namespace {

std::array<std::atomic<std::uint64_t>, kinds> g_counters{};

}  // namespace

const char* name(Kind k) {
  switch (k) {
    case Kind::halo_exchange:
      return "halo_exchanges";
    case Kind::halo_round:
      return "halo_rounds";
    case Kind::halo_bytes_sent:
      return "halo_bytes_sent";
    case Kind::reduction:
      return "reductions";
    case Kind::coarse_gather:
      return "coarse_gathers";
    case Kind::other_collective:
      return "other_collectives";
    case Kind::gpu_wait:
      return "gpu_waits";
    case Kind::gpu_drain:
      return "gpu_drains";
    case Kind::gpu_wait_us:
      return "gpu_wait_microseconds";
    case Kind::gpu_dispatch:
      return "gpu_dispatches";
    case Kind::mpi_wait_us:
      return "mpi_wait_microseconds";
  }
  return "unknown";
}

std::array<Kind, kinds> all_kinds() {
  return {Kind::halo_exchange, Kind::halo_round,       Kind::halo_bytes_sent, Kind::reduction,
          Kind::coarse_gather, Kind::other_collective, Kind::gpu_wait,        Kind::gpu_drain,
          Kind::gpu_wait_us,   Kind::gpu_dispatch,     Kind::mpi_wait_us};
}

void add(Kind k, std::uint64_t n) {
  g_counters[static_cast<std::size_t>(k)].fetch_add(n, std::memory_order_relaxed);
}

GpuWait::GpuWait(Through how) : start_(std::chrono::steady_clock::now()) {
  add(Kind::gpu_wait);
  if (how == Through::drain) add(Kind::gpu_drain);
}

namespace {

void add_microseconds_since(Kind k, std::chrono::steady_clock::time_point start) {
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(
      std::chrono::steady_clock::now() - start);
  add(k, static_cast<std::uint64_t>(us.count()));
}

}  // namespace

GpuWait::~GpuWait() {
  add_microseconds_since(Kind::gpu_wait_us, start_);
}

MpiWait::MpiWait() : start_(std::chrono::steady_clock::now()) {}

MpiWait::~MpiWait() {
  add_microseconds_since(Kind::mpi_wait_us, start_);
}

Snapshot Snapshot::operator-(const Snapshot& earlier) const {
  Snapshot d;
  for (std::size_t i = 0; i < kinds; ++i) d.value[i] = value[i] - earlier.value[i];
  return d;
}

Snapshot snapshot() {
  Snapshot s;
  for (std::size_t i = 0; i < kinds; ++i)
    s.value[i] = g_counters[i].load(std::memory_order_relaxed);
  return s;
}

}  // namespace scfd::counters
