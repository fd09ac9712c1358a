// Implementation: see operators.hpp.
#include "backend/gl/operators.hpp"
