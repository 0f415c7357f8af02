//===- CompilerFlags.cpp - Compile commands as clang must see them --------===//

#include "orrery/passes/CompilerFlags.h"

#include "clang/Options/Options.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <cstring>

#ifndef ORRERY_DEFAULT_RESOURCE_DIR
#error "ORRERY_DEFAULT_RESOURCE_DIR must be defined by the build"
#endif

using namespace llvm;

namespace orrery {

static Error flagError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

bool isNvccCommand(const std::vector<std::string> &Argv) {
  if (Argv.empty())
    return false;
  StringRef Tool = sys::path::filename(Argv[0]);
  return Tool == "nvcc" || Tool.starts_with("nvcc-") || Tool == "nvcc.exe";
}

namespace {
enum class NvccAction { Keep, Drop, DropWithValue, Special };

/// nvcc flags that steer device code generation, nvcc's own host compiler or
/// its diagnostics: meaningless for a host-side parse.
NvccAction classifyNvccFlag(StringRef Name) {
  return StringSwitch<NvccAction>(Name)
      .Cases({"--expt-relaxed-constexpr", "-expt-relaxed-constexpr",
              "--expt-extended-lambda", "-expt-extended-lambda",
              "--extended-lambda", "-extended-lambda"},
             NvccAction::Drop)
      .Cases({"-lineinfo",
              "--generate-line-info",
              "-G",
              "--device-debug",
              "--use_fast_math",
              "-use_fast_math",
              "--keep",
              "-keep",
              "--resource-usage",
              "-res-usage",
              "-restrict",
              "--restrict",
              "--forward-unknown-to-host-compiler",
              "-forward-unknown-to-host-compiler",
              "--display-error-number",
              "-Wno-deprecated-gpu-targets",
              "--Wno-deprecated-gpu-targets",
              "--extensible-whole-program",
              "-ewp",
              "-dlto",
              "--dlink-time-opt",
              "-dlink",
              "--device-link"},
             NvccAction::Drop)
      .Cases({"-Xptxas",
              "--ptxas-options",
              "-Xnvlink",
              "--nvlink-options",
              "-Xfatbin",
              "--fatbin-options",
              "-Xcudafe",
              "-ccbin",
              "--compiler-bindir",
              "-code",
              "--gpu-code",
              "-maxrregcount",
              "--maxrregcount",
              "-t",
              "--threads",
              "--keep-dir",
              "-keep-dir",
              "-cudart",
              "--cudart",
              "-diag-suppress",
              "--diag-suppress",
              "--diag_suppress",
              "-ftz",
              "--ftz",
              "-prec-div",
              "--prec-div",
              "-prec-sqrt",
              "--prec-sqrt",
              "-fmad",
              "--fmad",
              "-Werror",
              "--Werror",
              "-split-compile",
              "--split-compile",
              "-Xarchive",
              "--archive-options",
              "-cudadevrt",
              "--cudadevrt"},
             NvccAction::DropWithValue)
      .Cases({"-gencode",
              "--generate-code",
              "-arch",
              "--gpu-architecture",
              "-rdc",
              "--relocatable-device-code",
              "-dc",
              "-Xcompiler",
              "--compiler-options",
              "-x",
              "--x",
              "--default-stream",
              "-default-stream",
              "--std",
              "-std",
              "--options-file",
              "-optf",
              "--define-macro",
              "--include-path",
              "--system-include",
              "--pre-include",
              "--output-file",
              "--compile"},
             NvccAction::Special)
      .Default(NvccAction::Keep);
}

/// Adds `--cuda-gpu-arch=sm_XX` for every real or virtual architecture named
/// in an -arch or -gencode value.
void addGpuArchs(StringRef Value, std::vector<std::string> &Out) {
  SmallVector<StringRef, 8> Parts;
  Value.split(Parts, ',');
  for (StringRef P : Parts) {
    P = P.trim().trim("[]");
    P.consume_front("arch=");
    P.consume_front("code=");
    P = P.trim("[]");
    StringRef Num;
    if (P.consume_front("sm_") || P.consume_front("compute_"))
      Num = P;
    else
      continue; // native, all, all-major: any architecture parses the host
    std::string Arch = ("--cuda-gpu-arch=sm_" + Num).str();
    if (!is_contained(Out, Arch))
      Out.push_back(Arch);
  }
}
} // namespace

Expected<std::vector<std::string>>
translateNvccCommand(const std::vector<std::string> &Argv) {
  std::vector<std::string> Out;
  if (Argv.empty())
    return Out;
  Out.push_back("clang++");
  for (size_t I = 1; I < Argv.size(); ++I) {
    StringRef Arg = Argv[I];
    // Split `--flag=value`; nvcc also accepts `-flag value`.
    StringRef Name = Arg, Inline;
    bool HasInline = false;
    if (Arg.starts_with("-")) {
      size_t Eq = Arg.find('=');
      if (Eq != StringRef::npos) {
        Name = Arg.substr(0, Eq);
        Inline = Arg.substr(Eq + 1);
        HasInline = true;
      }
    }
    NvccAction Action =
        Arg.starts_with("-") ? classifyNvccFlag(Name) : NvccAction::Keep;
    // For a classified flag, its value is inline or the next argument.
    auto TakeValue = [&]() -> Expected<std::string> {
      if (HasInline)
        return Inline.str();
      if (I + 1 >= Argv.size())
        return flagError(formatv("nvcc flag '{0}' is missing its value", Name));
      return Argv[++I];
    };
    if (Action == NvccAction::Keep) {
      Out.push_back(Arg.str()); // shared with clang; checked later
      continue;
    }
    if (Action == NvccAction::Drop)
      continue;
    if (Action == NvccAction::DropWithValue) {
      // -Werror takes a value in nvcc only when one follows.
      if ((Name == "-Werror" || Name == "--Werror") && !HasInline &&
          (I + 1 >= Argv.size() || StringRef(Argv[I + 1]).starts_with("-")))
        continue;
      if (Expected<std::string> V = TakeValue(); !V)
        return V.takeError();
      continue;
    }
    // Special cases.
    if (Name == "-dc") {
      Out.push_back("-fgpu-rdc");
      Out.push_back("-c");
      continue;
    }
    if (Name == "--compile") {
      Out.push_back("-c");
      continue;
    }
    Expected<std::string> V = TakeValue();
    if (!V)
      return V.takeError();
    StringRef Value = *V;
    if (Name == "-gencode" || Name == "--generate-code" || Name == "-arch" ||
        Name == "--gpu-architecture") {
      addGpuArchs(Value, Out);
    } else if (Name == "-rdc" || Name == "--relocatable-device-code") {
      if (Value == "true")
        Out.push_back("-fgpu-rdc");
      else if (Value != "false")
        return flagError(formatv("nvcc flag '{0}' has value '{1}'; expected "
                                 "true or false",
                                 Name, Value));
    } else if (Name == "-Xcompiler" || Name == "--compiler-options") {
      SmallVector<StringRef, 8> Parts;
      Value.split(Parts, ',', -1, /*KeepEmpty=*/false);
      for (StringRef P : Parts)
        Out.push_back(P.trim().str());
    } else if (Name == "-x" || Name == "--x") {
      Out.push_back("-x");
      Out.push_back(Value == "cu" ? "cuda" : Value.str());
    } else if (Name == "--default-stream" || Name == "-default-stream") {
      if (Value == "per-thread" || Value == "legacy")
        Out.push_back(("-fgpu-default-stream=" + Value).str());
      else if (Value != "null")
        return flagError(
            formatv("nvcc flag '{0}' has unknown value '{1}'", Name, Value));
    } else if (Name == "--std" || Name == "-std") {
      Out.push_back(("-std=" + Value).str());
    } else if (Name == "--define-macro") {
      Out.push_back(("-D" + Value).str());
    } else if (Name == "--include-path") {
      Out.push_back(("-I" + Value).str());
    } else if (Name == "--system-include") {
      Out.push_back("-isystem");
      Out.push_back(Value.str());
    } else if (Name == "--pre-include") {
      Out.push_back("-include");
      Out.push_back(Value.str());
    } else if (Name == "--output-file") {
      Out.push_back("-o");
      Out.push_back(Value.str());
    } else {
      return flagError(formatv("nvcc flag '{0}' cannot be translated; pass "
                               "the equivalent clang flags after '--' instead",
                               Name));
    }
  }
  return Out;
}

Error checkClangKnowsFlags(const std::vector<std::string> &Argv) {
  if (Argv.size() < 2)
    return Error::success();
  SmallVector<const char *, 32> Ptrs;
  for (size_t I = 1; I < Argv.size(); ++I)
    Ptrs.push_back(Argv[I].c_str());
  unsigned MissingIndex = 0, MissingCount = 0;
  const opt::OptTable &Table = clang::getDriverOptTable();
  opt::InputArgList Args =
      Table.ParseArgs(Ptrs, MissingIndex, MissingCount,
                      opt::Visibility(clang::options::ClangOption));
  if (MissingCount)
    return flagError(formatv("compiler flag '{0}' is missing its value",
                             Ptrs[MissingIndex]));
  for (const opt::Arg *A : Args.filtered(clang::options::OPT_UNKNOWN))
    return flagError(formatv("clang does not know the compiler flag '{0}'; "
                             "remove it or pass a clang equivalent",
                             A->getAsString(Args)));
  return Error::success();
}

static bool hasFlag(const std::vector<std::string> &Argv, StringRef Prefix) {
  return any_of(Argv, [&](const std::string &A) {
    return StringRef(A).starts_with(Prefix);
  });
}

/// True if the driver will treat File as CUDA: by `-x cuda` or extension.
static bool isCudaFile(const std::vector<std::string> &Argv, StringRef File) {
  for (size_t I = 0; I + 1 < Argv.size(); ++I)
    if (Argv[I] == "-x")
      return Argv[I + 1] == "cuda";
  for (const std::string &A : Argv)
    if (StringRef(A).starts_with("-x") && A.size() > 2)
      return StringRef(A).substr(2) == "cuda";
  return sys::path::extension(File) == ".cu";
}

std::vector<std::string> addParseFlags(std::vector<std::string> Argv,
                                       StringRef File, const ParseSettings &S) {
  std::vector<std::string> Extra;
  if (!hasFlag(Argv, "-resource-dir"))
    Extra.push_back("-resource-dir=" + S.ResourceDir);
  if (isCudaFile(Argv, File)) {
    if (!hasFlag(Argv, "--cuda-host-only") &&
        !hasFlag(Argv, "--cuda-device-only"))
      Extra.push_back("--cuda-host-only");
    if (!hasFlag(Argv, "-Wno-unknown-cuda-version"))
      Extra.push_back("-Wno-unknown-cuda-version");
    if (!S.CudaPath.empty() && !hasFlag(Argv, "--cuda-path") &&
        !hasFlag(Argv, "-nocudainc"))
      Extra.push_back("--cuda-path=" + S.CudaPath);
    // nvcc finds thrust, CUB and libcu++ in <cuda>/include/cccl (CUDA 13);
    // clang does not look there.
    std::string CudaRoot = S.CudaPath;
    for (const std::string &A : Argv)
      if (StringRef(A).starts_with("--cuda-path="))
        CudaRoot = A.substr(strlen("--cuda-path="));
    SmallString<256> Cccl(CudaRoot);
    sys::path::append(Cccl, "include", "cccl");
    if (!CudaRoot.empty() && !hasFlag(Argv, "-nocudainc") &&
        sys::fs::is_directory(Cccl)) {
      Extra.push_back("-isystem");
      Extra.push_back(std::string(Cccl));
    }
  }
  // Insert right after argv[0] so the user's own flags come later and win.
  Argv.insert(Argv.begin() + (Argv.empty() ? 0 : 1), Extra.begin(),
              Extra.end());
  return Argv;
}

Expected<std::string> findResourceDir(StringRef Override) {
  std::string Dir = Override.empty() ? std::string(ORRERY_DEFAULT_RESOURCE_DIR)
                                     : Override.str();
  SmallString<256> Wrappers(Dir);
  sys::path::append(Wrappers, "include", "cuda_wrappers");
  if (!sys::fs::is_directory(Wrappers))
    return flagError(formatv(
        "clang resource directory '{0}' has no include/cuda_wrappers; install "
        "libclang-common-22-dev or pass --resource-dir=<dir of clang 22>",
        Dir));
  return Dir;
}

} // namespace orrery
