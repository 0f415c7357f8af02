//===- Routes.cpp - Inspect a SimGrid platform: routes and transfers ------===//
//
//   orrery-platform-routes PLATFORM.xml [SRC DST]...
//   orrery-platform-routes PLATFORM.xml --transfer SRC DST BYTES [...]
//
// Loads the platform with SimGrid and prints the host and link counts. Pairs
// print "SRC -> DST: link link ... (latency S)". Transfers start together as
// SimGrid flows (Comm::sendto_async, as the runtime charges device legs and
// peer copies) and print when each completes, so tests can check bandwidth
// sharing on platform links. SimGrid options (--cfg=...) are accepted.
//
//===----------------------------------------------------------------------===//

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;

namespace {

struct Transfer {
  sg4::Host *Src = nullptr;
  sg4::Host *Dst = nullptr;
  double Bytes = 0;
};

sg4::Host *hostOrDie(const sg4::Engine &E, const char *Name) {
  sg4::Host *H = E.host_by_name_or_null(Name);
  if (!H) {
    std::cerr << "orrery-platform-routes: no host named '" << Name << "'\n";
    std::exit(1);
  }
  return H;
}

void printRoute(sg4::Host *Src, sg4::Host *Dst) {
  std::vector<sg4::Link *> Links;
  double Latency = 0;
  Src->route_to(Dst, Links, &Latency);
  std::cout << Src->get_name() << " -> " << Dst->get_name() << ":";
  for (const sg4::Link *L : Links)
    std::cout << " " << L->get_name();
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), " (latency %.4g s)", Latency);
  std::cout << Buf << std::endl;
}

void runTransfers(sg4::Engine &E, const std::vector<Transfer> &Ts) {
  sg4::Actor::create("orrery-transfers", Ts.front().Src, [&Ts]() {
    std::vector<sg4::CommPtr> Pending;
    std::vector<std::size_t> Index;
    for (std::size_t I = 0; I < Ts.size(); ++I) {
      Pending.push_back(sg4::Comm::sendto_async(
          Ts[I].Src, Ts[I].Dst, static_cast<std::uint64_t>(Ts[I].Bytes)));
      Index.push_back(I);
    }
    while (!Pending.empty()) {
      ssize_t Done = sg4::Comm::wait_any(Pending);
      const Transfer &T = Ts[Index[Done]];
      char Buf[64];
      std::snprintf(Buf, sizeof(Buf), "%.6g s", sg4::Engine::get_clock());
      std::cout << "transfer " << T.Src->get_name() << " -> "
                << T.Dst->get_name() << " " << T.Bytes << " B: done at " << Buf
                << std::endl;
      Pending.erase(Pending.begin() + Done);
      Index.erase(Index.begin() + Done);
    }
  });
  E.run();
}

} // namespace

int main(int argc, char **argv) {
  sg4::Engine E(&argc, argv);
  if (argc < 2) {
    std::cerr << "usage: orrery-platform-routes PLATFORM.xml [SRC DST]...\n"
                 "       orrery-platform-routes PLATFORM.xml --transfer SRC "
                 "DST BYTES [--transfer ...]\n";
    return 2;
  }
  E.load_platform(argv[1]);
  E.seal_platform();
  std::cout << "hosts: " << E.get_host_count()
            << "\nlinks: " << E.get_link_count() << std::endl;
  std::vector<Transfer> Transfers;
  for (int I = 2; I < argc;) {
    if (std::strcmp(argv[I], "--transfer") == 0) {
      if (I + 3 >= argc) {
        std::cerr << "orrery-platform-routes: --transfer needs SRC DST BYTES\n";
        return 2;
      }
      char *End = nullptr;
      double Bytes = std::strtod(argv[I + 3], &End);
      if (*End != '\0' || Bytes < 0) {
        std::cerr << "orrery-platform-routes: bad byte count '" << argv[I + 3]
                  << "'\n";
        return 2;
      }
      Transfers.push_back(
          {hostOrDie(E, argv[I + 1]), hostOrDie(E, argv[I + 2]), Bytes});
      I += 4;
      continue;
    }
    if (I + 1 >= argc) {
      std::cerr << "orrery-platform-routes: host '" << argv[I]
                << "' has no partner; give SRC DST pairs\n";
      return 2;
    }
    printRoute(hostOrDie(E, argv[I]), hostOrDie(E, argv[I + 1]));
    I += 2;
  }
  if (!Transfers.empty())
    runTransfers(E, Transfers);
  return 0;
}
