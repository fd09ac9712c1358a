// Scalar formulas in x, y, z, t for case-file fields (initial values, sources, boundary values):
// "sin(pi*x)*exp(-t)". A formula is compiled once into a short postfix (RPN) program with
// constant sub-expressions folded; evaluation runs that program on a fixed-size stack, with no
// allocation and no string work, so it can be called per node per step (and from several threads
// at once: evaluation does not modify the Expression).
//
// Grammar (^ is right-associative and binds tighter than unary minus: -x^2 = -(x^2)):
//   expr    := term (('+' | '-') term)*
//   term    := unary (('*' | '/') unary)*
//   unary   := ('-' | '+') unary | power
//   power   := primary ('^' unary)?
//   primary := number | 'x' | 'y' | 'z' | 't' | 'pi' | name '(' expr (',' expr)* ')' | '(' expr ')'
// Numbers: 2, 2.5, .5, 1e-3, 6.02E+23. Functions: sin cos tan exp log sqrt abs tanh sinh cosh
// (one argument) and atan2 min max pow (two arguments). log is the natural logarithm.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace scfd::config {

// "NaN", "inf" or "-inf" for a value that is not finite (for messages), else "finite".
const char* nonfinite_name(double v);

class Expression {
 public:
  // The constant 0.
  Expression() = default;

  // A formula that always evaluates to `value` (its text is the shortest round-trip decimal).
  static Expression constant(double value);

  // Compiles `formula`. On a syntax error throws InputError
  //   "in formula 'sin(pi*x': expected ')' at column 9"   (columns count from 1)
  // which Case prefixes with the file, line and key.
  static Expression parse(std::string_view formula);

  double operator()(double x, double y, double z, double t) const {
    if (code_.size() == 1 && code_[0].op == Op::kPush) return code_[0].value;
    return run(x, y, z, t);
  }

  // True when the formula does not depend on x, y, z or t.
  bool is_constant() const { return code_.size() == 1 && code_[0].op == Op::kPush; }
  // True when the formula reads t (its value may change from step to step).
  bool uses_time() const;

  // The formula as written (or the constant's decimal text).
  const std::string& text() const { return text_; }

  // The most values the evaluation stack may hold; deeper formulas are rejected by parse().
  static constexpr int kMaxStack = 64;

  // One postfix instruction. Public only so the compiler in expression.cpp can build programs.
  enum class Op : std::uint8_t {
    kPush,
    kX,
    kY,
    kZ,
    kT,
    kNeg,
    kAdd,
    kSub,
    kMul,
    kDiv,
    kPow,
    kSin,
    kCos,
    kTan,
    kExp,
    kLog,
    kSqrt,
    kAbs,
    kTanh,
    kSinh,
    kCosh,
    kAtan2,
    kMin,
    kMax,
  };
  struct Instruction {
    Op op = Op::kPush;
    double value = 0.0;  // for kPush
  };

 private:
  double run(double x, double y, double z, double t) const;

  std::vector<Instruction> code_{Instruction{}};
  std::string text_ = "0";
};

}  // namespace scfd::config
