//===- Routes.cpp - Print SimGrid routes of a platform --------------------===//
//
//   orrery-platform-routes PLATFORM.xml [SRC DST]...
//
// Loads the platform with SimGrid, prints the host count and, for each pair,
// "SRC -> DST: link link ... (latency S)". Used by the platform tests.
//
//===----------------------------------------------------------------------===//

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include <cstdio>
#include <iostream>
#include <vector>

int main(int argc, char **argv) {
  simgrid::s4u::Engine E(&argc, argv);
  if (argc < 2 || argc % 2 != 0) {
    std::cerr << "usage: orrery-platform-routes PLATFORM.xml [SRC DST]...\n";
    return 2;
  }
  E.load_platform(argv[1]);
  E.seal_platform();
  std::cout << "hosts: " << E.get_host_count()
            << "\nlinks: " << E.get_link_count() << std::endl;
  for (int I = 2; I + 1 < argc; I += 2) {
    simgrid::s4u::Host *Src = E.host_by_name_or_null(argv[I]);
    simgrid::s4u::Host *Dst = E.host_by_name_or_null(argv[I + 1]);
    if (!Src || !Dst) {
      std::cerr << "orrery-platform-routes: no host named '"
                << (Src ? argv[I + 1] : argv[I]) << "'\n";
      return 1;
    }
    std::vector<simgrid::s4u::Link *> Links;
    double Latency = 0;
    Src->route_to(Dst, Links, &Latency);
    std::cout << Src->get_name() << " -> " << Dst->get_name() << ":";
    for (const simgrid::s4u::Link *L : Links)
      std::cout << " " << L->get_name();
    char Buf[64];
    std::snprintf(Buf, sizeof(Buf), " (latency %.4g s)", Latency);
    std::cout << Buf << std::endl;
  }
  return 0;
}
