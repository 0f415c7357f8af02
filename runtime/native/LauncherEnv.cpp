//===- LauncherEnv.cpp - The rank a launcher gave this process ------------===//

#include "LauncherEnv.h"

#include <cstdlib>
#include <initializer_list>
#include <unistd.h>

namespace orrery::native {

namespace {

/// The first of the launchers' variables \p Names that is set, else -1.
long envNumber(std::initializer_list<const char *> Names) {
  for (const char *N : Names)
    if (const char *V = std::getenv(N); V && *V)
      return std::strtol(V, nullptr, 10);
  return -1;
}

} // namespace

long worldRank() {
  return envNumber(
      {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"});
}

long worldSize() {
  return envNumber({"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"});
}

void replaceAll(std::string &S, const std::string &From,
                const std::string &To) {
  for (size_t At = S.find(From); At != std::string::npos;
       At = S.find(From, At + To.size()))
    S.replace(At, From.size(), To);
}

std::string outputPath(const char *Env, long Rank) {
  std::string Path = Env;
  bool PerRank = Path.find("%r") != std::string::npos ||
                 Path.find("%p") != std::string::npos;
  if (!PerRank && Rank > 0)
    return "";
  replaceAll(Path, "%r", std::to_string(Rank < 0 ? 0 : Rank));
  replaceAll(Path, "%p", std::to_string(getpid()));
  return Path;
}

} // namespace orrery::native
