// STUB: to be replaced by its owner.
#include "backend/cpu/operators.hpp"
