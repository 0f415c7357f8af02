//===- GeneratedText.h - Text from the input written into code --*- C++ -*-===//
//
// File names and source snippets end up in the instrumented file: in string
// literals (the site table, #line) and in comments (the banner, the kernel
// hints). A name holding a quote, a backslash, a newline or `*/` must not
// end the literal or the comment early, so everything passes through one of
// these two helpers.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_PASSES_GENERATEDTEXT_H
#define ORRERY_PASSES_GENERATEDTEXT_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace orrery {

/// S as a C and C++ string literal holding the same bytes: quotes,
/// backslashes and `?` (trigraphs in C) are escaped, control characters and
/// non-ASCII bytes are written as octal escapes.
std::string cStringLiteral(llvm::StringRef S);

/// S made safe inside a /* */ comment: `*/` and `/*` are broken by a space.
std::string commentText(llvm::StringRef S);

} // namespace orrery

#endif
