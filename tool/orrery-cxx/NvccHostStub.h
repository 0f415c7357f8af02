//===- NvccHostStub.h - nvcc -cuda through orrery-cxx ----------*- C++ -*-===//
//
// Some Makefiles (the OSU micro-benchmarks') run `nvcc -cuda k.cu -o k.cpp`,
// nvcc's front end alone, and compile the host-side C++ it writes with the
// C++ compiler. With NVCC=orrery-cxx the "host side" is a stub naming the
// .cu; when orrery-cxx later compiles the stub, it compiles that .cu as
// CUDA instead, so the file is instrumented and built for the mode like any
// other (device code included in twin and native modes).
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_TOOL_CXX_NVCCHOSTSTUB_H
#define ORRERY_TOOL_CXX_NVCCHOSTSTUB_H

#include <string>

namespace orrery {
namespace cxx {

/// Writes the stub for the absolute path \p CudaSource to \p Output
/// (atomically); false with \p Error on failure.
bool writeNvccHostStub(const std::string &CudaSource, const std::string &Output,
                       std::string &Error);

/// The .cu a stub at \p Path names, or empty when \p Path is no stub.
std::string nvccHostStubSource(const std::string &Path);

} // namespace cxx
} // namespace orrery

#endif
