//===- ctx_handle.h - the object behind ramc_ctx_t -------------*- C++ -*-===//
#ifndef RAMC_SRC_CTX_HANDLE_H
#define RAMC_SRC_CTX_HANDLE_H

#include "context.h"

struct ramc_ctx {
  ramc::Context Impl;
};

#endif
