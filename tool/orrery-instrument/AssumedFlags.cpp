//===- AssumedFlags.cpp - Flags for `orrery-instrument FILE.cu` alone -----===//

#include "AssumedFlags.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace orrery {

namespace {

/// True if Arg is an option whose value is the next argument (`-o FILE`).
bool takesNextArgument(StringRef Arg) {
  if (!Arg.consume_front("-") || Arg.contains('='))
    return false;
  Arg.consume_front("-");
  auto &Options = cl::getRegisteredOptions();
  auto It = Options.find(Arg);
  return It != Options.end() &&
         It->second->getValueExpectedFlag() == cl::ValueRequired;
}

/// The first input file of the command line, or "".
std::string firstSource(const std::vector<std::string> &Args) {
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A.starts_with("-")) {
      if (takesNextArgument(A))
        ++I;
      continue;
    }
    return A.str();
  }
  return "";
}

std::vector<std::string> splitList(StringRef List) {
  SmallVector<StringRef, 4> Parts;
  List.split(Parts, '|', -1, false);
  std::vector<std::string> Out;
  for (StringRef P : Parts)
    Out.push_back(P.str());
  return Out;
}

/// -I flags for mpi.h and ramc.h: an installed tree's include directory
/// next to the executable, else the ones configured at build time.
std::vector<std::string> includeFlags(StringRef Argv0) {
  std::vector<std::string> Dirs;
  std::string Exe =
      sys::fs::getMainExecutable(Argv0.str().c_str(), (void *)&includeFlags);
  SmallString<256> Installed(
      sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(Installed, "include", "ramc.h");
  if (sys::fs::exists(Installed))
    Dirs.push_back(sys::path::parent_path(Installed).str());
  else
    Dirs.push_back(ORRERY_RAMC_INCLUDEDIR);
  for (const std::string &D : splitList(ORRERY_MPI_INCLUDEDIRS))
    Dirs.push_back(D);
  std::vector<std::string> Flags;
  for (const std::string &D : Dirs)
    if (!D.empty() && sys::fs::is_directory(D))
      Flags.push_back("-I" + D);
  return Flags;
}

} // namespace

std::string compileDatabaseAbove(StringRef Dir) {
  SmallString<256> D(Dir);
  sys::fs::make_absolute(D);
  for (StringRef P = D; !P.empty(); P = sys::path::parent_path(P)) {
    SmallString<256> F(P);
    sys::path::append(F, "compile_commands.json");
    if (sys::fs::is_regular_file(F))
      return std::string(F);
  }
  return "";
}

BareInvocation bareInvocation(int Argc, const char **Argv) {
  BareInvocation B;
  B.Args.assign(Argv, Argv + Argc);
  std::string Source = firstSource(B.Args);
  if (Source.empty())
    return B; // the parser says what is missing
  SmallString<256> Dir(Source);
  sys::path::remove_filename(Dir);
  if (std::string Db =
          compileDatabaseAbove(Dir.empty() ? StringRef(".") : StringRef(Dir));
      !Db.empty()) {
    B.DatabaseDir = sys::path::parent_path(Db).str();
    B.Args.push_back("-p");
    B.Args.push_back(B.DatabaseDir);
    B.Note = "no flags given: using " + Db + " (found above " + Source + ")";
    return B;
  }
  std::vector<std::string> Flags = includeFlags(Argv[0]);
  B.Args.push_back("--");
  B.Args.insert(B.Args.end(), Flags.begin(), Flags.end());
  std::string Shown;
  for (const std::string &F : Flags)
    Shown += " " + F;
  B.Note = "no compile_commands.json above " + Source +
           " and no flags after '--': parsing with the defaults for its "
           "language" +
           (Shown.empty() ? std::string() : " and" + Shown) +
           " (CUDA headers from the toolkit; give the build's own flags "
           "after '--', or -p <build dir>)";
  return B;
}

} // namespace orrery
