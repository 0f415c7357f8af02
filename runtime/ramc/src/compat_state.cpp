//===- compat_state.cpp - one default context per process -----------------===//
#include "compat_state.h"

namespace ramc {

CompatState &compatState() {
  static CompatState S;
  return S;
}

} // namespace ramc
