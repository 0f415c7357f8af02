//===- StubSymbols.cpp - Names of hidden kernel stubs ---------------------===//
//
// CUB declares its kernels with hidden visibility, so dladdr (which reads the
// dynamic symbol table) cannot name their host stubs. The object file's own
// symbol table (.symtab, present unless the program is stripped) can: it is
// read once per loaded object, keeping only the stubs.
//
//===----------------------------------------------------------------------===//

#include "LibraryKernels.h"
#include "ranks/LoadedObjects.h"

#include <cxxabi.h>
#include <elf.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

namespace orrery::sim {
namespace {

/// Offset (from the load base) -> mangled name of the `__device_stub__`
/// functions of one ELF file; empty when it cannot be read.
std::map<std::uint64_t, std::string> readStubs(const char *Path) {
  std::map<std::uint64_t, std::string> Out;
  std::ifstream In(Path, std::ios::binary);
  std::vector<char> B((std::istreambuf_iterator<char>(In)),
                      std::istreambuf_iterator<char>());
  if (B.size() < sizeof(Elf64_Ehdr) || std::memcmp(B.data(), ELFMAG, SELFMAG) ||
      B[EI_CLASS] != ELFCLASS64)
    return Out;
  Elf64_Ehdr H;
  std::memcpy(&H, B.data(), sizeof H);
  auto Section = [&](unsigned I, Elf64_Shdr &S) {
    std::uint64_t At = H.e_shoff + std::uint64_t(I) * H.e_shentsize;
    if (H.e_shentsize < sizeof S || At + sizeof S > B.size())
      return false;
    std::memcpy(&S, B.data() + At, sizeof S);
    return S.sh_offset + S.sh_size <= B.size();
  };
  bool Exec = H.e_type == ET_EXEC; // symbol values are addresses
  for (unsigned I = 0; I < H.e_shnum; ++I) {
    Elf64_Shdr Sym, Str;
    if (!Section(I, Sym) || Sym.sh_type != SHT_SYMTAB ||
        Sym.sh_entsize < sizeof(Elf64_Sym) || !Section(Sym.sh_link, Str))
      continue;
    for (std::uint64_t At = Sym.sh_offset;
         At + sizeof(Elf64_Sym) <= Sym.sh_offset + Sym.sh_size;
         At += Sym.sh_entsize) {
      Elf64_Sym S;
      std::memcpy(&S, B.data() + At, sizeof S);
      if (ELF64_ST_TYPE(S.st_info) != STT_FUNC || !S.st_value ||
          S.st_name >= Str.sh_size)
        continue;
      const char *Name = B.data() + Str.sh_offset + S.st_name;
      size_t Max = Str.sh_size - S.st_name;
      if (strnlen(Name, Max) == Max || !std::strstr(Name, "__device_stub__"))
        continue;
      Out[S.st_value | (Exec ? 1ull << 63 : 0)] = Name;
    }
  }
  return Out;
}

/// A readable copy of the loaded object \p Loaded. SMPI's dlopen
/// privatization loads each rank from a copy (`/tmp/prog.so_PID_RANK.so`)
/// that it removes once loaded; the program named on the command line
/// (`prog.so`, the copy's source) has the same symbols.
std::string readableObject(const std::string &Loaded) {
  if (std::ifstream(Loaded).good())
    return Loaded;
  std::string Base = Loaded.substr(Loaded.rfind('/') + 1);
  std::ifstream Cmd("/proc/self/cmdline", std::ios::binary);
  std::string Arg;
  while (std::getline(Cmd, Arg, '\0')) {
    std::string ArgBase = Arg.substr(Arg.rfind('/') + 1);
    if (!ArgBase.empty() && Base.rfind(ArgBase + "_", 0) == 0 &&
        std::ifstream(Arg).good())
      return Arg;
  }
  return Loaded;
}

} // namespace

std::string stubMangledSymbol(const void *Func) {
  std::optional<LoadedObject> Object = loadedObject(Func);
  if (!Object || Object->File.empty())
    return "";
  static std::map<std::string, std::map<std::uint64_t, std::string>> Files;
  auto It = Files.find(Object->File);
  if (It == Files.end())
    It = Files
             .emplace(Object->File,
                      readStubs(readableObject(Object->File).c_str()))
             .first;
  const auto &Stubs = It->second;
  auto Addr = reinterpret_cast<std::uintptr_t>(Func);
  auto Base = reinterpret_cast<std::uintptr_t>(Object->Start);
  auto Found = Stubs.find(Addr - Base);
  if (Found == Stubs.end())
    Found = Stubs.find(Addr | (1ull << 63)); // an executable: absolute
  return Found == Stubs.end() ? std::string() : Found->second;
}

std::string stubSymbol(const void *Func) {
  std::string Mangled = stubMangledSymbol(Func);
  if (Mangled.empty())
    return "";
  int Status = 0;
  char *D = abi::__cxa_demangle(Mangled.c_str(), nullptr, nullptr, &Status);
  std::string Name = Status == 0 && D ? D : Mangled;
  std::free(D);
  return Name;
}

} // namespace orrery::sim
