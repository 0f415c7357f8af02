//===- KernelCounts.cpp - Confidence names and codes ----------------------===//

#include "orrery/models/KernelCounts.h"

namespace orrery::models {
namespace {
struct ConfidenceRow {
  Confidence C;
  const char *Name;
};
constexpr ConfidenceRow Rows[] = {
#define ORRERY_CONFIDENCE(Upper, Camel, Name, Value, Meaning)                  \
  {Confidence::Camel, Name},
#include "orrery/kernel_confidence.def"
#undef ORRERY_CONFIDENCE
};
} // namespace

const char *confidenceName(Confidence C) {
  for (const ConfidenceRow &R : Rows)
    if (R.C == C)
      return R.Name;
  return "unknown";
}

std::optional<Confidence> confidenceOfCode(int Code) {
  for (const ConfidenceRow &R : Rows)
    if (static_cast<int>(R.C) == Code)
      return R.C;
  return std::nullopt;
}

std::optional<Confidence> confidenceNamed(std::string_view Name) {
  for (const ConfidenceRow &R : Rows)
    if (Name == R.Name)
      return R.C;
  return std::nullopt;
}

} // namespace orrery::models
