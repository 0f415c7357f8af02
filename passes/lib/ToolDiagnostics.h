//===- ToolDiagnostics.h - clang's diagnostics, once each -------*- C++ -*-===//
//
// A ClangTool reports through two diagnostics engines per file: the driver's
// and the frontend's. Both process the warning flags, so a command-line
// warning (`unknown warning option '-Wfoo'`) was printed twice; and errors
// in the driver's engine (`invalid value 'c++99' in '-std=c++99'`) do not
// fail the tool. A file listed twice in compile_commands.json (two targets)
// is parsed twice, and a header by every file including it, so its
// warnings came once per command. This consumer is shared by every engine
// of the run: it prints each diagnostic (same level, place and text) once,
// with its notes, and counts every error.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_PASSES_TOOLDIAGNOSTICS_H
#define ORRERY_PASSES_TOOLDIAGNOSTICS_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"

#include <memory>
#include <set>
#include <string>

namespace clang {
class TextDiagnosticPrinter;
}

namespace orrery {

class ToolDiagnostics : public clang::DiagnosticConsumer {
public:
  ToolDiagnostics();
  ~ToolDiagnostics() override;

  void BeginSourceFile(const clang::LangOptions &LO,
                       const clang::Preprocessor *PP) override;
  void EndSourceFile() override;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;
  void finish() override;

  /// Errors reported in the whole run, by clang's driver or frontend.
  unsigned errors() const { return Errors; }

private:
  /// Resets the per-command counts ("N warnings generated") once the
  /// previous command is done.
  void startCommand();

  clang::DiagnosticOptions DefaultOpts;
  /// Prints with the options of the file being parsed, or the defaults.
  std::unique_ptr<clang::TextDiagnosticPrinter> Printer;
  /// Diagnostics printed in this run: level, place and text.
  std::set<std::string> Printed;
  bool SkipNotes = false;
  bool CommandDone = false;
  unsigned Errors = 0;
};

} // namespace orrery

#endif
