// The two kinds of errors (docs/architecture.md §8.5).
//  - InputError: bad user input (mesh, case file, command line). The message is one line that
//    names the file, line, key or element, the bad value and what was expected. The app prints
//    it once (rank 0) and exits with code 2.
//  - SCFD_CHECK(cond, fmt, args...): a broken invariant of the program itself. Always on (also in
//    release builds); prints the expression, file:line, the rank and the message, then aborts
//    every rank (MPI_Abort when MPI is running, std::abort otherwise).
#pragma once

#include <fmt/format.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace scfd {

inline constexpr int kExitInputError = 2;

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

// Builds an InputError from a fmt format string: throw input_error("{}: line {}: ...", ...).
template <typename... Args>
InputError input_error(fmt::format_string<Args...> f, Args&&... args) {
  return InputError(fmt::format(f, std::forward<Args>(args)...));
}

// User input as a message quotes it: control characters escaped (\n, \t, \xNN: a newline would
// split the one-line message, an escape sequence would reach the terminal) and text beyond `max`
// characters cut, with "... (N characters)" saying how long it was.
std::string printable(std::string_view text, std::size_t max = 80);

[[noreturn]] void check_failed(const char* expr, const char* file, int line,
                               const std::string& message = {});

}  // namespace scfd

#define SCFD_CHECK(cond, ...)                                                                   \
  do {                                                                                          \
    if (!(cond)) [[unlikely]]                                                                   \
      ::scfd::check_failed(#cond, __FILE__, __LINE__ __VA_OPT__(, ::fmt::format(__VA_ARGS__))); \
  } while (false)
