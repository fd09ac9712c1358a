// Cursor for the Gmsh reader: error positions and the less frequent ASCII/binary reads (words,
// section markers, quoted names, checked counts). The hot number parsers are inline in the header.
#include "mesh_io/gmsh_cursor.hpp"

#include <algorithm>

namespace scfd::mesh_io::detail {

Cursor::Cursor(std::string path, std::string data)
    : path_(std::move(path)),
      data_(std::move(data)),
      begin_(data_.data()),
      end_(data_.data() + data_.size()),
      p_(begin_) {}

std::size_t Cursor::line_of(std::size_t at) const {
  at = std::min(at, data_.size());
  if (at == data_.size() && at > 0 && data_[at - 1] == '\n') --at;  // end of file: its last line
  return 1 + static_cast<std::size_t>(std::count(begin_, begin_ + at, '\n'));
}

void Cursor::fail_at(std::size_t at, std::string_view message) const {
  if (binary_) throw input_error("{}: byte {}: {}", path_, at, message);
  throw input_error("{}:{}: {}", path_, line_of(at), message);
}

std::string Cursor::describe_here() const {
  const char* q = p_;
  while (q != end_ && is_blank(*q)) ++q;
  if (q == end_) return "end of file";
  if (*q == '\n') return "end of line";
  std::string s = "'";
  for (int n = 0; q != end_ && !is_space(*q) && n < 40; ++q, ++n) {
    const auto c = static_cast<unsigned char>(*q);
    s += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
  }
  if (q != end_ && !is_space(*q)) s += "...";
  return s + "'";
}

void Cursor::bad_number(std::string_view what, std::string_view kind, bool out_of_range) const {
  const char* q = p_;
  while (q != end_ && is_blank(*q)) ++q;
  const std::size_t at = static_cast<std::size_t>(q - begin_);
  if (out_of_range) fail_at(at, fmt::format("{} is out of range: found {}", what, describe_here()));
  fail_at(at, fmt::format("expected {} ({}), found {}", what, kind, describe_here()));
}

std::string_view Cursor::word() {
  skip_space();
  const char* start = p_;
  while (p_ != end_ && !is_space(*p_)) ++p_;
  return {start, static_cast<std::size_t>(p_ - start)};
}

void Cursor::end_of_line(std::string_view what) {
  if (!at_line_end()) failf("unexpected extra value {} at the end of {}", describe_here(), what);
}

void Cursor::expect_word(std::string_view expected) {
  skip_space();
  const std::size_t at = pos();
  const std::string found = describe_here();
  if (word() != expected) {
    if (at == data_.size())
      fail_at(at, fmt::format("file ends before {} (truncated file?)", expected));
    fail_at(at, fmt::format("expected {}, found {}", expected, found));
  }
}

void Cursor::skip_past_marker(std::string_view marker, std::string_view section,
                              std::size_t header_at) {
  const std::string_view rest(p_, left());
  std::size_t at = 0;
  for (;;) {
    at = rest.find(marker, at);
    if (at == std::string_view::npos)
      fail_at(header_at, fmt::format("section {} has no {} (truncated file?)", section, marker));
    if (at == 0 || rest[at - 1] == '\n') break;  // the marker must start a line
    at += marker.size();
  }
  p_ += at + marker.size();
}

std::string_view Cursor::quoted_in_line(std::string_view what) {
  skip_blanks();
  if (p_ == end_ || *p_ != '"')
    failf("expected {} in double quotes, found {}", what, describe_here());
  const char* start = ++p_;
  while (p_ != end_ && *p_ != '"' && *p_ != '\n') ++p_;
  if (p_ == end_ || *p_ != '"') failf("{} has no closing double quote", what);
  return {start, static_cast<std::size_t>(p_++ - start)};
}

std::int64_t Cursor::int_in_range(std::string_view what, std::int64_t lo, std::int64_t hi,
                                  bool first) {
  if (first) skip_space();
  skip_blanks();
  const std::size_t at = pos();
  const std::int64_t v = int_in_line(what);
  if (v < lo || v > hi) fail_at(at, fmt::format("{} is {}, expected {} to {}", what, v, lo, hi));
  return v;
}

void Cursor::need_items(std::uint64_t count, std::uint64_t item_bytes,
                        std::string_view what) const {
  const std::uint64_t n = left();
  if (item_bytes != 0 && count > n / item_bytes) {
    if (item_bytes == 1 || count <= UINT64_MAX / item_bytes)
      failf("file ends inside {}: needs {} bytes, only {} left (truncated file?)", what,
            count * item_bytes, n);
    failf("file ends inside {}: count {} is far larger than the file", what, count);
  }
}

void Cursor::check_count(std::size_t at, std::string_view what, std::uint64_t v, bool negative,
                         std::size_t min_item_bytes, std::int64_t cap) const {
  if (negative) fail_at(at, fmt::format("{} is -{}, expected 0 or more", what, v));
  if (v > static_cast<std::uint64_t>(cap))
    fail_at(at, fmt::format("{} is {}, expected at most {}", what, v, cap));
  const std::size_t n = static_cast<std::size_t>(end_ - begin_) - at;
  if (min_item_bytes > 0 && v > n / min_item_bytes)
    fail_at(at, fmt::format("{} is {}, more than the {} bytes left in the file can hold "
                            "(truncated or corrupt file?)",
                            what, v, n));
}

std::int64_t Cursor::ascii_count(std::string_view what, std::size_t min_item_bytes,
                                 std::int64_t cap, bool first) {
  if (first) skip_space();
  skip_blanks();
  const std::size_t at = pos();
  const std::int64_t v = int_in_line(what);
  const bool negative = v < 0;
  check_count(at, what,
              negative ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v),
              negative, min_item_bytes, cap);
  return v;
}

std::int64_t Cursor::binary_count(std::string_view what, std::size_t min_item_bytes,
                                  std::int64_t cap) {
  const std::size_t at = pos();
  const auto v = read<std::uint64_t>(what);
  check_count(at, what, v, false, min_item_bytes, cap);
  return static_cast<std::int64_t>(v);
}

}  // namespace scfd::mesh_io::detail
