//===- ramc_cpp_ring.cpp - the C++ context API across processes -----------===//
//
// ramc-cpp-ring [EPOCHS]: every rank exposes a window and writes into the
// next rank's window once per epoch, with relaxed synchronization, through
// the RAII C++ layer. Then a wait that cannot succeed must throw
// ramc::Timeout within its deadline, and after the Context is gone every
// libfabric object must be closed.
//
//===----------------------------------------------------------------------===//
#include "ramc/ramc.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace std::chrono_literals;

static int run(int Epochs) {
  ramc::Context Ctx;
  int Me = Ctx.rank(), N = Ctx.size();
  int Next = (Me + 1) % N, Prev = (Me + N - 1) % N;
  std::vector<long> Win(4, 0);
  ramc::Target T = Ctx.expose(ramc::Span<long>(Win), 77, 3);
  T.post();
  Ctx.activateBoard();
  ramc::Initiator To = Ctx.attach(Next, 77, 10s, 3);
  Ctx.waitAttaches(1, 10s);
  for (int E = 0; E < Epochs; ++E) {
    To.waitStatus(10s);
    long V[2] = {Me, E};
    To.put(ramc::Span<const long>(V, 2), 0, /*NonBlocking=*/true);
    To.addExpected(2);
    Ctx.waitPuts(10s);
    T.wait(1, 10s);
    T.addStatus(1); // closed
    if (Win[0] != Prev || Win[1] != E) {
      std::fprintf(stderr, "rank %d epoch %d: got (%ld, %ld)\n", Me, E, Win[0],
                   Win[1]);
      return 1;
    }
    if (T.test(1)) {
      std::fprintf(stderr, "rank %d: arrival in a closed window\n", Me);
      return 1;
    }
    T.addStatus(1); // open for the next epoch
  }
  auto Start = std::chrono::steady_clock::now();
  try {
    T.wait(1, 300ms);
    std::fprintf(stderr, "rank %d: a wait with no writer succeeded\n", Me);
    return 1;
  } catch (const ramc::Timeout &E) {
    auto Ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                  std::chrono::steady_clock::now() - Start)
                  .count();
    if (Me == 0)
      std::printf("ramc-cpp-ring: timeout after %s ms: %s\n",
                  Ms < 20000 ? "<20000" : ">=20000", E.what());
  }
  Ctx.barrier();
  if (Me == 0)
    std::printf("ramc-cpp-ring: %d ranks, %d epochs: PASS (%s)\n", N, Epochs,
                Ctx.provider().c_str());
  return 0;
}

int main(int argc, char **argv) {
  int Rc;
  try {
    Rc = run(argc > 1 ? std::atoi(argv[1]) : 50);
  } catch (const ramc::Error &E) {
    std::fprintf(stderr, "ramc-cpp-ring: %s\n", E.what());
    return 1;
  }
  long Live = ramc_debug_live_objects();
  if (Live != 0) {
    std::fprintf(stderr, "ramc-cpp-ring: %ld libfabric objects left\n", Live);
    return 1;
  }
  return Rc;
}
