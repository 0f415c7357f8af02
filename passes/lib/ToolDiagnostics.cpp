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
  startCommand();
  // The frontend's options (-fno-caret-diagnostics, colours) from here on.
  if (PP)
    Printer = std::make_unique<TextDiagnosticPrinter>(
        errs(), PP->getDiagnostics().getDiagnosticOptions());
  Printer->BeginSourceFile(LO, PP);
}

void ToolDiagnostics::EndSourceFile() {
  Printer->EndSourceFile();
  Printer = std::make_unique<TextDiagnosticPrinter>(errs(), DefaultOpts);
  // The frontend prints "N warnings generated" after this; the counts are
  // reset when the next command starts.
  CommandDone = true;
}

void ToolDiagnostics::startCommand() {
  if (!CommandDone)
    return;
  CommandDone = false;
  DiagnosticConsumer::clear();
}

void ToolDiagnostics::HandleDiagnostic(DiagnosticsEngine::Level Level,
                                       const Diagnostic &Info) {
  startCommand();
  // A note belongs to the diagnostic before it.
  if (Level == DiagnosticsEngine::Note) {
    if (SkipNotes)
      return;
  } else {
    SmallString<128> Key;
    Key += std::to_string(Level) + ":";
    if (Info.getLocation().isValid() && Info.hasSourceManager()) {
      PresumedLoc P =
          Info.getSourceManager().getPresumedLoc(Info.getLocation());
      if (P.isValid())
        Key += std::string(P.getFilename()) + ":" +
               std::to_string(P.getLine()) + ":" +
               std::to_string(P.getColumn()) + ":";
    }
    Info.FormatDiagnostic(Key);
    SkipNotes = !Printed.insert(std::string(Key)).second;
    if (SkipNotes)
      return;
  }
  if (Level >= DiagnosticsEngine::Error)
    ++Errors;
  DiagnosticConsumer::HandleDiagnostic(Level, Info);
  Printer->HandleDiagnostic(Level, Info);
}

void ToolDiagnostics::finish() { Printer->finish(); }

} // namespace orrery
