//===- SymExpr.h - Symbolic counts of kernel parameters and geometry -*- C++
//-*-===//
//
// Kernel cost hints keep counts symbolic (expressions of the kernel's scalar
// parameters and launch geometry) and evaluate them at launch. A SymExpr is an
// immutable expression tree that prints as C/C++ source (for the generated
// hint function and for people) and evaluates with a binding of its symbols
// (for --launch and the runtime).
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_PASSES_SYMEXPR_H
#define ORRERY_PASSES_SYMEXPR_H

#include "llvm/ADT/StringRef.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace orrery {

class SymExpr {
public:
  enum class Op {
    Const,
    Sym,
    Add,
    Sub,
    Mul,
    Div,
    CeilDiv,
    FloorDiv,
    Min,
    Max,
    Log2,
    L1Wavefronts
  };

  SymExpr() : SymExpr(0.0) {}
  SymExpr(double Value);
  static SymExpr sym(const std::string &Name);

  friend SymExpr operator+(const SymExpr &A, const SymExpr &B);
  friend SymExpr operator-(const SymExpr &A, const SymExpr &B);
  friend SymExpr operator*(const SymExpr &A, const SymExpr &B);
  friend SymExpr operator/(const SymExpr &A, const SymExpr &B);
  static SymExpr ceilDiv(const SymExpr &A, const SymExpr &B);
  /// Integer division as C does it for non-negative operands.
  static SymExpr floorDiv(const SymExpr &A, const SymExpr &B);
  static SymExpr min(const SymExpr &A, const SymExpr &B);
  static SymExpr max(const SymExpr &A, const SymExpr &B);
  /// The number of halvings of A down to 1, plus one: floor(log2(A)) + 1
  /// for A >= 1 and 1 below (orrery_halving_trips of the hook ABI).
  static SymExpr log2Steps(const SymExpr &A);
  /// The L1 wavefronts of a warp-wide load of elements Elem bytes wide,
  /// Stride elements apart (orrery_l1_wavefronts of the hook ABI).
  static SymExpr l1Wavefronts(const SymExpr &Stride, const SymExpr &Elem);

  bool isConst() const;
  /// The value of a constant expression.
  std::optional<double> constant() const;
  bool isZero() const;

  /// C/C++ source text; symbols print by name (`n`, `blockDim.x`).
  std::string str() const;
  /// Evaluates with Bindings; nullopt if a symbol is unbound.
  std::optional<double>
  eval(const std::map<std::string, double> &Bindings) const;
  /// Every symbol the expression mentions.
  void symbols(std::set<std::string> &Out) const;
  /// Replaces symbols by expressions (for inlining __device__ calls).
  SymExpr substitute(const std::map<std::string, SymExpr> &Map) const;
  /// Flattens sums and merges equal terms: x + x + 2*x -> 4 * x.
  SymExpr normalize() const;

  bool operator==(const SymExpr &O) const { return str() == O.str(); }
  /// The operator and operands of a non-leaf expression.
  bool decompose(Op &K, SymExpr &L, SymExpr &R) const;

private:
  struct Node;
  explicit SymExpr(std::shared_ptr<const Node> N) : N(std::move(N)) {}
  static SymExpr make(Op O, const SymExpr &A, const SymExpr &B);
  std::shared_ptr<const Node> N;
};

/// Parses a pragma or override expression: numbers, identifiers (with
/// member access like blockDim.x), + - * / and parentheses.
std::optional<SymExpr> parseSymExpr(llvm::StringRef Text);

} // namespace orrery

#endif
