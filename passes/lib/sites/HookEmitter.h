//===- HookEmitter.h - The text orrery-instrument generates ----*- C++ -*-===//
//
// Every piece of source text written into an instrumented file comes from
// here: the file head (banner, ABI check, site table), the hook calls around
// each rewritten call, the buffer annotations and launch cost hint calls,
// and the signature of a kernel's hint function. It is written for the hook
// ABI of abi/include/orrery/hooks.h, version ORRERY_HOOK_ABI_VERSION
// (docs/hook-abi.md). SiteCollector records sites as plain data; the text is
// produced once site ids are known.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_PASSES_HOOKEMITTER_H
#define ORRERY_PASSES_HOOKEMITTER_H

#include "orrery/passes/Site.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace orrery {

/// `orrery_site_<Id>`.
std::string siteVariable(unsigned Id);

/// A buffer annotation: `orrery_buf_bytes((const void *)P, (long long)N)`,
/// ...; Ptr, Count and Type are source text, already parenthesized.
std::string bufferAnnotation(BufForm Form, llvm::StringRef Ptr,
                             llvm::StringRef Count, llvm::StringRef Type);

/// `orrery_cuda_begin`, ...: the begin hook of a family.
const char *beginHookName(SiteKind Kind);

/// True for the name of a begin hook (a file calling one is instrumented
/// already).
bool isBeginHook(llvm::StringRef Name);

/// The begin hook of site \p S with its arguments.
std::string beginCall(const Site &S);

/// The text before and after the original call of an instrumented site.
struct CallWrap {
  std::string Prefix, Suffix;
};
CallWrap wrapCall(const Site &S);

/// The head of an instrumented file: banner, include, ABI check, the site
/// table (guarded in headers) and a `#line` restoring the numbering.
std::string fileHead(llvm::StringRef Display,
                     llvm::ArrayRef<const Site *> Sites, bool IsHeader);

/// The signature of a kernel's hint function (without body): the launch
/// geometry, then the kernel's own parameters.
std::string hintFunctionHead(llvm::StringRef Function,
                             llvm::ArrayRef<std::string> Params);

} // namespace orrery

#endif
