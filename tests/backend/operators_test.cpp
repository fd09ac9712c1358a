#include <gtest/gtest.h>
TEST(Placeholder, Operators) {}
