//===- OutputFiles.cpp - Checking and committing every output -------------===//

#include "OutputFiles.h"

#include "orrery/support/AtomicFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace llvm;

namespace orrery {

static Error outputError(const PlannedOutput &O, const Twine &Why) {
  return createStringError(
      inconvertibleErrorCode(),
      formatv("{0} {1}: {2}", O.Option, O.Path, Why.str()));
}

/// The absolute path of a file that may not exist yet: its directory
/// resolved, so two spellings of one new file compare equal.
static std::string canonicalNew(StringRef Path) {
  SmallString<256> Abs(Path);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  SmallString<256> Dir;
  if (sys::fs::real_path(sys::path::parent_path(Abs), Dir))
    return std::string(Abs);
  sys::path::append(Dir, sys::path::filename(Abs));
  return std::string(Dir);
}

Error checkOutputs(ArrayRef<PlannedOutput> Outs,
                   const std::set<std::string> &Inputs,
                   const std::set<std::string> &FilesRead) {
  std::map<sys::fs::UniqueID, bool> Read; // -> is an input
  for (const std::string &F : FilesRead) {
    sys::fs::UniqueID ID;
    if (!sys::fs::getUniqueID(F, ID))
      Read.emplace(ID, false);
  }
  for (const std::string &F : Inputs) {
    sys::fs::UniqueID ID;
    if (!sys::fs::getUniqueID(F, ID))
      Read[ID] = true;
  }
  std::map<sys::fs::UniqueID, const PlannedOutput *> SeenIDs;
  std::map<std::string, const PlannedOutput *> SeenPaths;
  for (const PlannedOutput &O : Outs) {
    sys::fs::file_status St;
    if (!sys::fs::status(O.Path, St)) {
      if (St.type() != sys::fs::file_type::regular_file)
        return outputError(O, "exists and is not a regular file; outputs "
                              "replace their destination, give a file path");
      sys::fs::UniqueID ID = St.getUniqueID();
      sys::fs::UniqueID Own;
      bool IsOwn = !O.Replaces.empty() &&
                   !sys::fs::getUniqueID(O.Replaces, Own) && Own == ID;
      auto It = Read.find(ID);
      if (It != Read.end() && !IsOwn)
        return outputError(
            O, It->second
                   ? "names an input; refusing to overwrite it (write the "
                     "output elsewhere, or pass --in-place to rewrite inputs)"
                   : "names a file the translation unit reads (an included "
                     "header); refusing to overwrite it, write the output "
                     "elsewhere");
      auto [Prev, New] = SeenIDs.emplace(ID, &O);
      if (!New)
        return outputError(O,
                           formatv("is also written by {0} {1}; give each "
                                   "output its own file",
                                   Prev->second->Option, Prev->second->Path));
    }
    auto [Prev, New] = SeenPaths.emplace(canonicalNew(O.Path), &O);
    if (!New)
      return outputError(O, formatv("is also written by {0} {1}; give each "
                                    "output its own file",
                                    Prev->second->Option, Prev->second->Path));
  }
  return Error::success();
}

namespace {
/// Temporaries and created directories of one commit, removed unless kept.
class Transaction {
public:
  ~Transaction() {
    for (const std::string &T : Temps) {
      sys::fs::remove(T);
      sys::DontRemoveFileOnSignal(T);
    }
    for (auto It = Dirs.rbegin(); It != Dirs.rend(); ++It)
      sys::fs::remove(*It); // only if empty
  }

  Error createDirectories(StringRef Dir) {
    if (Dir.empty() || sys::fs::is_directory(Dir))
      return Error::success();
    if (Error E = createDirectories(sys::path::parent_path(Dir)))
      return E;
    if (sys::fs::is_directory(Dir))
      return Error::success(); // new/.. exists once new/ does
    // Not IgnoreExisting: a file in the way is an error, and only
    // directories made here are removed again.
    if (std::error_code EC =
            sys::fs::create_directory(Dir, /*IgnoreExisting=*/false))
      return createStringError(
          EC, formatv("cannot create directory {0}: {1}", Dir,
                      EC == std::errc::file_exists
                          ? std::string("a file of that name is in the way")
                          : EC.message()));
    Dirs.push_back(Dir.str());
    return Error::success();
  }

  Expected<std::string> writeTemp(const PlannedOutput &O) {
    StringRef Dir = sys::path::parent_path(O.Path);
    if (Error E = createDirectories(Dir))
      return E;
    std::string Error;
    std::string Temp = support::writeTemporaryBeside(O.Path, *O.Text, Error);
    if (Temp.empty())
      return createStringError(inconvertibleErrorCode(), Error);
    Temps.push_back(Temp);
    sys::RemoveFileOnSignal(Temp);
    return Temp;
  }

  /// The outputs are in place: nothing to remove any more.
  void keep() {
    for (const std::string &T : Temps)
      sys::DontRemoveFileOnSignal(T);
    Temps.clear();
    Dirs.clear();
  }

  std::vector<std::string> Temps;

private:
  std::vector<std::string> Dirs;
};
} // namespace

Error commitOutputs(ArrayRef<PlannedOutput> Outs,
                    const std::set<std::string> &Inputs,
                    const std::set<std::string> &FilesRead) {
  auto NothingWritten = [](Error E) {
    return createStringError(inconvertibleErrorCode(),
                             toString(std::move(E)) + "; nothing was written");
  };
  if (Error E = checkOutputs(Outs, Inputs, FilesRead))
    return NothingWritten(std::move(E));
  Transaction T;
  std::vector<std::string> Temps;
  for (const PlannedOutput &O : Outs) {
    Expected<std::string> Temp = T.writeTemp(O);
    if (!Temp)
      return NothingWritten(outputError(O, toString(Temp.takeError())));
    Temps.push_back(*Temp);
  }
  if (Error E = checkOutputs(Outs, Inputs, FilesRead))
    return NothingWritten(std::move(E));
  // Renames within one directory do not fail for lack of space; what could
  // fail (a destination made a directory meanwhile) is reported, naming
  // the outputs already replaced.
  for (size_t I = 0; I < Outs.size(); ++I) {
    std::string Error;
    if (!support::replaceFile(Temps[I], Outs[I].Path, Error)) {
      std::string Done;
      for (size_t J = 0; J < I; ++J)
        Done += (J ? ", " : "") + Outs[J].Path;
      T.Temps.erase(T.Temps.begin(), T.Temps.begin() + I);
      return outputError(
          Outs[I], formatv("{0}; {1}", Error,
                           Done.empty() ? std::string("nothing was written")
                                        : "already replaced: " + Done));
    }
  }
  T.keep();
  return Error::success();
}

} // namespace orrery
