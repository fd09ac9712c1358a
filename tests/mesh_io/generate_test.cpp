#include <gtest/gtest.h>
TEST(Placeholder, generate_test) {}
