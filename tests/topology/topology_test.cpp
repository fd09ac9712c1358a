#include <gtest/gtest.h>
TEST(Placeholder, Topology) {}
