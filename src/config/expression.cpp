// Formula compiler and evaluator (see expression.hpp): a recursive-descent parser that emits a
// postfix program, folding an operator whose operands are all constants as it is emitted.
#include "config/expression.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <numbers>
#include <optional>

#include "config/suggest.hpp"
#include "core/error.hpp"

namespace scfd::config {
namespace {

using Op = Expression::Op;
using Instruction = Expression::Instruction;

struct Function {
  std::string_view name;
  int arity;
  Op op;
};

constexpr std::array<Function, 14> kFunctions{{
    {"sin", 1, Op::kSin},
    {"cos", 1, Op::kCos},
    {"tan", 1, Op::kTan},
    {"exp", 1, Op::kExp},
    {"log", 1, Op::kLog},
    {"sqrt", 1, Op::kSqrt},
    {"abs", 1, Op::kAbs},
    {"tanh", 1, Op::kTanh},
    {"sinh", 1, Op::kSinh},
    {"cosh", 1, Op::kCosh},
    {"atan2", 2, Op::kAtan2},
    {"min", 2, Op::kMin},
    {"max", 2, Op::kMax},
    {"pow", 2, Op::kPow},
}};

constexpr std::array<std::string_view, 19> kNames{
    "x",    "y",   "z",    "t",    "pi",   "sin",   "cos", "tan", "exp", "log",
    "sqrt", "abs", "tanh", "sinh", "cosh", "atan2", "min", "max", "pow"};

int arity(Op op) {
  switch (op) {
    case Op::kPush:
    case Op::kX:
    case Op::kY:
    case Op::kZ:
    case Op::kT:
      return 0;
    case Op::kAdd:
    case Op::kSub:
    case Op::kMul:
    case Op::kDiv:
    case Op::kPow:
    case Op::kAtan2:
    case Op::kMin:
    case Op::kMax:
      return 2;
    default:
      return 1;
  }
}

// Applies a unary (a) or binary (a, b) operation; shared by constant folding and evaluation.
// clang-format off
inline double apply(Op op, double a, double b) {
  switch (op) {
    case Op::kNeg: return -a;
    case Op::kAdd: return a + b;
    case Op::kSub: return a - b;
    case Op::kMul: return a * b;
    case Op::kDiv: return a / b;
    case Op::kPow: return std::pow(a, b);
    case Op::kSin: return std::sin(a);
    case Op::kCos: return std::cos(a);
    case Op::kTan: return std::tan(a);
    case Op::kExp: return std::exp(a);
    case Op::kLog: return std::log(a);
    case Op::kSqrt: return std::sqrt(a);
    case Op::kAbs: return std::abs(a);
    case Op::kTanh: return std::tanh(a);
    case Op::kSinh: return std::sinh(a);
    case Op::kCosh: return std::cosh(a);
    case Op::kAtan2: return std::atan2(a, b);
    case Op::kMin: return std::fmin(a, b);
    case Op::kMax: return std::fmax(a, b);
    default: return 0.0;  // leaves are never applied
  }
}
// clang-format on

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_name_char(char c) {
  return is_name_start(c) || is_digit(c);
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  std::vector<Instruction> compile() {
    skip_space();
    if (pos_ == text_.size()) fail("empty formula", pos_);
    expr();
    skip_space();
    if (pos_ != text_.size())
      fail(fmt::format("unexpected '{}'", printable(text_.substr(pos_, 1))), pos_);
    check_depth();
    check_constants();
    return std::move(code_);
  }

 private:
  [[noreturn]] void fail(const std::string& what, std::size_t at) const {
    throw input_error("in formula '{}': {} at column {}", printable(text_), what, at + 1);
  }

  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
  }

  // Consumes `c` (after blanks) if it is next.
  bool accept(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  void expect(char c) {
    if (!accept(c)) fail(fmt::format("expected '{}'", c), pos_);
  }

  void expr() {
    term();
    for (;;) {
      if (accept('+')) {
        term();
        emit(Op::kAdd);
      } else if (accept('-')) {
        term();
        emit(Op::kSub);
      } else
        return;
    }
  }

  void term() {
    unary();
    for (;;) {
      if (accept('*')) {
        unary();
        emit(Op::kMul);
      } else if (accept('/')) {
        unary();
        emit(Op::kDiv);
      } else
        return;
    }
  }

  // Every recursion of the grammar passes here (signs, exponents, parentheses, arguments), so
  // counting the levels here bounds the parser's stack.
  void unary() {
    if (++nesting_ > kMaxNesting)
      fail(fmt::format("nested more than {} levels", kMaxNesting), pos_);
    if (accept('-')) {
      unary();
      emit(Op::kNeg);
    } else if (accept('+'))
      unary();
    else
      power();
    --nesting_;
  }

  void power() {
    primary();
    if (accept('^')) {
      unary();
      emit(Op::kPow);
    }
  }

  void primary() {
    skip_space();
    if (pos_ == text_.size()) fail("expected a number, name or '('", pos_);
    const char c = text_[pos_];
    if (c == '(') {
      ++pos_;
      expr();
      expect(')');
    } else if (is_digit(c) || c == '.') {
      number();
    } else if (is_name_start(c)) {
      name();
    } else {
      fail(fmt::format("unexpected '{}'", printable(text_.substr(pos_, 1))), pos_);
    }
  }

  void number() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && (is_digit(text_[pos_]) || text_[pos_] == '.')) ++pos_;
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
    }
    const std::string_view digits = text_.substr(start, pos_ - start);
    double value = 0.0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec != std::errc{} || end != digits.data() + digits.size())
      fail(fmt::format("malformed number '{}'", digits), start);
    push(value);
  }

  void name() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && is_name_char(text_[pos_])) ++pos_;
    const std::string_view word = text_.substr(start, pos_ - start);
    if (word == "x")
      emit(Op::kX);
    else if (word == "y")
      emit(Op::kY);
    else if (word == "z")
      emit(Op::kZ);
    else if (word == "t")
      emit(Op::kT);
    else if (word == "pi")
      push(std::numbers::pi);
    else
      call(word, start);
  }

  void call(std::string_view word, std::size_t start) {
    const Function* f = nullptr;
    for (const Function& candidate : kFunctions)
      if (candidate.name == word) f = &candidate;
    if (f == nullptr) {
      const std::string near = nearest(word, std::span<const std::string_view>(kNames));
      fail(near.empty() ? fmt::format("unknown name '{}'", word)
                        : fmt::format("unknown name '{}' (did you mean '{}'?)", word, near),
           start);
    }
    if (!accept('(')) fail(fmt::format("expected '(' after '{}'", word), pos_);
    int args = 0;
    do {
      expr();
      ++args;
    } while (accept(','));
    if (args != f->arity)
      fail(fmt::format("{} takes {} argument{}, got {}", word, f->arity, f->arity == 1 ? "" : "s",
                       args),
           start);
    expect(')');
    emit(f->op);
  }

  void push(double value) { code_.push_back(Instruction{Op::kPush, value}); }

  // Appends `op`, folding it into one constant when all its operands are constants (operands are
  // complete sub-programs, and a sub-program ending in kPush is that single kPush).
  void emit(Op op) {
    const int n = arity(op);
    const std::size_t size = code_.size();
    const bool fold = n > 0 && size >= static_cast<std::size_t>(n) &&
                      code_[size - 1].op == Op::kPush &&
                      (n == 1 || code_[size - 2].op == Op::kPush);
    if (!fold) {
      code_.push_back(Instruction{op, 0.0});
      return;
    }
    const double value = n == 1 ? apply(op, code_[size - 1].value, 0.0)
                                : apply(op, code_[size - 2].value, code_[size - 1].value);
    code_.resize(size - static_cast<std::size_t>(n));
    push(value);
  }

  // Every constant of the program (a number, or a part folded at compile time: 1/0, log(-1),
  // 10^400) must be finite: a field of the case is finite everywhere.
  void check_constants() const {
    for (const Instruction& in : code_)
      if (in.op == Op::kPush && !std::isfinite(in.value))
        throw input_error(
            "in formula '{}': a constant part evaluates to {} (a field must be finite)",
            printable(text_), nonfinite_name(in.value));
  }

  void check_depth() const {
    int depth = 0;
    for (const Instruction& in : code_) {
      const int n = arity(in.op);
      depth += n == 0 ? 1 : 1 - n;
      if (depth > Expression::kMaxStack)
        throw input_error("in formula '{}': too deeply nested (more than {} pending values)",
                          printable(text_), Expression::kMaxStack);
    }
  }

  static constexpr int kMaxNesting = 200;
  std::string_view text_;
  std::size_t pos_ = 0;
  int nesting_ = 0;
  std::vector<Instruction> code_;
};

}  // namespace

const char* nonfinite_name(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return "finite";
}

Expression Expression::constant(double value) {
  Expression e;
  e.code_ = {Instruction{Op::kPush, value}};
  std::array<char, 32> buf{};
  const auto res = std::to_chars(buf.data(), buf.data() + buf.size(), value);
  e.text_.assign(buf.data(), res.ptr);
  return e;
}

Expression Expression::parse(std::string_view formula) {
  Expression e;
  e.code_ = Parser(formula).compile();
  e.text_ = std::string(formula);
  return e;
}

// One line per operation reads as a table.
// clang-format off
double Expression::run(double x, double y, double z, double t) const {
  std::array<double, kMaxStack + 1> s;  // s[0] unused; uninitialised on purpose
  std::size_t top = 0;                  // s[top] is the top value
  for (const Instruction& in : code_) {
    // The cheap, common operations are inlined here; the rest go through apply().
    switch (in.op) {
      case Op::kPush: s[++top] = in.value; break;
      case Op::kX: s[++top] = x; break;
      case Op::kY: s[++top] = y; break;
      case Op::kZ: s[++top] = z; break;
      case Op::kT: s[++top] = t; break;
      case Op::kNeg: s[top] = -s[top]; break;
      case Op::kAdd: --top; s[top] += s[top + 1]; break;
      case Op::kSub: --top; s[top] -= s[top + 1]; break;
      case Op::kMul: --top; s[top] *= s[top + 1]; break;
      case Op::kDiv: --top; s[top] /= s[top + 1]; break;
      case Op::kPow: case Op::kAtan2: case Op::kMin: case Op::kMax:
        --top;
        s[top] = apply(in.op, s[top], s[top + 1]);
        break;
      default: s[top] = apply(in.op, s[top], 0.0);
    }
  }
  return s[1];
}
// clang-format on

bool Expression::uses_time() const {
  return std::any_of(code_.begin(), code_.end(),
                     [](const Instruction& i) { return i.op == Op::kT; });
}

}  // namespace scfd::config
