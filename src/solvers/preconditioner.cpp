// The table of PCG preconditioners (see preconditioner.hpp). A new one: a class deriving from
// Preconditioner and one entry below; the case file, the docs' list and `info` follow the table.
#include "solvers/preconditioner.hpp"

#include <algorithm>
#include <array>

#include "core/error.hpp"
#include "solvers/amg.hpp"

namespace scfd::solvers {

namespace {

std::unique_ptr<Preconditioner> make_jacobi(const PreconditionerInput&) {
  return nullptr;
}

std::unique_ptr<Preconditioner> make_smoothed_aggregation(const PreconditionerInput& in) {
  return make_amg(in.be, in.matrix(), in.plan, in.what);
}

constexpr std::array<PreconditionerEntry, 2> kTable = {{
    {"jacobi", make_jacobi},             // diagonal: PCG's built-in, nothing assembled
    {"amg", make_smoothed_aggregation},  // solvers/amg.hpp, one V-cycle per iteration
}};

constexpr std::array<std::string_view, kTable.size()> kNames = [] {
  std::array<std::string_view, kTable.size()> names{};
  for (std::size_t k = 0; k < kTable.size(); ++k) names[k] = kTable[k].name;
  return names;
}();

}  // namespace

std::span<const PreconditionerEntry> preconditioner_table() {
  return kTable;
}

std::span<const std::string_view> preconditioner_names() {
  return kNames;
}

const PreconditionerEntry& find_preconditioner(std::string_view name) {
  const auto* it = std::find_if(kTable.begin(), kTable.end(),
                                [&](const PreconditionerEntry& e) { return e.name == name; });
  SCFD_CHECK(it != kTable.end(), "no preconditioner named '{}'", name);
  return *it;
}

std::unique_ptr<Preconditioner> make_preconditioner(std::string_view name,
                                                    const PreconditionerInput& in) {
  return find_preconditioner(name).make(in);
}

}  // namespace scfd::solvers
