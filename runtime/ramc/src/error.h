//===- error.h - RAMC error state -------------------------------*- C++ -*-===//
//
// Every failing call records a message naming the call, the peer and the
// parameter at fault, then returns its RAMC_* code.
//
//===----------------------------------------------------------------------===//
#ifndef RAMC_SRC_ERROR_H
#define RAMC_SRC_ERROR_H

#include <string>

namespace ramc {

class ErrorState {
public:
  /// Records a printf-style message and returns Code.
  int fail(int Code, const char *Fmt, ...)
      __attribute__((format(printf, 3, 4)));
  const char *message() const { return Msg.c_str(); }
  void clear() { Msg.clear(); }

private:
  std::string Msg;
};

/// printf into a std::string.
std::string format(const char *Fmt, ...) __attribute__((format(printf, 1, 2)));

} // namespace ramc

#endif
