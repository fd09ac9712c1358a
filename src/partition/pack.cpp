// pack / unpack (pack.hpp). visit_mesh lists every field of topology::Mesh once; the Writer and
// the Reader walk that same list, so the two directions cannot disagree. Layout: a magic number,
// then each field in list order: scalars as their bytes, vectors and strings as a 64-bit count
// followed by the elements (trivially copyable types only), structs field by field.
#include <cstring>
#include <type_traits>

#include "core/error.hpp"
#include "partition/pack.hpp"

namespace scfd::partition {
namespace {

using topology::Csr;
using topology::Mesh;
using topology::Patch;
using topology::Region;

constexpr std::uint64_t kMagic = 0x3168'7365'6d64'6673;  // "sfdmesh1"

// Every field of Mesh (and of its parts), in one fixed order. AR(x) writes or reads x.
template <typename Ar, typename C>
void visit_csr(Ar& ar, C& c) {
  ar(c.offset);
  ar(c.item);
  ar(c.sign);
}

template <typename Ar, typename M>
void visit_mesh(Ar& ar, M& m) {
  ar(m.source), ar(m.dim);
  ar(m.n_nodes), ar(m.n_edges), ar(m.n_faces), ar(m.n_cells), ar(m.n_interior_faces);
  ar(m.node_x), ar(m.node_tag);
  ar(m.cell_nodes), ar(m.cell_faces), ar(m.cell_face_sign), ar(m.cell_region), ar(m.cell_tag);
  ar(m.face_nodes), ar(m.face_cells), ar(m.face_patch);
  ar(m.edge_nodes);
  ar(m.face_curl), ar(m.face_curl_sign);
  visit_csr(ar, m.curl_faces);
  visit_csr(ar, m.node_cells);
  visit_csr(ar, m.node_edges);
  ar(m.cell_volume), ar(m.cell_centroid), ar(m.cell_circumcentre);
  ar(m.face_area), ar(m.face_normal), ar(m.face_centre), ar(m.face_dist);
  ar(m.node_dual_volume), ar(m.edge_dual_normal), ar(m.edge_stiffness);
  ar.count(m.patches);
  for (auto& p : m.patches) ar(p.name), ar(p.tag), ar(p.faces), ar(p.edges), ar(p.nodes);
  ar.count(m.regions);
  for (auto& r : m.regions) ar(r.name), ar(r.tag), ar(r.n_cells);
  ar(m.n_owned_nodes), ar(m.n_owned_edges), ar(m.n_owned_faces), ar(m.n_owned_cells);
  ar(m.n_inner_nodes), ar(m.n_inner_edges), ar(m.n_inner_faces), ar(m.n_inner_cells);
  ar(m.node_gid), ar(m.edge_gid), ar(m.face_gid), ar(m.cell_gid);
  ar(m.node_ghost_owner), ar(m.edge_ghost_owner), ar(m.face_ghost_owner), ar(m.cell_ghost_owner);
}

class Writer {
 public:
  std::vector<std::byte> bytes;

  template <typename T>
  void operator()(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    raw(&value, sizeof(T));
  }
  template <typename T>
  void operator()(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    (*this)(static_cast<std::uint64_t>(v.size()));
    raw(v.data(), v.size() * sizeof(T));
  }
  void operator()(const std::string& s) {
    (*this)(static_cast<std::uint64_t>(s.size()));
    raw(s.data(), s.size());
  }
  template <typename T>
  void count(const std::vector<T>& v) {
    (*this)(static_cast<std::uint64_t>(v.size()));
  }

 private:
  void raw(const void* data, std::size_t n) {
    if (n == 0) return;
    const std::size_t at = bytes.size();
    bytes.resize(at + n);
    std::memcpy(bytes.data() + at, data, n);
  }
};

class Reader {
 public:
  explicit Reader(std::span<const std::byte> bytes) : bytes_(bytes) {}

  template <typename T>
  void operator()(T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    raw(&value, sizeof(T));
  }
  template <typename T>
  void operator()(std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    v.resize(size(sizeof(T)));
    raw(v.data(), v.size() * sizeof(T));
  }
  void operator()(std::string& s) {
    s.resize(size(1));
    raw(s.data(), s.size());
  }
  template <typename T>
  void count(std::vector<T>& v) {
    v.resize(size(1));  // each element takes at least one byte
  }
  std::size_t left() const { return bytes_.size() - at_; }

 private:
  // A count of elements of ELEMENT bytes each, checked against the bytes left.
  std::size_t size(std::size_t element) {
    std::uint64_t n = 0;
    (*this)(n);
    SCFD_CHECK(n <= left() / element, "unpack: count {} exceeds the {} bytes left", n, left());
    return static_cast<std::size_t>(n);
  }
  void raw(void* data, std::size_t n) {
    SCFD_CHECK(n <= left(), "unpack: buffer truncated ({} bytes wanted, {} left)", n, left());
    if (n > 0) std::memcpy(data, bytes_.data() + at_, n);
    at_ += n;
  }

  std::span<const std::byte> bytes_;
  std::size_t at_ = 0;
};

}  // namespace

std::vector<std::byte> pack(const Mesh& mesh) {
  Writer w;
  w.bytes.reserve(mesh.bytes() + 4096);
  w(kMagic);
  visit_mesh(w, mesh);
  return std::move(w.bytes);
}

Mesh unpack(std::span<const std::byte> bytes) {
  Reader r(bytes);
  std::uint64_t magic = 0;
  r(magic);
  SCFD_CHECK(magic == kMagic, "unpack: not a packed mesh (magic {:#x})", magic);
  Mesh m;
  visit_mesh(r, m);
  SCFD_CHECK(r.left() == 0, "unpack: {} bytes left over after the mesh", r.left());
  return m;
}

}  // namespace scfd::partition
