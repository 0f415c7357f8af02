//===- HookEmitter.cpp - The text orrery-instrument generates -------------===//

#include "HookEmitter.h"
#include "GeneratedText.h"

#include "orrery/hooks.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#ifndef ORRERY_VERSION
#define ORRERY_VERSION "unknown"
#endif

using namespace llvm;

namespace orrery {

namespace {

const char *kindMacro(SiteKind K) {
  switch (K) {
  case SiteKind::Cuda:
    return "ORRERY_KIND_CUDA";
  case SiteKind::Launch:
    return "ORRERY_KIND_LAUNCH";
  case SiteKind::Mpi:
    return "ORRERY_KIND_MPI";
  case SiteKind::Ramc:
    return "ORRERY_KIND_RAMC";
  }
  return "0";
}

/// Triple-chevron geometry is the text as written; cudaLaunchKernel's comes
/// from the argument template, already parenthesized.
std::string operand(StringRef Text, bool Chevron) {
  return Chevron ? ("(" + Text + ")").str() : Text.str();
}

/// `orrery_launch_hint(&site, hint(geometry, arguments))`, or empty.
std::string hintCall(const Site &S) {
  if (S.HintFunction.empty())
    return "";
  std::string Args;
  for (const std::string &A : S.HintArgs)
    Args += ", (" + A + ")";
  return formatv("orrery_launch_hint(&{0}, {1}(orrery_dim3_of(dim3({2})), "
                 "orrery_dim3_of(dim3({3})), (unsigned long long)({4}){5}))",
                 siteVariable(S.Id), S.HintFunction, S.Launch.Grid,
                 S.Launch.Block, S.Launch.Shmem, Args)
      .str();
}

} // namespace

const char *beginHookName(SiteKind K) {
  switch (K) {
  case SiteKind::Cuda:
    return "orrery_cuda_begin";
  case SiteKind::Launch:
    return "orrery_launch_begin";
  case SiteKind::Mpi:
    return "orrery_mpi_begin";
  case SiteKind::Ramc:
    return "orrery_ramc_begin";
  }
  return "";
}

std::string siteVariable(unsigned Id) { return formatv("orrery_site_{0}", Id); }

std::string bufferAnnotation(BufForm Form, StringRef Ptr, StringRef Count,
                             StringRef Type) {
  switch (Form) {
  case BufForm::Bytes:
    return formatv("orrery_buf_bytes((const void *){0}, (long long){1})", Ptr,
                   Count);
  case BufForm::Mpi:
    return formatv("orrery_buf_mpi((const void *){0}, (long long){1}, "
                   "(orrery_intptr_t){2})",
                   Ptr, Count, Type);
  case BufForm::MpiV:
    return formatv("orrery_buf_mpiv((const void *){0}, (const int *){1}, "
                   "(orrery_intptr_t){2})",
                   Ptr, Count, Type);
  case BufForm::Handles:
    return formatv("orrery_buf_handles((const void *){0}, (long long){1})", Ptr,
                   Count);
  case BufForm::None:
    break;
  }
  return "orrery_buf_none()";
}

bool isBeginHook(StringRef Name) {
  for (SiteKind K :
       {SiteKind::Cuda, SiteKind::Launch, SiteKind::Mpi, SiteKind::Ramc})
    if (Name == beginHookName(K))
      return true;
  return false;
}

std::string beginCall(const Site &S) {
  std::string Out;
  raw_string_ostream OS(Out);
  OS << beginHookName(S.Kind) << "(&" << siteVariable(S.Id);
  if (S.Kind == SiteKind::Launch) {
    bool Chevron = S.Api == "<<<>>>";
    OS << ", orrery_dim3_of(dim3" << operand(S.Launch.Grid, Chevron)
       << "), orrery_dim3_of(dim3" << operand(S.Launch.Block, Chevron)
       << "), (unsigned long long)" << operand(S.Launch.Shmem, Chevron)
       << ", (const void *)" << operand(S.Launch.Stream, Chevron);
  }
  for (const std::string &A : S.HookArgs)
    OS << ", " << A;
  OS << ")";
  if (!S.ReadType.empty())
    return formatv("(orrery_read_hint(&{0}, \"{1}\", {2}), {3})",
                   siteVariable(S.Id), S.ReadType, S.ReadValue, Out);
  if (!S.OutputArg.empty())
    return formatv("(orrery_launch_value(&{0}, {1}, {2}), {3})",
                   siteVariable(S.Id), S.OutputArg, S.OutputValue, Out);
  return Out;
}

CallWrap wrapCall(const Site &S) {
  std::string Site = siteVariable(S.Id), Begin = beginCall(S);
  // In C the int and pointer results convert implicitly; in C++ a function
  // template restores the type (a cast would warn when the result is unused).
  std::string Open = S.CPlusPlus
                         ? formatv("orrery_result<{0}>((", S.ResultType).str()
                         : std::string("(");
  std::string Close = S.CPlusPlus ? ")))" : "))";
  switch (S.Result) {
  case ResultForm::Value:
    return {formatv("{0}{1}, orrery_end(&{2}, (int)(", Open, Begin, Site),
            ")" + Close};
  case ResultForm::Pointer:
    return {formatv("{0}{1}, orrery_end_ptr(&{2}, (const void *)(", Open, Begin,
                    Site),
            ")" + Close};
  case ResultForm::Void: {
    // A launch's cost hint is evaluated ahead of the begin hook.
    std::string Hint = hintCall(S);
    return {
        formatv("({0}{1}{2}, (void)(", Hint, Hint.empty() ? "" : ", ", Begin),
        formatv("), orrery_end_void(&{0}))", Site)};
  }
  }
  return {};
}

std::string fileHead(StringRef Display, ArrayRef<const Site *> Sites,
                     bool IsHeader) {
  std::string H;
  raw_string_ostream OS(H);
  OS << "/* Instrumented by orrery-instrument " ORRERY_VERSION " (hook ABI "
     << ORRERY_HOOK_ABI_VERSION << ") from " << commentText(Display) << ": "
     << Sites.size()
     << " site(s).\n   Each hook keeps the original call; regenerate from the "
        "original source\n   rather than editing this file. */\n";
  OS << "#include <orrery/hooks.h>\n";
  OS << "#if ORRERY_HOOK_ABI_VERSION != " << ORRERY_HOOK_ABI_VERSION
     << "\n"
        "#error \"orrery/hooks.h has another hook ABI version than this file "
        "was instrumented for; re-run orrery-instrument\"\n"
        "#endif\n";
  std::string Guard;
  if (IsHeader && !Sites.empty()) {
    Guard = formatv("ORRERY_SITES_{0}", Sites.front()->Id).str();
    OS << "#ifndef " << Guard << "\n#define " << Guard << "\n";
  }
  std::string File = cStringLiteral(Display);
  for (const Site *S : Sites)
    OS << "static const orrery_site " << siteVariable(S->Id) << " = {"
       << ORRERY_HOOK_ABI_VERSION << "u, " << S->Id << "u, " << File << ", "
       << S->Line << "u, " << S->Column << "u, " << kindMacro(S->Kind) << ", "
       << cStringLiteral(S->Api) << ", "
       << (S->Callee.empty() ? std::string("0") : cStringLiteral(S->Callee))
       << "};\n";
  if (!Guard.empty())
    OS << "#endif\n";
  OS << "#line 1 " << File << "\n";
  return H;
}

std::string hintFunctionHead(StringRef Function, ArrayRef<std::string> Params) {
  std::string Out = ("static inline orrery_kernel_counts " + Function +
                     "(orrery_dim3 gridDim, orrery_dim3 blockDim, unsigned "
                     "long long dynSmem")
                        .str();
  for (const std::string &P : Params)
    Out += ", " + P;
  return Out + ")";
}

} // namespace orrery
