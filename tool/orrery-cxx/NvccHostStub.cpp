//===- NvccHostStub.cpp - nvcc -cuda through orrery-cxx -------------------===//

#include "NvccHostStub.h"

#include "orrery/support/AtomicFile.h"

#include <fstream>
#include <unistd.h>

namespace orrery {
namespace cxx {

static const char Marker[] = "// orrery-cxx: nvcc -cuda host side of ";

bool writeNvccHostStub(const std::string &CudaSource, const std::string &Output,
                       std::string &Error) {
  if (CudaSource.find('\n') != std::string::npos) {
    Error = "'" + CudaSource + "': a file name with a newline cannot be "
            "named in the host-side stub";
    return false;
  }
  // The #include keeps the file meaningful to any other C++ compiler.
  std::string Stub = Marker + CudaSource + "\n" +
                     "// orrery-cxx compiles that file as CUDA when given "
                     "this one.\n" +
                     "#include \"" + CudaSource + "\"\n";
  return support::writeFileAtomically(Output, Stub, Error);
}

std::string nvccHostStubSource(const std::string &Path) {
  std::ifstream In(Path);
  std::string First;
  if (!In || !std::getline(In, First))
    return "";
  if (First.compare(0, sizeof Marker - 1, Marker) != 0)
    return "";
  std::string Cu = First.substr(sizeof Marker - 1);
  return access(Cu.c_str(), R_OK) == 0 ? Cu : "";
}

} // namespace cxx
} // namespace orrery
