//===- Fit.cpp - Least-squares Hockney fits per size band -----------------===//

#include "Fit.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace orrery::calibrate {

HockneyFit fitHockney(const std::vector<Sample> &S, double MaxResidual) {
  HockneyFit F;
  F.Samples = S.size();
  // Minimise sum w (a + g n - t)^2 with w = 1 / t^2: normal equations
  //   [sum w     sum w n  ] [a]   [sum w t  ]
  //   [sum w n   sum w n^2] [g] = [sum w n t]
  double W = 0, Wn = 0, Wnn = 0, Wt = 0, Wnt = 0;
  for (const Sample &X : S) {
    if (!(X.Seconds > 0))
      continue;
    double w = 1 / (X.Seconds * X.Seconds);
    W += w;
    Wn += w * X.Bytes;
    Wnn += w * X.Bytes * X.Bytes;
    Wt += w * X.Seconds;
    Wnt += w * X.Bytes * X.Seconds;
  }
  double Det = W * Wnn - Wn * Wn;
  if (S.size() < 2 || !(std::fabs(Det) > 0)) {
    F.Problem = "needs samples at two or more distinct sizes";
    return F;
  }
  double A = (Wt * Wnn - Wn * Wnt) / Det;
  double G = (W * Wnt - Wn * Wt) / Det;
  F.Latency = A;
  F.Bandwidth = G > 0 ? 1 / G : 0;
  double Sum = 0;
  for (const Sample &X : S) {
    double Fit = A + G * X.Bytes;
    double R = (Fit - X.Seconds) / X.Seconds;
    Sum += R * R;
  }
  F.Residual = std::sqrt(Sum / S.size());
  char Buf[160];
  if (!(G > 0)) {
    F.Problem = "time does not grow with size (slope <= 0): no bandwidth";
  } else if (F.Residual > MaxResidual) {
    std::snprintf(Buf, sizeof Buf,
                  "residual %.1f%% exceeds --max-residual %.1f%%",
                  F.Residual * 100, MaxResidual * 100);
    F.Problem = Buf;
  }
  // Noise can tip a flat band's intercept below zero; no latency is the
  // nearest physical value (the residual above says how good the line is).
  F.LatencyClamped = F.Latency < 0;
  if (F.Latency < 0)
    F.Latency = 0;
  return F;
}

std::string Band::str() const {
  std::ostringstream OS;
  OS << "[" << static_cast<long long>(Lo) << ", ";
  if (std::isinf(Hi))
    OS << "inf)";
  else
    OS << static_cast<long long>(Hi) << ")";
  return OS.str();
}

std::vector<Sample> inBand(const std::vector<Sample> &S, const Band &B) {
  std::vector<Sample> Out;
  for (const Sample &X : S)
    if (X.Bytes >= B.Lo && X.Bytes < B.Hi)
      Out.push_back(X);
  return Out;
}

bool parseBands(const std::string &Spec, std::vector<Band> &Out,
                std::string &Error) {
  Out.clear();
  double Lo = 0;
  std::stringstream SS(Spec);
  std::string Item;
  while (std::getline(SS, Item, ',')) {
    char *End = nullptr;
    double V = std::strtod(Item.c_str(), &End);
    if (Item.empty() || *End || !(V > Lo)) {
      Error = "--bands: '" + Item +
              "' is not a byte count above the previous boundary";
      return false;
    }
    Out.push_back({Lo, V});
    Lo = V;
  }
  Out.push_back({Lo, std::numeric_limits<double>::infinity()});
  return true;
}

} // namespace orrery::calibrate
