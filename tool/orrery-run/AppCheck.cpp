//===- AppCheck.cpp - Is the program something smpirun can load? ----------===//

#include "AppCheck.h"

#include <elf.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sys/stat.h>

namespace orrery::run {

namespace {

const char *const BuildHint =
    "build it with orrery-cxx --orrery-mode=skeleton (smpirun loads the "
    "program as a shared object)";

enum class ElfKind { NotElf, Unsupported, SharedObject, Executable, Other };

template <typename T> bool readAt(std::ifstream &In, std::uint64_t Off, T &V) {
  In.clear();
  In.seekg(static_cast<std::streamoff>(Off));
  return static_cast<bool>(In.read(reinterpret_cast<char *>(&V), sizeof(V)));
}

/// The file offset of virtual address \p Addr, from the PT_LOAD segments.
bool fileOffset(const std::vector<Elf64_Phdr> &Phdrs, std::uint64_t Addr,
                std::uint64_t &Off) {
  for (const Elf64_Phdr &P : Phdrs)
    if (P.p_type == PT_LOAD && Addr >= P.p_vaddr &&
        Addr < P.p_vaddr + P.p_filesz) {
      Off = Addr - P.p_vaddr + P.p_offset;
      return true;
    }
  return false;
}

/// Reads the DT_NEEDED names; an unreadable dynamic section reads as none.
std::vector<std::string> neededLibraries(std::ifstream &In,
                                         const std::vector<Elf64_Phdr> &Phdrs) {
  std::vector<std::string> Needed;
  for (const Elf64_Phdr &P : Phdrs) {
    if (P.p_type != PT_DYNAMIC)
      continue;
    std::vector<std::uint64_t> NameOffsets;
    std::uint64_t StrTab = 0;
    for (std::uint64_t I = 0; I < P.p_filesz / sizeof(Elf64_Dyn); ++I) {
      Elf64_Dyn D;
      if (!readAt(In, P.p_offset + I * sizeof(D), D) || D.d_tag == DT_NULL)
        break;
      if (D.d_tag == DT_NEEDED)
        NameOffsets.push_back(D.d_un.d_val);
      else if (D.d_tag == DT_STRTAB)
        StrTab = D.d_un.d_ptr;
    }
    std::uint64_t StrOff;
    if (!fileOffset(Phdrs, StrTab, StrOff))
      return Needed;
    for (std::uint64_t N : NameOffsets) {
      In.clear();
      In.seekg(static_cast<std::streamoff>(StrOff + N));
      std::string Name;
      if (std::getline(In, Name, '\0'))
        Needed.push_back(Name);
    }
  }
  return Needed;
}

ElfKind classify(std::ifstream &In, ProgramInfo &Info) {
  Elf64_Ehdr H;
  if (!readAt(In, 0, H) || std::memcmp(H.e_ident, ELFMAG, SELFMAG) != 0)
    return ElfKind::NotElf;
  if (H.e_ident[EI_CLASS] != ELFCLASS64 || H.e_ident[EI_DATA] != ELFDATA2LSB ||
      H.e_phentsize != sizeof(Elf64_Phdr))
    return ElfKind::Unsupported;
  if (H.e_type == ET_EXEC)
    return ElfKind::Executable;
  if (H.e_type != ET_DYN)
    return ElfKind::Other;
  std::vector<Elf64_Phdr> Phdrs(H.e_phnum);
  for (unsigned I = 0; I < H.e_phnum; ++I)
    if (!readAt(In, H.e_phoff + I * sizeof(Elf64_Phdr), Phdrs[I]))
      return ElfKind::Unsupported;
  // A position-independent executable is ET_DYN too; it names a program
  // interpreter (PT_INTERP). So do skeleton programs orrery-cxx links (to
  // say how to run them when executed), which need liborrery-sim.
  Info.Needed = neededLibraries(In, Phdrs);
  // Each loaded segment is one mapping; RELRO splits the writable one, and
  // zero-filled memory (.bss) past the segment's last file page is one more.
  Info.MappingsPerCopy = 0;
  const std::uint64_t Page = 4096;
  auto PageEnd = [Page](std::uint64_t A) { return (A + Page - 1) / Page; };
  for (const Elf64_Phdr &P : Phdrs) {
    Info.MappingsPerCopy += P.p_type == PT_LOAD || P.p_type == PT_GNU_RELRO;
    if (P.p_type == PT_LOAD &&
        PageEnd(P.p_vaddr + P.p_memsz) > PageEnd(P.p_vaddr + P.p_filesz))
      ++Info.MappingsPerCopy;
  }
  for (const Elf64_Phdr &P : Phdrs)
    if (P.p_type == PT_INTERP && !Info.usesOrrerySim())
      return ElfKind::Executable;
  return ElfKind::SharedObject;
}

} // namespace

bool ProgramInfo::usesOrrerySim() const {
  for (const std::string &N : Needed)
    if (N.rfind("liborrery-sim.so", 0) == 0)
      return true;
  return false;
}

bool inspectProgram(const std::string &Path, ProgramInfo &Info,
                    std::string &Error) {
  struct stat St;
  if (stat(Path.c_str(), &St) != 0) {
    Error = "program '" + Path + "' does not exist; " + BuildHint;
    return false;
  }
  if (!S_ISREG(St.st_mode)) {
    Error = "program '" + Path + "' is not a regular file; " + BuildHint;
    return false;
  }
  std::ifstream In(Path, std::ios::binary);
  if (!In) {
    Error = "cannot read program '" + Path + "': " + std::strerror(errno);
    return false;
  }
  switch (classify(In, Info)) {
  case ElfKind::SharedObject:
    return true;
  case ElfKind::Executable:
    Error = "program '" + Path + "' is an executable, not a shared object; " +
            BuildHint;
    return false;
  case ElfKind::NotElf:
    Error = "program '" + Path + "' is not an ELF file; " + BuildHint;
    return false;
  case ElfKind::Unsupported:
    Error = "program '" + Path +
            "' is not a 64-bit little-endian ELF file this tool can read; " +
            BuildHint;
    return false;
  case ElfKind::Other:
    break;
  }
  Error = "program '" + Path + "' is not a shared object; " + BuildHint;
  return false;
}

} // namespace orrery::run
