// The case file's tables whose names are fixed ([mesh], [solver], [time], ...), with every name
// that any model, backend or the run itself reads in them. `streamcfd run` checks them before it
// reads the mesh, so a misspelt key there is reported in a second, not after the mesh and the
// model's set-up (minutes at millions of cells); the end-of-set-up check (Case::check_all_used)
// still reports a known key that the case's model does not read. tests/app/case_keys_test.cpp
// keeps these lists equal to the keys the sources read.
#pragma once

#include <span>
#include <string_view>

#include "config/case.hpp"

namespace scfd::app {

struct FixedTable {
  std::string_view name;
  std::span<const std::string_view> keys;  // sorted
};

std::span<const FixedTable> fixed_tables();

// InputError (exit code 2) for the first key of a fixed table that no part of the program reads.
void check_fixed_tables(const config::Case& c);

}  // namespace scfd::app
