// Staged uploads (see upload.hpp).
#include "gl/upload.hpp"

namespace scfd::gl {

Uploader::Slot& Uploader::next_slot() {
  Slot& s = slots_[next_];
  next_ = (next_ + 1) % slots_.size();
  if (s.buffer.size() == 0) s.buffer = Buffer::host_visible(bytes_);
  s.copied.wait();
  return s;
}

}  // namespace scfd::gl
