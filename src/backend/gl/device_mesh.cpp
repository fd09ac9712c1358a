// Implementation: see device_mesh.hpp.
#include "backend/gl/device_mesh.hpp"
