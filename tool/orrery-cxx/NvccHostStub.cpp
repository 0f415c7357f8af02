//===- NvccHostStub.cpp - nvcc -cuda through orrery-cxx -------------------===//

#include "NvccHostStub.h"

#include <cstdio>
#include <cstring>
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
  std::string Temp = Output + ".orrery-tmp-" + std::to_string(getpid());
  {
    std::ofstream Out(Temp);
    // The #include keeps the file meaningful to any other C++ compiler.
    Out << Marker << CudaSource << "\n"
        << "// orrery-cxx compiles that file as CUDA when given this one.\n"
        << "#include \"" << CudaSource << "\"\n";
    Out.close();
    if (!Out) {
      std::remove(Temp.c_str());
      Error = "cannot write '" + Output + "'";
      return false;
    }
  }
  if (std::rename(Temp.c_str(), Output.c_str()) != 0) {
    std::remove(Temp.c_str());
    Error = "cannot write '" + Output + "': " + std::strerror(errno);
    return false;
  }
  return true;
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
