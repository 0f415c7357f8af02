//===- NvccFlags.h - nvcc flags translated to clang's ----------*- C++ -*-===//
//
// Build systems written for nvcc pass nvcc flags (-arch=sm_90, -gencode,
// -Xcompiler, -rdc=true, --expt-*, -lineinfo, -ccbin, ...). clang rejects or
// misreads them. This is the one table that maps them to clang flags: used by
// orrery-instrument (through CompilerFlags.h) for nvcc compile databases and
// by the orrery-cxx build driver for Makefiles that call nvcc-style compilers.
//
// Plain C++17 on purpose: orrery-cxx links it without LLVM or Clang.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_PASSES_NVCCFLAGS_H
#define ORRERY_PASSES_NVCCFLAGS_H

#include <string>
#include <vector>

namespace orrery {

/// The result of translating a list of compiler flags.
struct NvccTranslation {
  /// The flags as clang must see them, in their original order.
  std::vector<std::string> Args;
  /// nvcc flags dropped because they only steer nvcc's device code
  /// generation, its host compiler or its diagnostics; as written, values
  /// included (for notes).
  std::vector<std::string> Dropped;
  /// Non-empty when a flag cannot be translated: names the flag and what to
  /// do instead. Args is then incomplete.
  std::string Error;
  /// The nvcc flag refused (no clang counterpart), when that is the error;
  /// front ends may word their own advice around it.
  std::string RefusedFlag;
  /// -dlink / --device-link was given (a device-link step; dropped).
  bool DeviceLink = false;
  /// -cuda / --cuda was given: nvcc's front end only, writing the host side
  /// as a C++ file that a C++ compiler builds later.
  bool CudaFrontEnd = false;
};

/// Translates compiler flags (argv[0] excluded) in which nvcc flags may
/// appear. Flags that are not nvcc's, and inputs, are kept unchanged, so a
/// clang command line comes back as it was. -arch/-gencode become
/// --cuda-gpu-arch=sm_XX, -rdc=true and -dc become -fgpu-rdc, -Xcompiler a,b
/// becomes a b, -x cu becomes -x cuda, and so on.
NvccTranslation translateNvccFlags(const std::vector<std::string> &Args);

} // namespace orrery

#endif
