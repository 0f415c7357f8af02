//===- SiteProfile.h - Per-site call counts and times -----------*- C++ -*-===//
#ifndef ORRERY_RUNTIME_NATIVE_SITEPROFILE_H
#define ORRERY_RUNTIME_NATIVE_SITEPROFILE_H

#include "orrery/hooks.h"

#include <map>
#include <mutex>
#include <string>

namespace orrery::native {

class SiteProfile {
public:
  static SiteProfile &instance();
  void record(const orrery_site *Site, double Seconds);
  /// Writes the profile to Path as JSON; returns false on I/O failure.
  bool write(const std::string &Path) const;
  ~SiteProfile();

private:
  struct Entry {
    unsigned long long Calls = 0;
    double Seconds = 0;
  };
  mutable std::mutex Lock;
  std::map<const orrery_site *, Entry> Sites;
};

} // namespace orrery::native

#endif
