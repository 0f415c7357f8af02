//===- KernelCounts.h - A kernel hint's counts, one definition --*- C++ -*-===//
//
// The counts of a kernel cost hint and its confidence, generated from the
// hook ABI's lists (abi/include/orrery/kernel_counts.def and
// kernel_confidence.def): the analysis holds them as symbolic expressions
// (KernelCountsOf<SymExpr>), the report and the runtime as numbers
// (ThreadCounts). No consumer lists the counts again: they visit them.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_MODELS_KERNELCOUNTS_H
#define ORRERY_MODELS_KERNELCOUNTS_H

#include <optional>
#include <string_view>

namespace orrery::models {

/// One member per line of kernel_counts.def, initialised to its `missing`.
template <typename V> struct KernelCountsOf {
#define ORRERY_KERNEL_COUNT(Name, Missing) V Name = V(double(Missing));
#include "orrery/kernel_counts.def"
#undef ORRERY_KERNEL_COUNT

  /// Calls Fn(name, member) for every count, in ABI order.
  template <typename F> void forEach(F &&Fn) {
#define ORRERY_KERNEL_COUNT(Name, Missing) Fn(#Name, Name);
#include "orrery/kernel_counts.def"
#undef ORRERY_KERNEL_COUNT
  }
  template <typename F> void forEach(F &&Fn) const {
#define ORRERY_KERNEL_COUNT(Name, Missing) Fn(#Name, Name);
#include "orrery/kernel_counts.def"
#undef ORRERY_KERNEL_COUNT
  }

  /// The count called \p Name, or null: an unknown name is the caller's
  /// error to report, never a silent 0.
  V *find(std::string_view Name) {
    V *Out = nullptr;
    forEach([&](std::string_view N, V &Member) {
      if (N == Name)
        Out = &Member;
    });
    return Out;
  }
};

/// Calls Fn(name, X.member, Y.member) for every count of two count sets.
template <typename A, typename B, typename F>
void forEachPair(KernelCountsOf<A> &X, const KernelCountsOf<B> &Y, F &&Fn) {
#define ORRERY_KERNEL_COUNT(Name, Missing) Fn(#Name, X.Name, Y.Name);
#include "orrery/kernel_counts.def"
#undef ORRERY_KERNEL_COUNT
}

/// A kernel cost hint evaluated for one launch: counts per active thread
/// (footprints are totals; < 0: unknown).
using ThreadCounts = KernelCountsOf<double>;

/// How much of a hint rests on assumptions, ordered from the best.
enum class Confidence {
#define ORRERY_CONFIDENCE(Upper, Camel, Name, Value, Meaning) Camel = Value,
#include "orrery/kernel_confidence.def"
#undef ORRERY_CONFIDENCE
};

/// "exact", "symbolic", "defaulted", "unknown".
const char *confidenceName(Confidence C);
/// The confidence of an ABI code (ORRERY_CONFIDENCE_*), if it is one.
std::optional<Confidence> confidenceOfCode(int Code);
/// The confidence called \p Name, if it is one.
std::optional<Confidence> confidenceNamed(std::string_view Name);

} // namespace orrery::models

#endif // ORRERY_MODELS_KERNELCOUNTS_H
