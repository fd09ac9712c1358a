// The table of backends: one entry per backend, holding the word a case file uses for it, what
// it runs on, how `auto` detects that this machine can run it, and how to make it. Everything
// that names backends (the case-file choice, `streamcfd bench --backend`, make_backend, `auto`)
// reads this table, so a new backend is one entry here and its own folder.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "backend/backend.hpp"

namespace scfd::backend {

struct BackendEntry {
  std::string_view name;     // solver.backend in a case file, --backend of streamcfd bench
  std::string_view runs_on;  // one phrase for messages and docs ("OpenGL 4.3+ through EGL")
  // `auto` on this rank: whether this backend can run here with these options, and why (or why
  // not) in `reason`. Never throws.
  bool (*detect)(const BackendOptions& options, std::string& reason);
  // The backend; InputError where the options or the machine do not allow it.
  std::unique_ptr<Backend> (*make)(const BackendOptions& options);
};

// Every backend of this build, in the order `auto` prefers them; the last one (cpu) runs on every
// machine, so `auto` always finds one.
std::span<const BackendEntry> backend_table();

// The entry called `name`, or null.
const BackendEntry* find_backend(std::string_view name);

// The valid values of solver.backend: "auto" and every entry's name.
std::vector<std::string_view> backend_choices();

}  // namespace scfd::backend
