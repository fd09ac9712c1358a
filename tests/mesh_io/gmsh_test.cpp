#include <gtest/gtest.h>
TEST(Placeholder, gmsh_test) {}
