//===- SiteProfile.cpp - Per-site call counts and times -------------------===//

#include "SiteProfile.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <unistd.h>

namespace orrery::native {

SiteProfile &SiteProfile::instance() {
  static SiteProfile P;
  return P;
}

void SiteProfile::record(const orrery_site *Site, double Seconds) {
  std::lock_guard<std::mutex> G(Lock);
  Entry &E = Sites[Site];
  ++E.Calls;
  E.Seconds += Seconds;
}

bool SiteProfile::write(const std::string &Path) const {
  nlohmann::json Records = nlohmann::json::array();
  {
    std::lock_guard<std::mutex> G(Lock);
    for (const auto &[Site, E] : Sites)
      Records.push_back({{"id", Site->id},
                         {"file", Site->file},
                         {"line", Site->line},
                         {"api", Site->api},
                         {"callee", Site->callee ? Site->callee : ""},
                         {"calls", E.Calls},
                         {"seconds", E.Seconds}});
  }
  nlohmann::json Doc = {{"mode", "native"}, {"sites", Records}};
  // Write next to the destination, then rename: never a partial profile.
  std::string Tmp = Path + ".tmp";
  {
    std::ofstream Out(Tmp);
    if (!Out)
      return false;
    Out << Doc.dump(2) << "\n";
    if (!Out)
      return false;
  }
  return std::rename(Tmp.c_str(), Path.c_str()) == 0;
}

SiteProfile::~SiteProfile() {
  const char *Env = std::getenv("ORRERY_PROFILE");
  if (!Env || !*Env)
    return;
  std::string Path = Env;
  size_t At = Path.find("%p");
  if (At != std::string::npos)
    Path.replace(At, 2, std::to_string(getpid()));
  if (!write(Path))
    std::fprintf(stderr, "orrery: cannot write profile %s (ORRERY_PROFILE)\n",
                 Path.c_str());
}

} // namespace orrery::native
