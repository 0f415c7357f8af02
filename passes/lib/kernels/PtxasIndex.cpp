//===- PtxasIndex.cpp - ptxas outputs by input and its files --------------===//

#include "PtxasIndex.h"
#include "orrery/support/AtomicFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;

namespace orrery {
namespace {

constexpr StringRef Magic = "orrery-ptxas-index 1";

std::optional<std::string> contentHash(StringRef Path) {
  auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (!Buf)
    return std::nullopt;
  return formatv("{0:x-16}", xxh3_64bits((*Buf)->getBuffer())).str();
}

/// The prerequisites of a make rule: `target: a b \` newline `c`; a space
/// in a path is `\ `.
std::vector<std::string> depFiles(StringRef Text) {
  std::vector<std::string> Out;
  size_t Colon = Text.find(": ");
  if (Colon == StringRef::npos)
    return Out;
  std::string Cur;
  for (size_t I = Colon + 2; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '\\' && I + 1 < Text.size() &&
        (Text[I + 1] == ' ' || Text[I + 1] == '#')) {
      Cur += Text[++I];
      continue;
    }
    if (C == '\\' && I + 1 < Text.size() && Text[I + 1] == '\n') {
      ++I;
      C = ' ';
    }
    if (C == ' ' || C == '\n' || C == '\t' || C == '\r') {
      if (!Cur.empty())
        Out.push_back(std::move(Cur));
      Cur.clear();
      continue;
    }
    Cur += C;
  }
  if (!Cur.empty())
    Out.push_back(std::move(Cur));
  return Out;
}

} // namespace

std::string ptxasIndexPath(StringRef CacheDir,
                           const std::vector<std::string> &Cmd,
                           StringRef Directory, StringRef Arch,
                           StringRef PtxasId) {
  std::string Id = (Directory + "\n" + Arch + "\n" + PtxasId).str();
  for (const std::string &A : Cmd)
    Id += "\n" + A;
  SmallString<256> Path(CacheDir);
  sys::path::append(Path,
                    formatv("index-{0:x-16}.txt", xxh3_64bits(Id)).str());
  return std::string(Path);
}

std::optional<std::string> readPtxasIndex(StringRef Path) {
  auto Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return std::nullopt;
  StringRef Rest = (*Buf)->getBuffer();
  auto [First, Tail] = Rest.split('\n');
  if (First != Magic)
    return std::nullopt;
  Rest = Tail;
  while (!Rest.empty()) {
    auto [Line, Next] = Rest.split('\n');
    Rest = Next;
    if (Line == "--")
      return Rest.str();
    // dep <hash> <path>
    if (!Line.consume_front("dep ") || Line.size() < 18)
      return std::nullopt;
    StringRef Hash = Line.take_front(16), File = Line.drop_front(17);
    std::optional<std::string> Now = contentHash(File);
    if (!Now || *Now != Hash)
      return std::nullopt;
  }
  return std::nullopt;
}

void writePtxasIndex(StringRef Path, StringRef DepFile, StringRef Directory,
                     StringRef Verbose) {
  auto Buf = MemoryBuffer::getFile(DepFile);
  if (!Buf)
    return;
  std::vector<std::string> Files = depFiles((*Buf)->getBuffer());
  if (Files.empty())
    return;
  std::string Text = (Magic + "\n").str();
  for (const std::string &F : Files) {
    SmallString<256> Abs(F);
    if (!sys::path::is_absolute(Abs)) {
      if (Directory.empty())
        sys::fs::make_absolute(Abs);
      else
        sys::path::make_absolute(Directory, Abs);
    }
    std::optional<std::string> H = contentHash(Abs);
    if (!H || StringRef(Abs).contains('\n'))
      return; // an entry that could never validate is not written
    Text += formatv("dep {0} {1}\n", *H, Abs).str();
  }
  Text += "--\n";
  Text += Verbose.str();
  writeCacheFile(Path, Text);
}

void writeCacheFile(StringRef Path, StringRef Text) {
  // A cache entry that cannot be written is only a later miss.
  if (sys::fs::create_directories(sys::path::parent_path(Path)))
    return;
  std::string Error;
  support::writeFileAtomically(Path.str(), Text, Error);
}

} // namespace orrery
