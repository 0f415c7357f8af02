//===- Manifest.h - Machine-readable record of every site -------*- C++ -*-===//
#ifndef ORRERY_PASSES_MANIFEST_H
#define ORRERY_PASSES_MANIFEST_H

#include "orrery/passes/Site.h"

#include <string>
#include <vector>

namespace orrery {

/// The manifest as JSON text: {"version", "sites": [...], "summary": {...}}.
/// Field names are documented in docs/instrument.md.
std::string manifestJson(const std::vector<Site> &Sites);

} // namespace orrery

#endif
