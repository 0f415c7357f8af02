//===- ApiTableEntries.h - Buffer slots of the API table rows ---*- C++ -*-===//
//
// The constructors the table files' rows are written with (bytes(), mpi(),
// match(), ...); included only where a .def file is expanded into ApiSpec rows.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_PASSES_APITABLEENTRIES_H
#define ORRERY_PASSES_APITABLEENTRIES_H

#include "orrery/passes/ApiTable.h"

namespace orrery {

constexpr BufSpec none() { return {}; }
constexpr BufSpec bytes(const char *Ptr, const char *Bytes) {
  return {BufForm::Bytes, Ptr, Bytes, ""};
}
constexpr BufSpec mpi(const char *Ptr, const char *Count, const char *Type) {
  return {BufForm::Mpi, Ptr, Count, Type};
}
constexpr BufSpec mpiv(const char *Ptr, const char *Counts, const char *Type) {
  return {BufForm::MpiV, Ptr, Counts, Type};
}
constexpr BufSpec handles(const char *Ptr, const char *Count) {
  return {BufForm::Handles, Ptr, Count, ""};
}
constexpr MatchSpec match(const char *SendTag = "", const char *Source = "",
                          const char *RecvTag = "", const char *Request = "") {
  return {SendTag, Source, RecvTag, Request};
}
/// A collective's: a nonblocking one's request (its last argument), so that
/// the runtime knows which wait or test completes it.
constexpr MatchSpec collectiveMatch(const char *Mode) {
  return match("", "", "", Mode[0] == 'N' ? "$L" : "");
}

} // namespace orrery

#endif
