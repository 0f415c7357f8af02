//===- OrreryConfig.cpp - Print flags for building against liborrery -----===//
//
// In the manner of llvm-config:
//   orrery-config --cflags            flags to compile instrumented code
//   orrery-config --libs              flags to link it (native backend)
//   orrery-config --ramc --cflags --libs   the same for RAMC programs
// Several queries print on one line, in the order given.
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#ifndef ORRERY_CONFIG_INCLUDEDIR
#error "the build must define the ORRERY_CONFIG_* paths"
#endif

static void usage(FILE *To) {
  std::fputs(
      "usage: orrery-config [--ramc] <query>...\n"
      "queries:\n"
      "  --version     Orrery version\n"
      "  --includedir  directory holding orrery/hooks.h (or ramc.h with "
      "--ramc)\n"
      "  --libdir      directory holding liborrery-native (and libramc)\n"
      "  --cflags      compiler flags for instrumented code (or RAMC "
      "programs)\n"
      "  --libs        linker flags for the native backend (or RAMC)\n"
      "  --hook-abi    version of the hook ABI this build implements\n",
      To);
}

int main(int argc, char **argv) {
  bool Ramc = false;
  std::vector<const char *> Queries;
  for (int I = 1; I < argc; ++I) {
    if (!std::strcmp(argv[I], "--ramc"))
      Ramc = true;
    else if (!std::strcmp(argv[I], "--help") || !std::strcmp(argv[I], "-h")) {
      usage(stdout);
      return 0;
    } else
      Queries.push_back(argv[I]);
  }
  if (Queries.empty()) {
    usage(stderr);
    return 1;
  }
  if (Ramc && !ORRERY_CONFIG_HAVE_RAMC) {
    std::fputs("orrery-config: error: this build has no RAMC library "
               "(libfabric-dev was missing at configure time)\n",
               stderr);
    return 1;
  }
  std::string Out;
  for (const char *Q : Queries) {
    std::string V;
    if (!std::strcmp(Q, "--version"))
      V = ORRERY_CONFIG_VERSION;
    else if (!std::strcmp(Q, "--hook-abi"))
      V = "1";
    else if (!std::strcmp(Q, "--includedir"))
      V = Ramc ? ORRERY_CONFIG_RAMC_INCLUDEDIR : ORRERY_CONFIG_INCLUDEDIR;
    else if (!std::strcmp(Q, "--libdir"))
      V = ORRERY_CONFIG_LIBDIR;
    else if (!std::strcmp(Q, "--cflags"))
      V = std::string("-I") +
          (Ramc ? ORRERY_CONFIG_RAMC_INCLUDEDIR : ORRERY_CONFIG_INCLUDEDIR);
    else if (!std::strcmp(Q, "--libs"))
      V = std::string("-L") + ORRERY_CONFIG_LIBDIR + " -Wl,-rpath," +
          ORRERY_CONFIG_LIBDIR +
          (Ramc ? " -lramc " ORRERY_CONFIG_RAMC_DEPLIBS : " -lorrery-native");
    else {
      std::fprintf(stderr, "orrery-config: error: unknown query '%s'\n", Q);
      usage(stderr);
      return 1;
    }
    if (!Out.empty())
      Out += ' ';
    Out += V;
  }
  std::printf("%s\n", Out.c_str());
  return 0;
}
