//===- Hooks.cpp - The hook ABI in skeleton mode --------------------------===//
//
// The original call always runs, against SMPI for MPI and against this
// library's CUDA runtime for CUDA, which charges the simulated time. The hooks
// add what only the call site knows: the kernel cost hint of a launch and the
// device legs of MPI calls on GPU buffers.
//
//===----------------------------------------------------------------------===//

#include "RankClock.h"
#include "cuda/CudaCommon.h"
#include "gpu/DeviceMemory.h"
#include "mpi/MpiCost.h"
#include "values/DeviceValues.h"

#include <smpi/smpi.h>
#include <xbt/config.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace orrery::sim;

static Rank &enter(const orrery_site *S) {
  if (S->abi_version != ORRERY_HOOK_ABI_VERSION) {
    std::fprintf(stderr,
                 "liborrery-sim: error: %s:%u was instrumented for hook ABI "
                 "version %u, this library implements version %d: "
                 "instrument it again with this Orrery's orrery-instrument\n",
                 S->file, S->line, S->abi_version, ORRERY_HOOK_ABI_VERSION);
    std::exit(2);
  }
  Rank &R = callingRank();
  // With orrery-run --host-compute SMPI times the host code since the last
  // MPI call and charges it when the next one starts. Charge it here, before
  // the site opens, so that it is host time before the call rather than
  // part of the call's network time. Before a rank's first hook SMPI's timer
  // has run since the rank started: that is SMPI loading its copy of the
  // program (dlopen privatization, about 40 ms of CPU time here), not the
  // program's work, so the first hook drops it (smpi_bench_begin below
  // restarts the timer) instead of charging it.
  static const bool HostCompute =
      simgrid::config::get_value<bool>("smpi/simulate-computation");
  // The host code SMPI charges here is the host_compute category (and a
  // span of the rank's host track).
  if (HostCompute && R.HostTimerStarted) {
    double Start = now();
    smpi_bench_end();
    Runtime::get().chargeSince(R, Category::HostCompute, Start,
                               /*Estimate=*/false);
  }
  R.HostTimerStarted = true;
  OpenSite O;
  O.Site = S;
  O.Begin = now();
  R.Open.push_back(std::move(O));
  if (HostCompute)
    smpi_bench_begin();
  return R;
}

/// Pops the innermost open site \p S (an end without a begin is ignored).
static void leave(const orrery_site *S) {
  Rank &R = Runtime::get().rank();
  for (auto It = R.Open.rbegin(); It != R.Open.rend(); ++It) {
    if (It->Site != S)
      continue;
    OpenSite O = std::move(*It);
    R.Open.erase(std::next(It).base());
    if (S->kind == ORRERY_KIND_MPI) {
      mpiEnd(R, O);
      mpiResultsCompleted(R);
    }
    SiteTotals *Row = R.siteRow(S);
    ++Row->Calls;
    Row->Seconds += now() - O.Begin;
    return;
  }
}

extern "C" {

void orrery_launch_hint(const orrery_site *S, orrery_kernel_counts C) {
  Rank &R = callingRank();
  R.Launch.Site = S;
  R.Launch.HasCounts = true;
  R.Launch.Counts = C;
}

double orrery_buffer_bytes(const void *P) {
  const Allocation *A = P ? DeviceMemory::get().find(P) : nullptr;
  if (!DeviceMemory::isDevice(A))
    return HUGE_VAL;
  return double(A->Base + A->Size - reinterpret_cast<std::uintptr_t>(P));
}

void orrery_read_hint(const orrery_site *S, const char *Type,
                      const char *Value) {
  Rank &R = callingRank();
  R.Read = {S, Type, Value};
}

void orrery_launch_value(const orrery_site *S, const char *Arg,
                         const char *Value) {
  Rank &R = callingRank();
  if (R.Launch.Site != S) {
    R.Launch = PendingLaunch();
    R.Launch.Site = S;
  }
  R.Launch.OutputArg = Arg;
  R.Launch.OutputValue = Value;
}

void orrery_cuda_begin(const orrery_site *S, orrery_buf, orrery_buf, long long,
                       const void *) {
  enter(S);
}

void orrery_launch_begin(const orrery_site *S, orrery_dim3, orrery_dim3,
                         unsigned long long, const void *) {
  Rank &R = enter(S);
  if (R.Launch.Site != S) {
    R.Launch = PendingLaunch();
    R.Launch.Site = S;
  }
}

void orrery_mpi_begin(const orrery_site *S, orrery_buf Send, orrery_buf Recv,
                      int Peer, intptr_t Comm, int SendTag, int Source,
                      int RecvTag, const void *Request) {
  Rank &R = enter(S);
  if (std::strncmp(S->api, "MPI_Init", 8) == 0)
    R.MpiInitCalled = true;
  else if (std::strcmp(S->api, "MPI_Finalize") == 0)
    R.MpiFinalizeCalled = true;
  mpiBegin(R, R.Open.back(), Send, Recv, Peer, Comm,
           MatchArgs{SendTag, Source, RecvTag, Request});
  bool Nonblocking = false;
  if (resultValuesGiven() && Recv.form == ORRERY_BUF_MPI &&
      resultCollective(S->api, Peer, Comm, Nonblocking) &&
      (!Nonblocking || Request))
    mpiResultBegin(R, S, Recv, Nonblocking ? Request : nullptr);
  // The call itself (SMPI's) happens at the rank's own time.
  rank_clock::catchUp();
}

// RAMC calls run against libramc-sim, the RAMC library's simulated
// transport, which charges their costs itself (docs/ramc.md).
void orrery_ramc_begin(const orrery_site *S, orrery_buf, orrery_buf, int,
                       const void *, unsigned long long) {
  enter(S);
  rank_clock::catchUp();
}

int orrery_end(const orrery_site *S, int Result) {
  leave(S);
  return Result;
}

const void *orrery_end_ptr(const orrery_site *S, const void *Result) {
  leave(S);
  return Result;
}

void orrery_end_void(const orrery_site *S) { leave(S); }

} // extern "C"
