//===- ToolDiagnostics.cpp - clang's diagnostics, once each ---------------===//

#include "ToolDiagnostics.h"

#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace llvm;

namespace orrery {

ToolDiagnostics::ToolDiagnostics()
    : Printer(std::make_unique<TextDiagnosticPrinter>(errs(), DefaultOpts)) {
  DefaultOpts.ShowColors = errs().has_colors();
}

ToolDiagnostics::~ToolDiagnostics() = default;

void ToolDiagnostics::BeginSourceFile(const LangOptions &LO,
                                      const Preprocessor *PP) {
  // The frontend's options (-fno-caret-diagnostics, colours) from here on.
  if (PP)
    Printer = std::make_unique<TextDiagnosticPrinter>(
        errs(), PP->getDiagnostics().getDiagnosticOptions());
  Printer->BeginSourceFile(LO, PP);
}

void ToolDiagnostics::EndSourceFile() {
  Printer->EndSourceFile();
  Printer = std::make_unique<TextDiagnosticPrinter>(errs(), DefaultOpts);
  Printed.clear();
}

void ToolDiagnostics::HandleDiagnostic(DiagnosticsEngine::Level Level,
                                       const Diagnostic &Info) {
  if (Info.getLocation().isInvalid()) {
    SmallString<128> Text;
    Info.FormatDiagnostic(Text);
    if (!Printed.insert(std::to_string(Level) + ":" + Text.str().str()).second)
      return;
  }
  DiagnosticConsumer::HandleDiagnostic(Level, Info); // counts errors
  Printer->HandleDiagnostic(Level, Info);
}

void ToolDiagnostics::finish() { Printer->finish(); }

} // namespace orrery
