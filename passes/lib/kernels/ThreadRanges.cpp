//===- ThreadRanges.cpp - Sets of threads bounded by thread-id guards -----===//

#include "ThreadRanges.h"

#include "llvm/ADT/StringRef.h"

#include <cmath>
#include <set>

namespace orrery {

Rel swapped(Rel R) {
  switch (R) {
  case Rel::LT:
    return Rel::GT;
  case Rel::LE:
    return Rel::GE;
  case Rel::GT:
    return Rel::LT;
  case Rel::GE:
    return Rel::LE;
  default:
    return R;
  }
}

Rel negated(Rel R) {
  switch (R) {
  case Rel::LT:
    return Rel::GE;
  case Rel::LE:
    return Rel::GT;
  case Rel::GT:
    return Rel::LE;
  case Rel::GE:
    return Rel::LT;
  case Rel::EQ:
    return Rel::NE;
  case Rel::NE:
    return Rel::EQ;
  }
  return R;
}

static bool isThreadSym(llvm::StringRef S) {
  return S.starts_with("threadIdx.") || S.starts_with("blockIdx.");
}

bool mentionsThread(const SymExpr &E) {
  std::set<std::string> Syms;
  E.symbols(Syms);
  for (const std::string &S : Syms)
    if (isThreadSym(S))
      return true;
  return false;
}

namespace {
/// Sum of Coef[k] * k over thread symbols k, plus K.
struct Linear {
  std::map<std::string, SymExpr> Coef;
  SymExpr K;
};

std::optional<Linear> linear(const SymExpr &E) {
  if (!mentionsThread(E))
    return Linear{{}, E};
  SymExpr::Op Op;
  SymExpr L, R;
  if (!E.decompose(Op, L, R)) {
    std::set<std::string> Syms;
    E.symbols(Syms);
    return Linear{{{*Syms.begin(), SymExpr(1.0)}}, SymExpr(0.0)};
  }
  if (Op == SymExpr::Op::Add || Op == SymExpr::Op::Sub) {
    std::optional<Linear> A = linear(L), B = linear(R);
    if (!A || !B)
      return std::nullopt;
    double Sign = Op == SymExpr::Op::Add ? 1 : -1;
    for (auto &[Sym, C] : B->Coef) {
      auto It = A->Coef.find(Sym);
      SymExpr Signed = Sign > 0 ? C : SymExpr(0.0) - C;
      if (It == A->Coef.end())
        A->Coef.emplace(Sym, Signed);
      else
        It->second = It->second + Signed;
    }
    A->K = Sign > 0 ? A->K + B->K : A->K - B->K;
    return A;
  }
  if (Op == SymExpr::Op::Mul) {
    bool LThread = mentionsThread(L), RThread = mentionsThread(R);
    if (LThread && RThread)
      return std::nullopt;
    std::optional<Linear> A = linear(LThread ? L : R);
    const SymExpr &Scale = LThread ? R : L;
    if (!A)
      return std::nullopt;
    for (auto &[Sym, C] : A->Coef)
      C = Scale * C;
    A->K = Scale * A->K;
    return A;
  }
  return std::nullopt;
}

} // namespace

/// Tried at a few bindings of the symbols: they are polynomials of launch
/// values here.
bool sameValue(const SymExpr &A, const SymExpr &B) {
  std::set<std::string> Syms;
  A.symbols(Syms);
  B.symbols(Syms);
  for (unsigned Seed = 1; Seed <= 3; ++Seed) {
    std::map<std::string, double> Bind;
    unsigned H = Seed * 2654435761u;
    for (const std::string &S : Syms) {
      for (char C : S)
        H = H * 31 + static_cast<unsigned char>(C);
      Bind[S] = 3 + H % 997;
    }
    std::optional<double> X = A.eval(Bind), Y = B.eval(Bind);
    if (!X || !Y || std::fabs(*X - *Y) > 1e-9 * std::max(1.0, std::fabs(*X)))
      return false;
  }
  return true;
}

namespace {
SymExpr geometry(const char *What, unsigned D) {
  return SymExpr::sym(std::string(What) + "." + "xyz"[D]);
}

SymExpr extent(unsigned D, CoordKind K) {
  switch (K) {
  case CoordKind::Global:
    return geometry("gridDim", D) * geometry("blockDim", D);
  case CoordKind::Local:
    return geometry("blockDim", D);
  case CoordKind::Block:
    return geometry("gridDim", D);
  }
  return SymExpr(1.0);
}

/// Indices in [0, Ext) that R lets in.
SymExpr rangeCount(const CoordRange &R, const SymExpr &Ext) {
  SymExpr Hi = R.Hi ? SymExpr::min(*R.Hi, Ext) : Ext;
  SymExpr Lo(0.0);
  if (R.Lo) {
    std::optional<double> C = R.Lo->constant();
    Lo = C ? SymExpr(std::max(0.0, *C)) : SymExpr::max(0.0, *R.Lo);
  }
  SymExpr N = SymExpr::max(0.0, Hi - Lo);
  std::set<std::string> Seen;
  for (const SymExpr &P : R.Excluded) {
    if (!Seen.insert(P.str()).second)
      continue;
    // One index less if P lies in [Lo, Hi).
    N = N - SymExpr::max(0.0, SymExpr::min(P + 1.0, Hi) - SymExpr::max(P, Lo));
  }
  return N;
}

bool sameRange(const CoordRange &A, const CoordRange &B) {
  auto Text = [](const CoordRange &R) {
    std::string S =
        (R.Lo ? R.Lo->str() : "-") + "|" + (R.Hi ? R.Hi->str() : "-");
    for (const SymExpr &P : R.Excluded)
      S += "|" + P.str();
    return S;
  };
  return Text(A) == Text(B);
}
} // namespace

std::optional<ThreadAtom> threadAtom(const SymExpr &E) {
  std::optional<Linear> L = linear(E);
  if (!L || L->Coef.empty())
    return std::nullopt;
  std::optional<unsigned> Dim;
  for (const auto &[Sym, C] : L->Coef) {
    unsigned D = Sym.back() - 'x';
    if (D > 2)
      return std::nullopt;
    if (Dim && *Dim != D) {
      // A transposed tile, `blockIdx.j * C + threadIdx.i` (i != j): whole
      // tiles of blocks along j pass or fail (exact when blockDim.i == C
      // divides the bound); bounded as the block coordinate j.
      if (L->Coef.size() != 2)
        return std::nullopt;
      auto T = L->Coef.begin(), B = std::next(T);
      if (llvm::StringRef(T->first).starts_with("blockIdx."))
        std::swap(T, B);
      std::optional<double> Tile = B->second.constant();
      std::optional<double> Step = T->second.constant();
      if (!llvm::StringRef(T->first).starts_with("threadIdx.") ||
          !llvm::StringRef(B->first).starts_with("blockIdx.") || !Tile ||
          *Tile <= 0 || !Step || *Step != 1)
        return std::nullopt;
      ThreadAtom A;
      A.Dim = B->first.back() - 'x';
      A.Kind = CoordKind::Block;
      A.Coef = SymExpr(*Tile);
      A.Offset = L->K;
      return A;
    }
    Dim = D;
  }
  std::string Axis(1, "xyz"[*Dim]);
  auto T = L->Coef.find("threadIdx." + Axis);
  auto B = L->Coef.find("blockIdx." + Axis);
  ThreadAtom A;
  A.Dim = *Dim;
  A.Offset = L->K;
  if (T != L->Coef.end() && B != L->Coef.end()) {
    A.Kind = CoordKind::Global;
    A.Coef = T->second;
    if (!sameValue(B->second, T->second * geometry("blockDim", *Dim))) {
      std::optional<double> Tile = B->second.constant();
      std::optional<double> Step = T->second.constant();
      if (!Tile || !Step || *Step != 1 || *Tile <= 0)
        return std::nullopt;
      A.TileScale = geometry("blockDim", *Dim) / SymExpr(*Tile);
    }
  } else if (T != L->Coef.end()) {
    A.Kind = CoordKind::Local;
    A.Coef = T->second;
  } else {
    A.Kind = CoordKind::Block;
    A.Coef = B->second;
  }
  if (!A.Coef.constant() || *A.Coef.constant() == 0)
    return std::nullopt;
  return A;
}

bool ThreadSet::constrain(const SymExpr &E, Rel R, const SymExpr &Bound) {
  if (mentionsThread(Bound)) {
    if (mentionsThread(E))
      return false;
    return constrain(Bound, swapped(R), E);
  }
  std::optional<ThreadAtom> A = threadAtom(E);
  if (!A)
    return false;
  // c*x + o REL b, solved for x.
  double C = *A->Coef.constant();
  SymExpr Diff = Bound - A->Offset;
  if (A->TileScale) {
    if (R == Rel::EQ || R == Rel::NE)
      return false; // one index of a tile: not a range of the global index
    Diff = Diff * *A->TileScale;
  }
  if (C < 0) {
    C = -C;
    Diff = A->Offset - Bound;
    R = swapped(R);
  }
  if (R == Rel::NE && C != 1)
    return false;
  CoordRange &Range = Ranges[{A->Dim, A->Kind}];
  auto SetHi = [&](SymExpr V) {
    Range.Hi = Range.Hi ? SymExpr::min(*Range.Hi, V) : V;
  };
  auto SetLo = [&](SymExpr V) {
    Range.Lo = Range.Lo ? SymExpr::max(*Range.Lo, V) : V;
  };
  switch (R) {
  case Rel::LT:
    SetHi(SymExpr::ceilDiv(Diff, C));
    break;
  case Rel::LE:
    SetHi(SymExpr::floorDiv(Diff, C) + 1.0);
    break;
  case Rel::GT:
    SetLo(SymExpr::floorDiv(Diff, C) + 1.0);
    break;
  case Rel::GE:
    SetLo(SymExpr::ceilDiv(Diff, C));
    break;
  case Rel::EQ:
    SetLo(SymExpr::ceilDiv(Diff, C));
    SetHi(SymExpr::floorDiv(Diff, C) + 1.0);
    break;
  case Rel::NE:
    Range.Excluded.push_back(Diff);
    break;
  }
  return true;
}

bool ThreadSet::constrains(unsigned D) const {
  for (const auto &[Key, R] : Ranges)
    if (Key.first == D)
      return true;
  return false;
}

SymExpr ThreadSet::dimCount(unsigned D) const {
  SymExpr All = extent(D, CoordKind::Global);
  std::vector<std::pair<CoordKind, const CoordRange *>> In;
  for (const auto &[Key, R] : Ranges)
    if (Key.first == D)
      In.push_back({Key.second, &R});
  if (In.empty())
    return All;
  if (In.size() == 1) {
    auto [K, R] = In.front();
    SymExpr N = rangeCount(*R, extent(D, K));
    if (K == CoordKind::Local)
      return N * geometry("gridDim", D);
    if (K == CoordKind::Block)
      return N * geometry("blockDim", D);
    return N;
  }
  // Bounds on several coordinates of one dimension: taken as independent.
  SymExpr N = All;
  for (auto [K, R] : In)
    N = N * (rangeCount(*R, extent(D, K)) / extent(D, K));
  return N;
}

SymExpr ThreadSet::count() const {
  SymExpr N(1.0);
  for (unsigned D = 0; D < 3; ++D)
    N = N * dimCount(D);
  return N;
}

SymExpr ThreadSet::fractionIn(const ThreadSet &Inner) const {
  SymExpr F(1.0);
  for (const auto &[Key, R] : Inner.Ranges) {
    SymExpr Ext = extent(Key.first, Key.second);
    auto It = Ranges.find(Key);
    if (It == Ranges.end()) {
      F = F * (rangeCount(R, Ext) / Ext);
      continue;
    }
    if (!sameRange(It->second, R))
      F = F * (rangeCount(R, Ext) / rangeCount(It->second, Ext));
  }
  return F;
}

} // namespace orrery
