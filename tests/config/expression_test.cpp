// Formula fields: values against hand-computed ones, precedence, folding and syntax errors.
#include "config/expression.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "core/error.hpp"

namespace scfd::config {
namespace {

double eval(std::string_view formula, double x = 0.3, double y = -0.7, double z = 1.9,
            double t = 0.25) {
  return Expression::parse(formula)(x, y, z, t);
}

std::string parse_error(std::string_view formula) {
  try {
    (void)Expression::parse(formula);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Expression, NumbersAndVariables) {
  EXPECT_DOUBLE_EQ(eval("2"), 2.0);
  EXPECT_DOUBLE_EQ(eval("2.5e-3"), 2.5e-3);
  EXPECT_DOUBLE_EQ(eval("6.02E+23"), 6.02e23);
  EXPECT_DOUBLE_EQ(eval(".5"), 0.5);
  EXPECT_DOUBLE_EQ(eval("x"), 0.3);
  EXPECT_DOUBLE_EQ(eval("y"), -0.7);
  EXPECT_DOUBLE_EQ(eval("z"), 1.9);
  EXPECT_DOUBLE_EQ(eval("t"), 0.25);
  EXPECT_DOUBLE_EQ(eval("pi"), std::numbers::pi);
}

TEST(Expression, Precedence) {
  EXPECT_DOUBLE_EQ(eval("1 + 2 * 3"), 7.0);
  EXPECT_DOUBLE_EQ(eval("(1 + 2) * 3"), 9.0);
  EXPECT_DOUBLE_EQ(eval("8 / 4 / 2"), 1.0);  // left-associative
  EXPECT_DOUBLE_EQ(eval("10 - 4 - 3"), 3.0);
  EXPECT_DOUBLE_EQ(eval("2 ^ 3 ^ 2"), 512.0);  // right-associative
  EXPECT_DOUBLE_EQ(eval("-2 ^ 2"), -4.0);      // ^ binds tighter than unary minus
  EXPECT_DOUBLE_EQ(eval("2 ^ -1"), 0.5);
  EXPECT_DOUBLE_EQ(eval("--3"), 3.0);
  EXPECT_DOUBLE_EQ(eval("+3 - -3"), 6.0);
  EXPECT_DOUBLE_EQ(eval("2 * -x"), -0.6);
  EXPECT_DOUBLE_EQ(eval("1 + x * y ^ 2"), 1.0 + 0.3 * 0.49);
}

TEST(Expression, Functions) {
  const double x = 0.3, y = -0.7, z = 1.9, t = 0.25;
  EXPECT_DOUBLE_EQ(eval("sin(pi*x)*exp(-t)"), std::sin(std::numbers::pi * x) * std::exp(-t));
  EXPECT_DOUBLE_EQ(eval("cos(x) + tan(y)"), std::cos(x) + std::tan(y));
  EXPECT_DOUBLE_EQ(eval("log(z) * sqrt(z)"), std::log(z) * std::sqrt(z));
  EXPECT_DOUBLE_EQ(eval("abs(y)"), 0.7);
  EXPECT_DOUBLE_EQ(eval("tanh(y) + sinh(x) + cosh(z)"), std::tanh(y) + std::sinh(x) + std::cosh(z));
  EXPECT_DOUBLE_EQ(eval("atan2(y, x)"), std::atan2(y, x));
  EXPECT_DOUBLE_EQ(eval("min(x, y)"), y);
  EXPECT_DOUBLE_EQ(eval("max(x, y)"), x);
  EXPECT_DOUBLE_EQ(eval("pow(z, 2.5)"), std::pow(z, 2.5));
  EXPECT_DOUBLE_EQ(eval("exp(-((x-0.5)^2 + (y-0.5)^2) / 0.01)"),
                   std::exp(-((x - 0.5) * (x - 0.5) + (y - 0.5) * (y - 0.5)) / 0.01));
}

TEST(Expression, ConstantsAreFolded) {
  const Expression c = Expression::parse("2 * sin(pi / 2) + 3 ^ 2");
  EXPECT_TRUE(c.is_constant());
  EXPECT_DOUBLE_EQ(c(9, 9, 9, 9), 11.0);
  EXPECT_FALSE(Expression::parse("2 * t").is_constant());
  EXPECT_FALSE(Expression::parse("0 * x").is_constant());  // no algebra, only folding
  EXPECT_EQ(Expression::parse("sin(x)").text(), "sin(x)");
  const Expression k = Expression::constant(1e-8);
  EXPECT_TRUE(k.is_constant());
  EXPECT_EQ(k(0, 0, 0, 0), 1e-8);
  EXPECT_EQ(k.text(), "1e-08");
  EXPECT_EQ(Expression()(1, 2, 3, 4), 0.0);
}

TEST(Expression, KnowsWhetherItReadsTime) {
  EXPECT_TRUE(Expression::parse("x * exp(-t)").uses_time());
  EXPECT_TRUE(Expression::parse("0 * t").uses_time());  // no algebra, only folding
  EXPECT_FALSE(Expression::parse("4*0.3*y*(0.41-y)/0.41^2").uses_time());
  EXPECT_FALSE(Expression::constant(2).uses_time());
}

TEST(Expression, EvaluatesAtEveryPoint) {
  const Expression e = Expression::parse("x*y + z - t");
  for (int i = 0; i < 10; ++i) {
    const double v = 0.1 * i;
    EXPECT_DOUBLE_EQ(e(v, 2 * v, 3 * v, 4 * v), v * 2 * v + 3 * v - 4 * v);
  }
}

TEST(Expression, SyntaxErrorsNameTheColumn) {
  EXPECT_EQ(parse_error("sin(pi*x"), "in formula 'sin(pi*x': expected ')' at column 9");
  EXPECT_EQ(parse_error(""), "in formula '': empty formula at column 1");
  EXPECT_EQ(parse_error("1 +"), "in formula '1 +': expected a number, name or '(' at column 4");
  EXPECT_EQ(parse_error("2x"), "in formula '2x': unexpected 'x' at column 2");
  EXPECT_EQ(parse_error("x $ 2"), "in formula 'x $ 2': unexpected '$' at column 3");
  EXPECT_EQ(parse_error("1.2.3"), "in formula '1.2.3': malformed number '1.2.3' at column 1");
  EXPECT_EQ(parse_error("1e"), "in formula '1e': malformed number '1e' at column 1");
  EXPECT_EQ(parse_error("sinn(x)"),
            "in formula 'sinn(x)': unknown name 'sinn' (did you mean 'sin'?) at column 1");
  EXPECT_EQ(parse_error("2*foo"), "in formula '2*foo': unknown name 'foo' at column 3");
  EXPECT_EQ(parse_error("sin x"), "in formula 'sin x': expected '(' after 'sin' at column 5");
  EXPECT_EQ(parse_error("atan2(x)"),
            "in formula 'atan2(x)': atan2 takes 2 arguments, got 1 at column 1");
  EXPECT_EQ(parse_error("sin(x, y)"),
            "in formula 'sin(x, y)': sin takes 1 argument, got 2 at column 1");
  EXPECT_EQ(parse_error("(x))"), "in formula '(x))': unexpected ')' at column 4");
}

TEST(Expression, DeepFormulasAreRejected) {
  std::string deep = "x";
  for (int i = 0; i < 70; ++i) deep = "x + (" + deep + ")";  // "x + (x + (... "
  EXPECT_NE(parse_error(deep).find("too deeply nested"), std::string::npos);
  std::string long_sum = "x";
  for (int i = 0; i < 200; ++i) long_sum += " + x";  // long but shallow: fine
  EXPECT_DOUBLE_EQ(Expression::parse(long_sum)(1, 0, 0, 0), 201.0);
}

// Nesting is limited while parsing, so no formula can overflow the stack (10^6 levels of each
// recursive form did: SIGSEGV), and the message quotes a long formula cut to a readable length.
TEST(Expression, NestingIsLimitedWhileParsing) {
  const std::size_t n = 1000000;
  const std::string parens = std::string(n, '(') + "x" + std::string(n, ')');
  std::string powers = "x";
  for (std::size_t i = 0; i < n / 2; ++i) powers += "^x";
  std::string calls;
  for (std::size_t i = 0; i < n / 4; ++i) calls += "sin(";
  calls += "x" + std::string(n / 4, ')');
  for (const std::string& f :
       {parens, std::string(n, '-') + "x", std::string(n, '+') + "x", powers, calls}) {
    const std::string e = parse_error(f);
    EXPECT_NE(e.find("nested more than"), std::string::npos) << e.substr(0, 200);
    EXPECT_LT(e.size(), 200u) << e.substr(0, 200);
  }
  std::string ok = "x";
  for (int i = 0; i < 40; ++i) ok = "-(" + ok + ")";  // 40 levels: fine
  EXPECT_DOUBLE_EQ(Expression::parse(ok)(1, 0, 0, 0), 1.0);
}

// A formula is quoted with its control characters escaped (a newline would split the message,
// an escape sequence would reach the terminal).
TEST(Expression, MessagesEscapeControlCharacters) {
  EXPECT_EQ(parse_error("x\n+ $\x1b[31m"),
            "in formula 'x\\n+ $\\x1b[31m': unexpected '\\n' at column 2");
  EXPECT_EQ(parse_error("x + \x1b"), "in formula 'x + \\x1b': unexpected '\\x1b' at column 5");
}

}  // namespace
}  // namespace scfd::config
