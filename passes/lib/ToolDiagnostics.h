//===- ToolDiagnostics.h - clang's diagnostics, once each -------*- C++ -*-===//
//
// A ClangTool reports through two diagnostics engines per file: the driver's
// and the frontend's. Both process the warning flags, so a command-line
// warning (`unknown warning option '-Wfoo'`) was printed twice; and errors
// in the driver's engine (`invalid value 'c++99' in '-std=c++99'`) do not
// fail the tool. This consumer is shared by both engines: it prints each
// location-less diagnostic once per file and counts every error.
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

private:
  clang::DiagnosticOptions DefaultOpts;
  /// Prints with the options of the file being parsed, or the defaults.
  std::unique_ptr<clang::TextDiagnosticPrinter> Printer;
  /// Location-less diagnostics printed since the last file ended.
  std::set<std::string> Printed;
};

} // namespace orrery

#endif
