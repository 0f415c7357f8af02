//===- SymExpr.cpp - Symbolic counts of kernel parameters and geometry ----===//

#include "orrery/passes/SymExpr.h"

#include "orrery/hooks.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace orrery {

struct SymExpr::Node {
  Op Kind;
  double Value = 0;
  std::string Name;
  SymExpr L, R;
  Node(Op K) : Kind(K), L(nullptr), R(nullptr) {}
};

// The default-constructed children above would recurse; construct leaves
// with null children explicitly.
SymExpr::SymExpr(double Value) {
  auto Leaf = std::make_shared<Node>(Op::Const);
  Leaf->Value = Value;
  N = std::move(Leaf);
}

SymExpr SymExpr::sym(const std::string &Name) {
  auto Leaf = std::make_shared<Node>(Op::Sym);
  Leaf->Name = Name;
  return SymExpr(std::shared_ptr<const Node>(std::move(Leaf)));
}

bool SymExpr::isConst() const { return N && N->Kind == Op::Const; }

std::optional<double> SymExpr::constant() const {
  if (isConst())
    return N->Value;
  return std::nullopt;
}

bool SymExpr::isZero() const { return isConst() && N->Value == 0; }

static double apply(SymExpr::Op O, double A, double B) {
  switch (O) {
  case SymExpr::Op::Add:
    return A + B;
  case SymExpr::Op::Sub:
    return A - B;
  case SymExpr::Op::Mul:
    return A * B;
  case SymExpr::Op::Div:
    return B == 0 ? 0 : A / B;
  case SymExpr::Op::CeilDiv:
    return B == 0 ? 0 : std::ceil(A / B);
  case SymExpr::Op::FloorDiv:
    return B == 0 ? 0 : std::floor(A / B);
  case SymExpr::Op::Min:
    return std::min(A, B);
  case SymExpr::Op::Max:
    return std::max(A, B);
  case SymExpr::Op::Log2:
    return orrery_halving_trips(A);
  case SymExpr::Op::L1Wavefronts:
    return orrery_l1_wavefronts(A, B);
  default:
    return 0;
  }
}

SymExpr SymExpr::make(Op O, const SymExpr &A, const SymExpr &B) {
  // Fold constants and identities so hints stay readable.
  if (A.isConst() && B.isConst())
    return SymExpr(apply(O, *A.constant(), *B.constant()));
  switch (O) {
  case Op::Add:
    if (A.isZero())
      return B;
    if (B.isZero())
      return A;
    break;
  case Op::Sub:
    if (B.isZero())
      return A;
    if (A == B)
      return SymExpr(0.0);
    break;
  case Op::Mul:
    if (A.isZero() || B.isZero())
      return SymExpr(0.0);
    if (A.constant() == 1.0)
      return B;
    if (B.constant() == 1.0)
      return A;
    break;
  case Op::Div:
  case Op::CeilDiv:
  case Op::FloorDiv:
    if (B.constant() == 1.0)
      return A;
    if (A.isZero())
      return SymExpr(0.0);
    break;
  case Op::Min:
  case Op::Max:
    if (A == B)
      return A;
    break;
  default:
    break;
  }
  auto Node_ = std::make_shared<Node>(O);
  Node_->L = A;
  Node_->R = B;
  return SymExpr(std::shared_ptr<const Node>(std::move(Node_)));
}

SymExpr operator+(const SymExpr &A, const SymExpr &B) {
  return SymExpr::make(SymExpr::Op::Add, A, B);
}
SymExpr operator-(const SymExpr &A, const SymExpr &B) {
  return SymExpr::make(SymExpr::Op::Sub, A, B);
}
SymExpr operator*(const SymExpr &A, const SymExpr &B) {
  return SymExpr::make(SymExpr::Op::Mul, A, B);
}
SymExpr operator/(const SymExpr &A, const SymExpr &B) {
  return SymExpr::make(SymExpr::Op::Div, A, B);
}
SymExpr SymExpr::ceilDiv(const SymExpr &A, const SymExpr &B) {
  return make(Op::CeilDiv, A, B);
}
SymExpr SymExpr::floorDiv(const SymExpr &A, const SymExpr &B) {
  return make(Op::FloorDiv, A, B);
}
SymExpr SymExpr::min(const SymExpr &A, const SymExpr &B) {
  return make(Op::Min, A, B);
}
SymExpr SymExpr::max(const SymExpr &A, const SymExpr &B) {
  return make(Op::Max, A, B);
}
SymExpr SymExpr::log2Steps(const SymExpr &A) {
  return make(Op::Log2, A, SymExpr(0.0));
}
SymExpr SymExpr::l1Wavefronts(const SymExpr &Stride, const SymExpr &Elem) {
  return make(Op::L1Wavefronts, Stride, Elem);
}

static std::string number(double V) {
  std::ostringstream OS;
  if (V == std::floor(V) && std::fabs(V) < 1e15)
    OS << static_cast<long long>(V);
  else
    OS << V;
  return OS.str();
}

std::string SymExpr::str() const {
  switch (N->Kind) {
  case Op::Const:
    return number(N->Value);
  case Op::Sym:
    return N->Name;
  case Op::Add:
    return "(" + N->L.str() + " + " + N->R.str() + ")";
  case Op::Sub:
    return "(" + N->L.str() + " - " + N->R.str() + ")";
  case Op::Mul:
    return N->L.str() + " * " + N->R.str();
  case Op::Div: {
    // Callers evaluate in double (the generated code casts every symbol).
    std::string R = N->R.str();
    if (N->R.N->Kind == Op::Mul || N->R.N->Kind == Op::Div)
      R = "(" + R + ")";
    return N->L.str() + " / " + R;
  }
  case Op::CeilDiv:
    return "orrery_ceil_div(" + N->L.str() + ", " + N->R.str() + ")";
  case Op::FloorDiv:
    return "orrery_floor_div(" + N->L.str() + ", " + N->R.str() + ")";
  case Op::Min:
    return "orrery_min(" + N->L.str() + ", " + N->R.str() + ")";
  case Op::Max:
    return "orrery_max(" + N->L.str() + ", " + N->R.str() + ")";
  case Op::Log2:
    return "orrery_halving_trips(" + N->L.str() + ")";
  case Op::L1Wavefronts:
    return "orrery_l1_wavefronts(" + N->L.str() + ", " + N->R.str() + ")";
  }
  return "0";
}

std::optional<double>
SymExpr::eval(const std::map<std::string, double> &Bindings) const {
  switch (N->Kind) {
  case Op::Const:
    return N->Value;
  case Op::Sym: {
    auto It = Bindings.find(N->Name);
    if (It == Bindings.end())
      return std::nullopt;
    return It->second;
  }
  default:
    break;
  }
  std::optional<double> A = N->L.eval(Bindings), B = N->R.eval(Bindings);
  if (!A || !B)
    return std::nullopt;
  return apply(N->Kind, *A, *B);
}

void SymExpr::symbols(std::set<std::string> &Out) const {
  if (N->Kind == Op::Sym)
    Out.insert(N->Name);
  else if (N->Kind != Op::Const) {
    N->L.symbols(Out);
    N->R.symbols(Out);
  }
}

bool SymExpr::decompose(Op &K, SymExpr &L, SymExpr &R) const {
  if (N->Kind == Op::Const || N->Kind == Op::Sym)
    return false;
  K = N->Kind;
  L = N->L;
  R = N->R;
  return true;
}

SymExpr SymExpr::substitute(const std::map<std::string, SymExpr> &Map) const {
  if (N->Kind == Op::Const)
    return *this;
  if (N->Kind == Op::Sym) {
    auto It = Map.find(N->Name);
    return It == Map.end() ? *this : It->second;
  }
  return make(N->Kind, N->L.substitute(Map), N->R.substitute(Map));
}

} // namespace orrery

namespace orrery {

/// Adds the terms of E, times Sign, to Terms (keyed by the factor's text).
static void
collectTerms(const SymExpr &E, double Sign,
             std::map<std::string, std::pair<double, SymExpr>> &Terms,
             std::vector<std::string> &Order);

SymExpr SymExpr::normalize() const {
  std::map<std::string, std::pair<double, SymExpr>> Terms;
  std::vector<std::string> Order;
  collectTerms(*this, 1.0, Terms, Order);
  SymExpr Out(0.0);
  double Constant = 0;
  for (const std::string &Key : Order) {
    auto &[Coef, Factor] = Terms[Key];
    if (Factor.isConst()) {
      Constant += Coef * *Factor.constant();
      continue;
    }
    if (Coef == 0)
      continue;
    Out = Out + (Coef == 1 ? Factor : SymExpr(Coef) * Factor);
  }
  return Out + SymExpr(Constant);
}

static void
collectTerms(const SymExpr &E, double Sign,
             std::map<std::string, std::pair<double, SymExpr>> &Terms,
             std::vector<std::string> &Order) {
  std::string Text = E.str();
  auto Add = [&](double Coef, const SymExpr &Factor) {
    std::string Key = Factor.isConst() ? std::string("#const") : Factor.str();
    auto It = Terms.find(Key);
    if (It == Terms.end()) {
      Terms.emplace(Key, std::make_pair(Coef, Factor));
      Order.push_back(Key);
    } else if (Factor.isConst()) {
      It->second.first +=
          Coef * *Factor.constant() / *It->second.second.constant();
    } else {
      It->second.first += Coef;
    }
  };
  if (std::optional<double> C = E.constant()) {
    Add(Sign, SymExpr(*C));
    return;
  }
  // Split sums and differences; keep products whole (with their constant).
  std::string S = E.str();
  (void)S;
  SymExpr L, R;
  SymExpr::Op K;
  if (E.decompose(K, L, R)) {
    if (K == SymExpr::Op::Add) {
      collectTerms(L, Sign, Terms, Order);
      collectTerms(R, Sign, Terms, Order);
      return;
    }
    if (K == SymExpr::Op::Sub) {
      collectTerms(L, Sign, Terms, Order);
      collectTerms(R, -Sign, Terms, Order);
      return;
    }
    if (K == SymExpr::Op::Mul && L.isConst()) {
      Add(Sign * *L.constant(), R);
      return;
    }
    if (K == SymExpr::Op::Mul && R.isConst()) {
      Add(Sign * *R.constant(), L);
      return;
    }
  }
  Add(Sign, E);
}

} // namespace orrery

namespace orrery {

//===--------------------------------------------------------------------===//
// A tiny parser for pragma expressions.
//===--------------------------------------------------------------------===//

namespace {
class ExprParser {
public:
  explicit ExprParser(llvm::StringRef S) : S(S) {}
  std::optional<SymExpr> parse() {
    std::optional<SymExpr> E = sum();
    skip();
    if (!E || I != S.size())
      return std::nullopt;
    return E;
  }

private:
  void skip() {
    while (I < S.size() && llvm::isSpace(S[I]))
      ++I;
  }
  bool eat(char C) {
    skip();
    if (I < S.size() && S[I] == C) {
      ++I;
      return true;
    }
    return false;
  }
  std::optional<SymExpr> sum() {
    std::optional<SymExpr> L = product();
    while (L) {
      if (eat('+')) {
        std::optional<SymExpr> R = product();
        if (!R)
          return std::nullopt;
        L = *L + *R;
      } else if (eat('-')) {
        std::optional<SymExpr> R = product();
        if (!R)
          return std::nullopt;
        L = *L - *R;
      } else
        break;
    }
    return L;
  }
  std::optional<SymExpr> product() {
    std::optional<SymExpr> L = atom();
    while (L) {
      if (eat('*')) {
        std::optional<SymExpr> R = atom();
        if (!R)
          return std::nullopt;
        L = *L * *R;
      } else if (eat('/')) {
        std::optional<SymExpr> R = atom();
        if (!R)
          return std::nullopt;
        L = *L / *R;
      } else
        break;
    }
    return L;
  }
  std::optional<SymExpr> atom() {
    skip();
    if (eat('(')) {
      std::optional<SymExpr> E = sum();
      if (!E || !eat(')'))
        return std::nullopt;
      return E;
    }
    size_t B = I;
    if (I < S.size() && (llvm::isDigit(S[I]) || S[I] == '.')) {
      while (I < S.size() && (llvm::isAlnum(S[I]) || S[I] == '.'))
        ++I;
      double V;
      if (S.substr(B, I - B).getAsDouble(V))
        return std::nullopt;
      return SymExpr(V);
    }
    while (I < S.size() && (llvm::isAlnum(S[I]) || S[I] == '_' || S[I] == '.'))
      ++I;
    if (I == B)
      return std::nullopt;
    return SymExpr::sym(S.substr(B, I - B).str());
  }
  llvm::StringRef S;
  size_t I = 0;
};
} // namespace

std::optional<SymExpr> parseSymExpr(llvm::StringRef Text) {
  return ExprParser(Text).parse();
}

} // namespace orrery
