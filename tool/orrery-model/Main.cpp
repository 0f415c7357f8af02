//===- Main.cpp - orrery-model: machine models on the command line --------===//
//
//   orrery-model check FILE...          validate machine files
//   orrery-model show FILE              print a file resolved, with provenance
//   orrery-model transport|p2p|coll|kernel --machine FILE ...
//                                       evaluate the cost model
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include <cstring>
#include <iostream>

namespace {

const char *Usage =
    "usage: orrery-model <command> [options]\n"
    "\n"
    "commands:\n"
    "  check FILE... [--keys]        validate machine files (unknown keys,\n"
    "                                missing fields, units, implausible "
    "values);\n"
    "                                --keys: list every key the reader asked "
    "for\n"
    "  show FILE [--network FILE]    print the model resolved, with kind and\n"
    "                                source of every number and the share of\n"
    "                                estimates\n"
    "  transport --machine FILE --send N:G:SPACE --recv N:G:SPACE\n"
    "                                which device legs a message pays\n"
    "  p2p --machine FILE --send N:G:SPACE --recv N:G:SPACE --bytes N\n"
    "      [--net-time SECONDS]      T_p2p = t_leg(n_s) + T_net + t_leg(n_r)\n"
    "  coll --machine FILE --op NAME --space host|device --bytes N\n"
    "       [--recv-bytes N] [--span same-gpu|same-node|other-node]\n"
    "       [--net-time SECONDS]     T_coll or T_coll^op\n"
    "  kernel --machine FILE --blocks N --threads N [--shared BYTES]\n"
    "         [--registers N] [--flops-fp64 N] [--flops-fp32 N] ...\n"
    "         [--bytes-read N] [--bytes-written N] [--active-threads N]\n"
    "         [--model roofline|single-rate]\n"
    "                                kernel time from evaluated counts\n"
    "\n"
    "N:G:SPACE is node index, GPU index and host|device, e.g. 0:1:device.\n"
    "Machine files are described in docs/machine-file.md.\n";

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::cerr << Usage;
    return 2;
  }
  std::string Cmd = argv[1];
  if (Cmd == "-h" || Cmd == "--help" || Cmd == "help") {
    std::cout << Usage;
    return 0;
  }
  std::vector<std::string> Args(argv + 2, argv + argc);
  using namespace orrery::tool;
  if (Cmd == "check")
    return runCheck(Args);
  if (Cmd == "show")
    return runShow(Args);
  if (Cmd == "transport")
    return runTransport(Args);
  if (Cmd == "p2p")
    return runP2p(Args);
  if (Cmd == "coll")
    return runCollective(Args);
  if (Cmd == "kernel")
    return runKernel(Args);
  std::cerr << "orrery-model: unknown command '" << Cmd << "'\n\n" << Usage;
  return 2;
}
