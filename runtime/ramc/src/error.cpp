//===- error.cpp - RAMC error state ---------------------------------------===//
#include "error.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace ramc {

static std::string vformat(const char *Fmt, va_list Args) {
  va_list Copy;
  va_copy(Copy, Args);
  int N = std::vsnprintf(nullptr, 0, Fmt, Copy);
  va_end(Copy);
  std::string S(N > 0 ? static_cast<size_t>(N) : 0, '\0');
  if (N > 0)
    std::vsnprintf(&S[0], S.size() + 1, Fmt, Args);
  return S;
}

std::string format(const char *Fmt, ...) {
  va_list Args;
  va_start(Args, Fmt);
  std::string S = vformat(Fmt, Args);
  va_end(Args);
  return S;
}

int ErrorState::fail(int Code, const char *Fmt, ...) {
  va_list Args;
  va_start(Args, Fmt);
  Msg = vformat(Fmt, Args);
  va_end(Args);
  if (std::getenv("RAMC_VERBOSE"))
    std::fprintf(stderr, "ramc: %s\n", Msg.c_str());
  return Code;
}

} // namespace ramc
