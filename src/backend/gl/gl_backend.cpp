// Implementation: see gl_backend.hpp.
#include "backend/gl/gl_backend.hpp"
