//===- Cost.cpp - Cost breakdowns -----------------------------------------===//

#include "orrery/models/Cost.h"

#include "orrery/models/Units.h"

namespace orrery::models {

std::string_view costCategoryName(CostCategory C) {
  switch (C) {
  case CostCategory::Launch:
    return "launch";
  case CostCategory::Compute:
    return "compute";
  case CostCategory::Memory:
    return "memory";
  case CostCategory::DeviceLeg:
    return "device leg";
  case CostCategory::HostBounce:
    return "host bounce";
  case CostCategory::Reduction:
    return "reduction";
  case CostCategory::CallOverhead:
    return "call overhead";
  case CostCategory::Sync:
    return "sync";
  case CostCategory::Network:
    return "network";
  }
  return "?";
}

double Cost::total() const {
  double T = 0;
  for (double P : Parts)
    T += P;
  return T;
}

double Cost::estimateShare() const {
  double T = total();
  return T > 0 ? Estimated / T : 0;
}

std::string Cost::str() const {
  std::string S = "total " + formatQuantity(total(), Dimension::Time);
  std::string Parts;
  for (int I = 0; I < NumCostCategories; ++I) {
    if (this->Parts[I] == 0)
      continue;
    Parts += (Parts.empty() ? "" : ", ") +
             std::string(costCategoryName(static_cast<CostCategory>(I))) + " " +
             formatQuantity(this->Parts[I], Dimension::Time);
  }
  if (!Parts.empty())
    S += " (" + Parts + ")";
  return S;
}

} // namespace orrery::models
