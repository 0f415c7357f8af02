//===- ValueSchedule.cpp - What successive device reads get ---------------===//

#include "orrery/support/ValueSchedule.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace orrery::support {

namespace {

const char *Syntax = "a number (1.0, 0x3f), keep (the value the simulation "
                     "has), or a schedule such as 1.0*59,1e-12 (59 reads of "
                     "1.0, then 1e-12) or geom(1.0,0.7) (1.0 x 0.7^k for "
                     "read k)";

/// A number as liborrery-sim can write it: decimal or floating point, with
/// a sign, or 0x hex (integers and byte patterns).
bool numeric(const std::string &V) {
  if (V.empty())
    return false;
  const char *S = V.c_str();
  char *End = nullptr;
  errno = 0;
  std::strtod(S, &End);
  if (*End == '\0' && End != S)
    return true;
  std::strtoll(S, &End, 0);
  if (*End == '\0' && End != S)
    return true;
  if (V.size() > 2 && V[0] == '0' && (V[1] == 'x' || V[1] == 'X'))
    return V.find_first_not_of("0123456789abcdefABCDEF", 2) ==
           std::string::npos;
  return false;
}

bool finiteNumber(const std::string &V, double &Out) {
  char *End = nullptr;
  errno = 0;
  Out = std::strtod(V.c_str(), &End);
  return !V.empty() && *End == '\0' && errno != ERANGE && std::isfinite(Out);
}

std::string trim(const std::string &S) {
  size_t B = S.find_first_not_of(" \t"), E = S.find_last_not_of(" \t");
  return B == std::string::npos ? "" : S.substr(B, E - B + 1);
}

} // namespace

bool parseValueSchedule(const std::string &Text, ValueSchedule &Out,
                        std::string &Error) {
  Out = ValueSchedule();
  // Split on the commas outside geom(...).
  std::vector<std::string> Parts;
  int Depth = 0;
  std::string Cur;
  for (char C : Text) {
    Depth += C == '(' ? 1 : C == ')' ? -1 : 0;
    if (C == ',' && Depth == 0) {
      Parts.push_back(Cur);
      Cur.clear();
    } else {
      Cur += C;
    }
  }
  Parts.push_back(Cur);
  for (size_t I = 0; I < Parts.size(); ++I) {
    std::string P = trim(Parts[I]);
    ValueSchedule::Segment S;
    size_t Star = P.rfind('*');
    if (Star != std::string::npos && P.find(')', Star) == std::string::npos) {
      std::string N = trim(P.substr(Star + 1));
      char *End = nullptr;
      errno = 0;
      unsigned long long L = std::strtoull(N.c_str(), &End, 10);
      if (N.empty() || *End || errno || L == 0 ||
          N.find_first_not_of("0123456789") != std::string::npos) {
        Error = "'" + N + "' in '" + P +
                "' is not a count of reads >= 1; write VALUE*N, e.g. 1.0*59";
        return false;
      }
      S.Length = L;
      P = trim(P.substr(0, Star));
    }
    if (P.rfind("geom(", 0) == 0 && !P.empty() && P.back() == ')') {
      std::string Args = P.substr(5, P.size() - 6);
      size_t Comma = Args.find(',');
      if (Comma == std::string::npos ||
          !finiteNumber(trim(Args.substr(0, Comma)), S.Start) ||
          !finiteNumber(trim(Args.substr(Comma + 1)), S.Ratio)) {
        Error = "'" + P + "' is not geom(START,RATIO) with two numbers";
        return false;
      }
      S.Geometric = true;
    } else if (numeric(P) || P == "keep") {
      S.Value = P;
    } else {
      Error = "'" + P + "' is not " + Syntax;
      return false;
    }
    Out.Segments.push_back(S);
  }
  for (size_t I = 0; I + 1 < Out.Segments.size(); ++I)
    if (Out.Segments[I].Length == 0) {
      Error = "in '" + Text +
              "', only the last part may go on for good: give the others a "
              "count of reads (VALUE*N)";
      return false;
    }
  return true;
}

std::string ValueSchedule::valueAt(std::uint64_t Index) const {
  std::uint64_t Cycle = 0;
  for (const Segment &S : Segments)
    Cycle += S.Length;
  // Every segment has a length: the schedule repeats.
  if (Segments.back().Length != 0)
    Index %= Cycle;
  for (const Segment &S : Segments) {
    if (S.Length != 0 && Index >= S.Length) {
      Index -= S.Length;
      continue;
    }
    if (!S.Geometric)
      return S.Value;
    char Buf[64];
    std::snprintf(Buf, sizeof Buf, "%.17g",
                  S.Start * std::pow(S.Ratio, double(Index)));
    return Buf;
  }
  return Segments.back().Value;
}

} // namespace orrery::support
