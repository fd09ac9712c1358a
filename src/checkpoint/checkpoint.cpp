// Checkpoint files (see checkpoint.hpp).
#include "checkpoint/checkpoint.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <variant>

#include "checkpoint/global_blocks.hpp"
#include "core/collectives.hpp"
#include "core/error.hpp"
#include "h5/h5.hpp"
#include "output/atomic_file.hpp"

namespace scfd::checkpoint {
namespace {

constexpr const char* kFormat = "streamcfd checkpoint";
constexpr double kVersion = 1;
using halo::Entity;
constexpr std::array<Entity, 4> kEntities = {Entity::node, Entity::edge, Entity::face,
                                             Entity::cell};

// splitmix64's finaliser: a hash of one 64-bit word.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
  return mix(mix(a) ^ b);
}

const std::vector<index>& gid_vector(const topology::Mesh& m, Entity e) {
  switch (e) {
    case Entity::node:
      return m.node_gid;
    case Entity::edge:
      return m.edge_gid;
    case Entity::face:
      return m.face_gid;
    case Entity::cell:
      return m.cell_gid;
  }
  return m.cell_gid;
}

index local_count(const topology::Mesh& m, Entity e, bool owned) {
  switch (e) {
    case Entity::node:
      return owned ? m.n_owned_nodes : m.n_nodes;
    case Entity::edge:
      return owned ? m.n_owned_edges : m.n_edges;
    case Entity::face:
      return owned ? m.n_owned_faces : m.n_faces;
    case Entity::cell:
      return owned ? m.n_owned_cells : m.n_cells;
  }
  return 0;
}

// Global ids of the first n local entities (a serial mesh has no gid arrays: its own indices).
std::vector<std::int64_t> gids(const topology::Mesh& m, Entity e, index n) {
  const std::vector<index>& g = gid_vector(m, e);
  std::vector<std::int64_t> out(static_cast<std::size_t>(n));
  for (index i = 0; i < n; ++i) out[static_cast<std::size_t>(i)] = g.empty() ? i : g[i];
  return out;
}

// Checksum of a field in global order: sum over entities of mix(gid, bits of the value).
std::uint64_t checksum(std::span<const std::int64_t> ids, std::span<const real> values) {
  std::uint64_t s = 0;
  for (std::size_t i = 0; i < ids.size(); ++i)
    s += mix(static_cast<std::uint64_t>(ids[i]), std::bit_cast<std::uint64_t>(values[i]));
  return s;
}

// Checksum of the scalars: the root's step and time, then every /values entry in the model's
// order.
std::uint64_t values_checksum(double step, double time, std::span<const double> values) {
  std::vector<std::int64_t> ids(values.size() + 2);
  std::iota(ids.begin(), ids.end(), 0);
  std::vector<real> all{step, time};
  all.insert(all.end(), values.begin(), values.end());
  return checksum(ids, all);
}

// Why the scalar v cannot be the value of `member` (empty: it can): finite; an int a whole number
// in [-1, 2^31); a bool 0 or 1.
std::string impossible(const physics::StateValue& member, double v) {
  if (!std::isfinite(v)) return "not finite";
  if (std::holds_alternative<int*>(member.value) &&
      (v != std::floor(v) || v < -1 || v > std::numeric_limits<int>::max()))
    return "not a count";
  if (std::holds_alternative<bool*>(member.value) && v != 0 && v != 1) return "not 0 or 1";
  return {};
}

}  // namespace

struct Checkpointer::Impl {
  const topology::Mesh& mesh;
  const backend::Backend& be;
  std::array<std::int64_t, 4> global{};  // global count per entity kind
  std::uint64_t fingerprint = 0;
  // Built on first use (collectively: every rank uses the same fields in the same order).
  mutable std::map<std::pair<Entity, bool>, std::unique_ptr<BlockExchange>> exchanges;

  std::int64_t count(Entity e) const { return global[static_cast<std::size_t>(e)]; }

  const BlockExchange& exchange(Entity e, bool owned) const {
    auto& x = exchanges[{e, owned}];
    if (!x) {
      const std::vector<std::int64_t> ids = gids(mesh, e, local_count(mesh, e, owned));
      x = std::make_unique<BlockExchange>(ids, count(e));
    }
    return *x;
  }
};

Checkpointer::Checkpointer(const topology::Mesh& m, const backend::Backend& be)
    : impl_(std::make_unique<Impl>(Impl{m, be, {}, 0, {}})) {
  for (const Entity e : kEntities) {
    const std::vector<std::int64_t> ids = gids(m, e, local_count(m, e, true));
    const std::int64_t top = ids.empty() ? -1 : *std::max_element(ids.begin(), ids.end());
    impl_->global[static_cast<std::size_t>(e)] = global_max(top) + 1;
  }
  // Every owned node's id and coordinates, every owned cell's id and (sorted) node ids.
  std::uint64_t h = 0;
  const std::vector<std::int64_t> node_ids = gids(m, Entity::node, m.n_nodes);
  for (index n = 0; n < m.n_owned_nodes; ++n) {
    std::uint64_t v = static_cast<std::uint64_t>(node_ids[static_cast<std::size_t>(n)]);
    for (int d = 0; d < 3; ++d) v = mix(v, std::bit_cast<std::uint64_t>(m.node_x[n][d]));
    h += v;
  }
  const std::vector<std::int64_t> cell_ids = gids(m, Entity::cell, m.n_owned_cells);
  const int w = m.cell_width();
  for (index c = 0; c < m.n_owned_cells; ++c) {
    std::array<std::int64_t, 4> nodes{};
    for (int k = 0; k < w; ++k)
      nodes[static_cast<std::size_t>(k)] =
          node_ids[static_cast<std::size_t>(m.cell_nodes[w * c + k])];
    for (int i = 1; i < w; ++i)  // insertion sort (std::sort trips GCC's -Warray-bounds here)
      for (int j = i;
           j > 0 && nodes[static_cast<std::size_t>(j - 1)] > nodes[static_cast<std::size_t>(j)];
           --j)
        std::swap(nodes[static_cast<std::size_t>(j - 1)], nodes[static_cast<std::size_t>(j)]);
    std::uint64_t v = static_cast<std::uint64_t>(cell_ids[static_cast<std::size_t>(c)]) + 1;
    for (int k = 0; k < w; ++k)
      v = mix(v, static_cast<std::uint64_t>(nodes[static_cast<std::size_t>(k)]));
    h += v;
  }
  impl_->fingerprint = global_sum(h);
}

Checkpointer::~Checkpointer() = default;

void Checkpointer::write(const std::filesystem::path& path, physics::Model& model,
                         const std::string& case_text) const {
  const Impl& im = *impl_;
  const topology::Mesh& m = im.mesh;
  const bool root = world_rank() == 0;
  const std::filesystem::path tmp = output::temp_path_for(path);
  const physics::ModelState state = model.state();
  h5::Steps steps;
  h5::Id file;
  steps([&] { file = h5::create_file(tmp, MPI_COMM_WORLD); });
  steps([&] {
    const hid_t f = file.get();
    h5::write_attribute(f, "format", std::string(kFormat));
    h5::write_attribute(f, "version", kVersion);
    h5::write_attribute(f, "model", model.name());
    h5::write_attribute(f, "dim", static_cast<double>(m.dim));
    h5::write_attribute(f, "step", static_cast<double>(model.step()));
    h5::write_attribute(f, "time", model.time());
    h5::write_attribute(f, "ranks", static_cast<double>(world_size()));
    h5::write_text(f, "case", case_text, root);
    const h5::Id g = h5::create_group(f, "mesh");
    for (const Entity e : kEntities)
      h5::write_attribute(g.get(), std::string(halo::entity_name(e)) + "s",
                          static_cast<double>(im.count(e)));
    h5::write_attribute(g.get(), "fingerprint", im.fingerprint);
    const h5::Id values = h5::create_group(f, "values");
    std::vector<double> v(state.values.size());
    for (std::size_t k = 0; k < v.size(); ++k) {
      v[k] = state.values[k].get();
      h5::write_attribute(values.get(), state.values[k].name, v[k]);
    }
    h5::write_attribute(values.get(), "checksum",
                        values_checksum(static_cast<double>(model.step()), model.time(), v));
  });
  h5::Id fields;
  steps([&] { fields = h5::create_group(file.get(), "fields"); });
  for (const physics::StateField& sf : state.fields) {
    const index n_owned = local_count(m, sf.entity, true);
    SCFD_CHECK(sf.field->size() == local_count(m, sf.entity, false),
               "state field {}: {} values for {} local {}s", sf.name, sf.field->size(),
               local_count(m, sf.entity, false), halo::entity_name(sf.entity));
    std::vector<real> local(static_cast<std::size_t>(sf.field->size()));
    im.be.download(*sf.field, local);
    local.resize(static_cast<std::size_t>(n_owned));
    const std::uint64_t sum = global_sum(checksum(gids(m, sf.entity, n_owned), local));
    const BlockExchange& x = im.exchange(sf.entity, true);
    std::vector<real> block(static_cast<std::size_t>(x.block().size));
    x.to_blocks(local, block);
    steps([&] {
      const h5::Id ds =
          h5::write_doubles(fields.get(), sf.name, im.count(sf.entity), x.block().begin, block);
      h5::write_attribute(ds.get(), "entity", std::string(halo::entity_name(sf.entity)));
      h5::write_attribute(ds.get(), "checksum", sum);
    });
  }
  steps([&] {
    fields = {};
    file.close();
  });
  std::string renamed;
  if (steps.error().empty() && root) {
    try {
      output::commit_temp_file(path);  // fsync, rename
    } catch (const InputError& e) {
      renamed = e.what();
    }
  }
  std::string error = steps.error().empty() ? first_message(renamed) : steps.error();
  if (error.empty()) return;
  fields = {};
  file = {};
  if (root) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
  }
  if (steps.error().empty()) throw InputError(error);  // the commit's line names the file
  throw input_error("cannot write the checkpoint {}: {}", path.string(), error);
}

Header Checkpointer::read(const std::filesystem::path& path, physics::Model& model) const {
  const Impl& im = *impl_;
  const topology::Mesh& m = im.mesh;
  const physics::ModelState state = model.state();
  const auto fail = [&](const std::string& why) {
    throw input_error("checkpoint {}: {}", path.string(), why);
  };
  {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) fail("no such file");
  }
  Header h;
  double root_step = -1;
  h5::Steps steps;
  h5::Id file;
  steps([&] { file = h5::open_file(path); });
  steps([&] {
    const hid_t f = file.get();
    if (h5::read_string(f, "format").value_or("") != kFormat)
      throw h5::Error("not a streamcfd checkpoint (no format attribute \"streamcfd checkpoint\")");
    const double version = h5::read_double(f, "version").value_or(0);
    if (version != kVersion)
      throw h5::Error(
          fmt::format("format version {} (this streamcfd reads version {})", version, kVersion));
    h.model = h5::read_string(f, "model").value_or("");
    root_step = h5::read_double(f, "step").value_or(-1);
    h.time = h5::read_double(f, "time").value_or(std::nan(""));
    h.ranks = static_cast<int>(h5::read_double(f, "ranks").value_or(0));
    if (h.model != model.name())
      throw h5::Error(fmt::format("it holds a {} state, the case runs {} (physics.model)", h.model,
                                  model.name()));
    if (h5::read_double(f, "dim").value_or(0) != m.dim)
      throw h5::Error(fmt::format("it holds a {}D state, the mesh is {}D",
                                  h5::read_double(f, "dim").value_or(0), m.dim));
    const h5::Id g = h5::open_group(f, "mesh");
    for (const Entity e : kEntities) {
      const std::string key = std::string(halo::entity_name(e)) + "s";
      const double n = h5::read_double(g.get(), key).value_or(-1);
      if (n != static_cast<double>(im.count(e)))
        throw h5::Error(fmt::format("it was written for another mesh ({} {}, this mesh has {})", n,
                                    key, im.count(e)));
    }
    if (h5::read_u64(g.get(), "fingerprint").value_or(0) != im.fingerprint)
      throw h5::Error(
          "it was written for another mesh (same entity counts, different nodes or cells)");
    h.case_text = h5::read_text(f, "case");
  });
  // Every field and value into host buffers first: the model changes only when all are good.
  std::vector<std::vector<real>> blocks(state.fields.size());
  std::vector<std::uint64_t> sums(state.fields.size()), want(state.fields.size());
  h5::Id fields;
  steps([&] { fields = h5::open_group(file.get(), "fields"); });
  for (std::size_t k = 0; k < state.fields.size(); ++k) {
    const physics::StateField& sf = state.fields[k];
    const BlockExchange& x = im.exchange(sf.entity, false);
    steps([&] {
      const std::string name =
          !h5::exists(fields.get(), sf.name) && !sf.fallback.empty() ? sf.fallback : sf.name;
      if (!h5::exists(fields.get(), name))
        throw h5::Error("the dataset /fields/" + sf.name + " is missing");
      const h5::Id ds = h5::open_dataset(fields.get(), name);
      const std::string entity = h5::read_string(ds.get(), "entity").value_or("");
      if (entity != halo::entity_name(sf.entity) || h5::length(ds.get()) != im.count(sf.entity))
        throw h5::Error(
            fmt::format("the dataset /fields/{} holds {} values per {}, the model "
                        "needs {} per {}",
                        sf.name, h5::length(ds.get()), entity, im.count(sf.entity),
                        halo::entity_name(sf.entity)));
      want[k] = h5::read_u64(ds.get(), "checksum").value_or(0);
      blocks[k].resize(static_cast<std::size_t>(x.block().size));
      h5::read_doubles(ds.get(), x.block().begin, blocks[k]);
      std::vector<std::int64_t> ids(blocks[k].size());
      std::iota(ids.begin(), ids.end(), x.block().begin);
      sums[k] = checksum(ids, blocks[k]);
    });
  }
  std::vector<double> values(state.values.size());
  steps([&] {
    const h5::Id g = h5::open_group(file.get(), "values");
    std::vector<double> stored;  // the values the file holds, in the model's order
    for (std::size_t k = 0; k < state.values.size(); ++k) {
      const physics::StateValue& member = state.values[k];
      const std::optional<double> v = h5::read_double(g.get(), member.name);
      if (!v && !member.fallback)
        throw h5::Error("the value /values/" + member.name + " is missing");
      values[k] = v.value_or(member.fallback.value_or(0));
      if (v) stored.push_back(*v);
    }
    // The scalars decide how many steps run: a damaged one must not start a wrong run. The
    // checksum (files of this release on) catches any change; the ranges catch the impossible.
    const std::optional<std::uint64_t> sum = h5::read_u64(g.get(), "checksum");
    if (sum && *sum != values_checksum(root_step, h.time, stored))
      throw h5::Error("the values /values are damaged (their checksum does not match)");
    for (std::size_t k = 0; k < values.size(); ++k) {
      const physics::StateValue& v = state.values[k];
      if (const std::string why = impossible(v, values[k]); !why.empty())
        throw h5::Error(
            fmt::format("the value /values/{} = {} is damaged ({})", v.name, values[k], why));
      if ((v.name == "step" && values[k] != root_step) || (v.name == "time" && values[k] != h.time))
        throw h5::Error(fmt::format("the value /values/{} = {} is damaged (the file says {})",
                                    v.name, values[k], v.name == "step" ? root_step : h.time));
    }
    if (!(root_step >= 0 && root_step <= std::numeric_limits<int>::max() &&
          root_step == std::floor(root_step)) ||
        !std::isfinite(h.time))
      throw h5::Error(
          fmt::format("its step {} or time {} is damaged (not a step count and a finite time)",
                      root_step, h.time));
    h.step = static_cast<int>(root_step);
  });
  fields = {};
  file = {};
  if (!steps.error().empty()) fail(steps.error());
  for (std::size_t k = 0; k < state.fields.size(); ++k)
    if (global_sum(sums[k]) != want[k])
      fail("the dataset /fields/" + state.fields[k].name +
           " is damaged (its checksum does not match)");
  // All good: into the model.
  for (std::size_t k = 0; k < state.fields.size(); ++k) {
    const physics::StateField& sf = state.fields[k];
    std::vector<real> local(static_cast<std::size_t>(sf.field->size()));
    im.exchange(sf.entity, false).from_blocks(blocks[k], local);
    im.be.upload(local, *sf.field);
  }
  for (std::size_t k = 0; k < state.values.size(); ++k) state.values[k].set(values[k]);
  model.state_loaded();
  return h;
}

}  // namespace scfd::checkpoint
