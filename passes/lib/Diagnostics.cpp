//===- Diagnostics.cpp - orrery-instrument's numbered diagnostics ---------===//

#include "Diagnostics.h"

#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace orrery {

static void report(DiagnosticsEngine &DE, DiagnosticsEngine::Level Level,
                   SourceLocation Loc, unsigned Code, llvm::StringRef Message) {
  unsigned ID = DE.getCustomDiagID(Level, "[orrery-%0] %1");
  std::string Tag =
      llvm::formatv("{0}{1:D3}", Level == DiagnosticsEngine::Error ? 'E' : 'W',
                    Code > 100 ? Code - 100 : Code)
          .str();
  DE.Report(Loc, ID) << Tag << Message;
}

void reportWarning(DiagnosticsEngine &DE, SourceLocation Loc, unsigned Code,
                   llvm::StringRef Message) {
  report(DE, DiagnosticsEngine::Warning, Loc, Code, Message);
}

void reportError(DiagnosticsEngine &DE, SourceLocation Loc, unsigned Code,
                 llvm::StringRef Message) {
  report(DE, DiagnosticsEngine::Error, Loc, Code, Message);
}

} // namespace orrery
