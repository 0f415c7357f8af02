//===- NvccFlags.cpp - nvcc flags translated to clang's -------------------===//

#include "orrery/passes/NvccFlags.h"

#include <algorithm>
#include <initializer_list>
#include <string_view>

namespace orrery {

namespace {
enum class NvccAction { Keep, Drop, DropWithValue, Special, Refuse };

bool isOneOf(std::string_view Name, std::initializer_list<const char *> Set) {
  return std::any_of(Set.begin(), Set.end(),
                     [&](const char *S) { return Name == S; });
}

/// What to do with the flag called Name (the part before any '=').
NvccAction classifyNvccFlag(std::string_view Name) {
  // Steer nvcc's device code generation, its host compiler or diagnostics.
  if (isOneOf(Name, {"--expt-relaxed-constexpr",
                     "-expt-relaxed-constexpr",
                     "--expt-extended-lambda",
                     "-expt-extended-lambda",
                     "--extended-lambda",
                     "-extended-lambda",
                     "-lineinfo",
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
                     "-allow-unsupported-compiler",
                     "--allow-unsupported-compiler",
                     "--use-local-env",
                     "-link",
                     "--link"}))
    return NvccAction::Drop;
  if (isOneOf(Name, {"-Xptxas",
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
                     "--Werror",
                     "-split-compile",
                     "--split-compile",
                     "-Xarchive",
                     "--archive-options",
                     "-cudadevrt",
                     "--cudadevrt",
                     "--machine"}))
    return NvccAction::DropWithValue;
  if (isOneOf(Name, {"-gencode",
                     "--generate-code",
                     "-arch",
                     "--gpu-architecture",
                     "-rdc",
                     "--relocatable-device-code",
                     "-dc",
                     "-dlink",
                     "--device-link",
                     "-Xcompiler",
                     "--compiler-options",
                     "--linker-options",
                     "-x",
                     "--x",
                     "--default-stream",
                     "-default-stream",
                     "--std",
                     "-std",
                     "-Werror",
                     "--define-macro",
                     "--undefine-macro",
                     "--include-path",
                     "--system-include",
                     "--pre-include",
                     "--library",
                     "--library-path",
                     "--output-file",
                     "-cuda",
                     "--cuda",
                     "--compile",
                     "--preprocess",
                     "--shared",
                     "--debug",
                     "--optimize"}))
    return NvccAction::Special;
  // nvcc modes and outputs with no clang counterpart in a host build; "-lib"
  // and "-link" would otherwise read as -l<ib>/-l<ink>.
  if (isOneOf(Name,
              {"--options-file", "-optf", "-lib", "--lib", "-ptx", "--ptx",
               "-cubin", "--cubin", "-fatbin", "--fatbin", "-run", "--run",
               "-dryrun", "--dryrun"}))
    return NvccAction::Refuse;
  return NvccAction::Keep;
}

/// Splits on commas (and, for -Xcompiler values, white space); in
/// -Xcompiler values, not inside double or single quotes, which nvcc
/// removes: a Makefile's `-Xcompiler \"-Wl,-rpath,DIR\"` passes one
/// option, -Wl,-rpath,DIR.
std::vector<std::string> splitList(std::string_view V, bool Spaces) {
  std::vector<std::string> Out;
  std::string Cur;
  char Quote = 0;
  for (char C : V) {
    if (Quote) {
      if (C == Quote)
        Quote = 0;
      else
        Cur += C;
      continue;
    }
    if (Spaces && (C == '"' || C == '\'')) {
      Quote = C;
      continue;
    }
    if (C == ',' || (Spaces && (C == ' ' || C == '\t'))) {
      if (!Cur.empty())
        Out.push_back(Cur);
      Cur.clear();
    } else {
      Cur += C;
    }
  }
  if (!Cur.empty())
    Out.push_back(Cur);
  return Out;
}

bool consumeFront(std::string_view &S, std::string_view Prefix) {
  if (S.substr(0, Prefix.size()) != Prefix)
    return false;
  S.remove_prefix(Prefix.size());
  return true;
}

std::string_view trim(std::string_view S, std::string_view Chars) {
  size_t B = S.find_first_not_of(Chars);
  if (B == std::string_view::npos)
    return {};
  size_t E = S.find_last_not_of(Chars);
  return S.substr(B, E - B + 1);
}

/// Adds `--cuda-gpu-arch=sm_XX` for every real or virtual architecture named
/// in an -arch or -gencode value. A code list may be quoted, as in
/// `code="sm_70,compute_70"` (a Makefile's `code=\"sm_70,compute_70\"` reaches
/// the compiler with its quotes; nvcc strips them).
void addGpuArchs(std::string_view Value, std::vector<std::string> &Out) {
  for (const std::string &Part : splitList(Value, /*Spaces=*/false)) {
    std::string_view P = trim(Part, " []\"'");
    consumeFront(P, "arch=");
    consumeFront(P, "code=");
    P = trim(P, "[]\"'");
    if (!consumeFront(P, "sm_") && !consumeFront(P, "compute_"))
      continue; // native, all, all-major: any architecture parses the host
    std::string Arch = "--cuda-gpu-arch=sm_" + std::string(P);
    if (std::find(Out.begin(), Out.end(), Arch) == Out.end())
      Out.push_back(Arch);
  }
}

/// nvcc's -Werror takes a list of these; clang's -Werror takes none (and its
/// -Werror=<warning> names a clang warning).
bool isNvccWerrorList(std::string_view V) {
  std::vector<std::string> Kinds = splitList(V, /*Spaces=*/false);
  return !Kinds.empty() &&
         std::all_of(Kinds.begin(), Kinds.end(), [](const std::string &K) {
           return isOneOf(
               K, {"all-warnings", "cross-execution-space-call", "reorder",
                   "default-stream-launch", "missing-launch-bounds",
                   "ext-lambda-captures-this", "deprecated-declarations"});
         });
}
} // namespace

NvccTranslation translateNvccFlags(const std::vector<std::string> &Args) {
  NvccTranslation T;
  std::vector<std::string> &Out = T.Args;
  for (size_t I = 0; I < Args.size(); ++I) {
    const std::string &Arg = Args[I];
    // Split `--flag=value`; nvcc also accepts `-flag value`.
    std::string_view Name = Arg, Inline;
    bool HasInline = false;
    bool IsFlag = !Arg.empty() && Arg[0] == '-';
    if (IsFlag) {
      size_t Eq = Arg.find('=');
      if (Eq != std::string::npos) {
        Name = std::string_view(Arg).substr(0, Eq);
        Inline = std::string_view(Arg).substr(Eq + 1);
        HasInline = true;
      }
    }
    NvccAction Action = IsFlag ? classifyNvccFlag(Name) : NvccAction::Keep;
    if (Action == NvccAction::Keep) {
      Out.push_back(Arg); // a clang flag or an input
      continue;
    }
    if (Action == NvccAction::Refuse) {
      T.RefusedFlag = std::string(Name);
      T.Error = "nvcc flag '" + std::string(Name) +
                "' cannot be translated to clang; remove it and pass the "
                "equivalent clang flags instead";
      return T;
    }
    if (Action == NvccAction::Drop) {
      T.Dropped.push_back(Arg);
      continue;
    }
    // -Werror alone or -Werror=<clang warning> is clang's: keep it.
    if (Name == "-Werror") {
      std::string_view Next =
          I + 1 < Args.size() ? std::string_view(Args[I + 1]) : "";
      if (HasInline ? !isNvccWerrorList(Inline) : !isNvccWerrorList(Next)) {
        Out.push_back(Arg);
        continue;
      }
      T.Dropped.push_back(HasInline ? Arg : Arg + " " + Args[++I]);
      continue;
    }
    // Every remaining flag has a value: inline or the next argument.
    std::string Value;
    if (Name == "-dc" || Name == "--compile" || Name == "--preprocess" ||
        Name == "--shared" || Name == "-dlink" || Name == "--device-link" ||
        Name == "-cuda" || Name == "--cuda") {
      // No value.
    } else if (HasInline) {
      Value = std::string(Inline);
    } else if (Name == "--debug") {
      // nvcc's --debug takes no value.
    } else if (I + 1 < Args.size()) {
      Value = Args[++I];
    } else {
      T.Error = "nvcc flag '" + std::string(Name) + "' is missing its value";
      return T;
    }
    if (Action == NvccAction::DropWithValue) {
      T.Dropped.push_back(HasInline ? Arg : Arg + " " + Value);
    } else if (Name == "-dc") {
      Out.push_back("-fgpu-rdc");
      Out.push_back("-c");
    } else if (Name == "-dlink" || Name == "--device-link") {
      T.DeviceLink = true;
      T.Dropped.push_back(Arg);
    } else if (Name == "-cuda" || Name == "--cuda") {
      T.CudaFrontEnd = true;
    } else if (Name == "--compile") {
      Out.push_back("-c");
    } else if (Name == "--preprocess") {
      Out.push_back("-E");
    } else if (Name == "--shared") {
      Out.push_back("-shared");
    } else if (Name == "--debug") {
      Out.push_back("-g");
    } else if (Name == "--optimize") {
      Out.push_back("-O" + Value);
    } else if (Name == "-gencode" || Name == "--generate-code" ||
               Name == "-arch" || Name == "--gpu-architecture") {
      addGpuArchs(Value, Out);
    } else if (Name == "-rdc" || Name == "--relocatable-device-code") {
      if (Value == "true")
        Out.push_back("-fgpu-rdc");
      else if (Value != "false") {
        T.Error = "nvcc flag '" + std::string(Name) + "' has value '" + Value +
                  "'; expected true or false";
        return T;
      }
    } else if (Name == "-Xcompiler" || Name == "--compiler-options") {
      for (std::string &P : splitList(Value, /*Spaces=*/true))
        Out.push_back(std::move(P));
    } else if (Name == "--linker-options") {
      Out.push_back("-Wl," + Value);
    } else if (Name == "-x" || Name == "--x") {
      Out.push_back("-x");
      Out.push_back(Value == "cu" ? "cuda" : Value);
    } else if (Name == "--default-stream" || Name == "-default-stream") {
      if (Value == "per-thread" || Value == "legacy")
        Out.push_back("-fgpu-default-stream=" + Value);
      else if (Value != "null") {
        T.Error = "nvcc flag '" + std::string(Name) + "' has unknown value '" +
                  Value + "'; expected per-thread, legacy or null";
        return T;
      }
    } else if (Name == "--std" || Name == "-std") {
      Out.push_back("-std=" + Value);
    } else if (Name == "--define-macro") {
      Out.push_back("-D" + Value);
    } else if (Name == "--undefine-macro") {
      Out.push_back("-U" + Value);
    } else if (Name == "--include-path") {
      Out.push_back("-I" + Value);
    } else if (Name == "--system-include") {
      Out.push_back("-isystem");
      Out.push_back(Value);
    } else if (Name == "--pre-include") {
      Out.push_back("-include");
      Out.push_back(Value);
    } else if (Name == "--library") {
      Out.push_back("-l" + Value);
    } else if (Name == "--library-path") {
      Out.push_back("-L" + Value);
    } else if (Name == "--output-file") {
      Out.push_back("-o");
      Out.push_back(Value);
    }
  }
  return T;
}

} // namespace orrery
