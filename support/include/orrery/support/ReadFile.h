//===- ReadFile.h - A whole file into memory --------------------*- C++ -*-===//
//
// The one way tools read a whole input file (reports, studies, compiler
// outputs): bytes as they are, with the system's reason when it fails.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_SUPPORT_READFILE_H
#define ORRERY_SUPPORT_READFILE_H

#include <string>

namespace orrery::support {

/// Reads all of \p Path into \p Out. On failure returns false and, if
/// \p Reason is given, sets it to the system's reason ("No such file or
/// directory"); \p Out is then unspecified.
bool readFile(const std::string &Path, std::string &Out,
              std::string *Reason = nullptr);

} // namespace orrery::support

#endif // ORRERY_SUPPORT_READFILE_H
