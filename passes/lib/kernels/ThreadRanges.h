//===- ThreadRanges.h - Sets of threads bounded by thread-id guards -*- C++
//-*-//
//
// The threads a guard lets in, as intervals of one coordinate per dimension:
// the global index `blockIdx.d * blockDim.d + threadIdx.d`, the index in the
// block `threadIdx.d`, or the block `blockIdx.d`. A guard `c * x + o REL b`
// (REL one of < <= > >= == !=, c a nonzero constant) is solved for x, so
// lower and upper bounds, offsets (`ix = gid + 1`) and strides (`2 * gid`)
// all give exact counts. Works on SymExpr only: the caller turns source
// expressions into SymExprs.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_PASSES_KERNELS_THREADRANGES_H
#define ORRERY_PASSES_KERNELS_THREADRANGES_H

#include "orrery/passes/SymExpr.h"

#include <map>
#include <optional>
#include <vector>

namespace orrery {

enum class Rel { LT, LE, GT, GE, EQ, NE };

/// The relation with its operands swapped (a < b is b > a) and negated
/// (!(a < b) is a >= b).
Rel swapped(Rel R);
Rel negated(Rel R);

enum class CoordKind { Global, Local, Block };

/// An index that is `Coef * coordinate + Offset` in one dimension.
struct ThreadAtom {
  unsigned Dim = 0;
  CoordKind Kind = CoordKind::Global;
  SymExpr Coef, Offset;
  /// A tiled global index `blockIdx.d * C + threadIdx.d` with a constant
  /// tile C (a literal where blockDim.d would be): blockDim.d / C, the
  /// share of each tile the block's threads cover. Bounds on it are scaled
  /// to the global index by this factor (exact when blockDim.d == C).
  std::optional<SymExpr> TileScale;
};

/// E as an affine function of one thread coordinate, if it is one.
std::optional<ThreadAtom> threadAtom(const SymExpr &E);

/// Whether A and B have the same value (tried at a few bindings).
bool sameValue(const SymExpr &A, const SymExpr &B);

/// True if E mentions threadIdx or blockIdx.
bool mentionsThread(const SymExpr &E);

/// [Lo, Hi) of one coordinate, less some points (from `!=`).
struct CoordRange {
  std::optional<SymExpr> Lo, Hi;
  std::vector<SymExpr> Excluded;
};

class ThreadSet {
public:
  /// Adds the constraint `E REL Bound`; false (and no change) if E is not
  /// affine in one thread coordinate with a constant coefficient, or Bound
  /// depends on the thread.
  bool constrain(const SymExpr &E, Rel R, const SymExpr &Bound);
  /// Threads of the launch in the set.
  SymExpr count() const;
  /// Threads along dimension D (the launch's extent if unconstrained).
  SymExpr dimCount(unsigned D) const;
  bool constrains(unsigned D) const;
  /// Fraction of this set's threads that are also in Inner (a subset).
  SymExpr fractionIn(const ThreadSet &Inner) const;
  bool empty() const { return Ranges.empty(); }

private:
  std::map<std::pair<unsigned, CoordKind>, CoordRange> Ranges;
};

} // namespace orrery

#endif
