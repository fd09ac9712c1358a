// Cursor: reads a whole mesh file held in memory, for the Gmsh reader. ASCII numbers are parsed
// with std::from_chars (no streams, no allocation); binary values are copied with memcpy after a
// bounds check. Every failure throws one InputError that names the file and the position: the
// line for ASCII files ("path:12: ..."), the byte offset for binary ones ("path: byte 345: ...").
// Line numbers are only counted when an error is reported, so the hot loops stay cheap.
#pragma once

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "core/error.hpp"

namespace scfd::mesh_io::detail {

class Cursor {
 public:
  Cursor(std::string path, std::string data);
  Cursor(const Cursor&) = delete;
  Cursor& operator=(const Cursor&) = delete;

  const std::string& path() const { return path_; }
  // Binary files report errors by byte offset (line numbers mean nothing inside binary data).
  void set_binary(bool binary) { binary_ = binary; }
  bool binary() const { return binary_; }
  std::size_t pos() const { return static_cast<std::size_t>(p_ - begin_); }
  std::size_t left() const { return static_cast<std::size_t>(end_ - p_); }
  bool at_end() const { return p_ == end_; }

  // ---- errors ------------------------------------------------------------------------------
  // "path:line: message" (ASCII) or "path: byte N: message" (binary), for position `at`.
  [[noreturn]] void fail_at(std::size_t at, std::string_view message) const;
  [[noreturn]] void fail(std::string_view message) const { fail_at(pos(), message); }
  template <typename... Args>
  [[noreturn]] void failf(fmt::format_string<Args...> f, Args&&... args) const {
    fail(fmt::format(f, std::forward<Args>(args)...));
  }
  // The token at the cursor (up to 40 characters, non-printable bytes shown as '?') or a
  // description such as "end of line", for "found ..." in messages.
  std::string describe_here() const;

  // ---- ASCII -------------------------------------------------------------------------------
  void skip_space() {  // blanks and newlines
    while (p_ != end_ && is_space(*p_)) ++p_;
  }
  void skip_blanks() {  // blanks within the line
    while (p_ != end_ && is_blank(*p_)) ++p_;
  }
  // The next whitespace-delimited word (empty at the end of the file); skips newlines first.
  std::string_view word();
  // True (and the newline consumed) when only blanks remain on this line.
  bool at_line_end() {
    skip_blanks();
    if (p_ == end_) return true;
    if (*p_ != '\n') return false;
    ++p_;
    return true;
  }
  // Only blanks may remain on this line; consumes the newline. `what` names the line's content.
  void end_of_line(std::string_view what);
  // The next word must be `expected` (a section marker such as "$EndNodes").
  void expect_word(std::string_view expected);
  // Skips past `marker` (e.g. "$EndNodeData") at the start of a line; `section` names what is
  // skipped and `header_at` where it starts (for the error when the marker is missing).
  void skip_past_marker(std::string_view marker, std::string_view section, std::size_t header_at);
  // A double-quoted string on the current line (no escapes, as Gmsh writes them).
  std::string_view quoted_in_line(std::string_view what);

  // An integer on the current line.
  std::int64_t int_in_line(std::string_view what) {
    skip_blanks();
    std::int64_t v = 0;
    auto [q, ec] = std::from_chars(p_, end_, v);
    if (ec != std::errc() || !ends_token(q)) [[unlikely]]
      bad_number(what, "an integer", ec == std::errc::result_out_of_range);
    p_ = q;
    return v;
  }
  // A finite floating-point number on the current line.
  double real_in_line(std::string_view what) {
    skip_blanks();
    double v = 0;
    auto [q, ec] = std::from_chars(p_, end_, v);
    if (ec != std::errc() || !ends_token(q) || !std::isfinite(v)) [[unlikely]]
      bad_number(what, "a finite number", ec == std::errc::result_out_of_range);
    p_ = q;
    return v;
  }
  // An integer that starts a line (blank lines before it are skipped).
  std::int64_t int_first(std::string_view what) {
    skip_space();
    return int_in_line(what);
  }
  // An integer in [lo, hi] on the current line.
  std::int64_t int_in_range(std::string_view what, std::int64_t lo, std::int64_t hi,
                            bool first = false);

  // ---- binary ------------------------------------------------------------------------------
  // Fails unless `count` items of `item_bytes` each remain (no overflow for huge counts).
  void need_items(std::uint64_t count, std::uint64_t item_bytes, std::string_view what) const;
  void need(std::uint64_t bytes, std::string_view what) const { need_items(bytes, 1, what); }
  // Unchecked read of a trivially copyable value: call need/need_items first.
  template <typename T>
  T take() {
    static_assert(std::is_trivially_copyable_v<T>);
    T v;
    std::memcpy(&v, p_, sizeof(T));
    p_ += sizeof(T);
    return v;
  }
  template <typename T>
  T read(std::string_view what) {
    need(sizeof(T), what);
    return take<T>();
  }
  // A count of items of at least `min_item_bytes` each, in [0, cap], that the rest of the file
  // can hold: ASCII on the current line (skipping newlines first when `first`), or a binary
  // size_t (data size 8).
  std::int64_t ascii_count(std::string_view what, std::size_t min_item_bytes, std::int64_t cap,
                           bool first = false);
  std::int64_t binary_count(std::string_view what, std::size_t min_item_bytes, std::int64_t cap);
  void skip_bytes(std::uint64_t n, std::string_view what) {
    need(n, what);
    p_ += n;
  }

 private:
  static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
  static bool is_space(char c) { return is_blank(c) || c == '\n' || c == '\f' || c == '\v'; }
  bool ends_token(const char* q) const { return q == end_ || is_space(*q); }
  [[noreturn]] void bad_number(std::string_view what, std::string_view kind,
                               bool out_of_range) const;
  std::size_t line_of(std::size_t at) const;
  void check_count(std::size_t at, std::string_view what, std::uint64_t v, bool negative,
                   std::size_t min_item_bytes, std::int64_t cap) const;

  std::string path_;
  std::string data_;
  const char* begin_;
  const char* end_;
  const char* p_;
  bool binary_ = false;
};

}  // namespace scfd::mesh_io::detail
