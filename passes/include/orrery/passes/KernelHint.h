//===- KernelHint.h - Static cost hint of one __global__ kernel -*- C++ -*-===//
//
// What one active thread of a kernel computes and moves, as symbolic
// expressions of the kernel's parameters and launch geometry (gridDim.*,
// blockDim.*, dynSmem), plus how many threads are active. Field names match
// the JSON report (docs/kernel-cost.md).
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_PASSES_KERNELHINT_H
#define ORRERY_PASSES_KERNELHINT_H

#include "orrery/models/KernelCounts.h"
#include "orrery/passes/SymExpr.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace orrery {

/// Floating-point operations of one precision, per active thread.
struct FpOps {
  SymExpr Add, Mul, Fma, Div, Sqrt, Transc;
  /// FLOPs with fma = 2 (div, sqrt, transcendentals counted separately).
  SymExpr flops() const { return Add + Mul + Fma * 2.0; }
};

enum class AccessPattern { Uniform, Coalesced, Strided, Indirect, Unknown };
const char *patternName(AccessPattern P);

/// One memory access in the source, per active thread.
struct Access {
  std::string Array;      ///< the pointer or array accessed, as written
  std::string Space;      ///< global | shared
  std::string Dir;        ///< load | store | atomic
  unsigned ElemBytes = 0; ///< 0 when it depends on a template parameter
  SymExpr ElemSize;       ///< bytes, possibly sizeof(T)
  SymExpr Count;          ///< executions per active thread
  AccessPattern Pattern = AccessPattern::Unknown;
  SymExpr Stride;      ///< threadIdx.x coefficient, elements (strided)
  std::string Address; ///< atomics: same_for_grid | same_per_block | distinct |
                       ///< indirect
  std::string Location; ///< file:line:col
  /// The kernel's pointer parameter the access reads or writes through
  /// (directly, or by a local pointer that starts in it and moves only
  /// within it); empty when the array is anything else.
  std::string Buffer;
  /// Neither the index nor the pointer depends on blockIdx: every block
  /// touches the same elements.
  bool BlockInvariant = false;
  /// A load whose address is what an earlier load returned (p = *p,
  /// j = next[j]): a chain of dependent loads, one latency each.
  bool Dependent = false;
  /// Executed by one lane of its warp (under `threadIdx.x == 0`): a uniform
  /// access requests the element's bytes, not a sector shared by 32 lanes.
  bool SingleLane = false;
  /// Bytes requested from memory per thread and execution: 32-byte sectors
  /// per warp instruction, divided by 32 lanes.
  SymExpr requestedBytes() const;
  /// Bytes the L1's data stage reads per thread and execution: 128-byte
  /// wavefronts per warp instruction (orrery_l1_wavefronts), divided by 32
  /// lanes; a one-lane access takes a wavefront alone.
  SymExpr l1Bytes() const;
};

struct LoopTrip {
  std::string Location;
  /// constant | symbolic | grid_stride | block_stride | row_length |
  /// data_dependent | override
  std::string Kind;
  SymExpr Trip; ///< per active thread and entry, the mean over the threads
  std::string Note;
  SymExpr MaxTrip; ///< the most any one thread runs (the critical path)
};

struct HintDiagnostic {
  std::string Level; ///< warning | remark
  std::string Code;  ///< UNKNOWN_TRIP, BRANCH_PROB, ...
  std::string Location;
  std::string Message;
};

/// What `ptxas -v` reports for one kernel compiled for one architecture.
struct DeviceResources {
  std::string Arch;       ///< sm_90
  unsigned Registers = 0; ///< per thread
  unsigned SpillStoreBytes = 0, SpillLoadBytes = 0, StackBytes = 0;
  unsigned StaticSharedBytes = 0; ///< per block
};

struct KernelHint {
  std::string Name;     ///< as written in the source
  std::string Location; ///< file:line:col of the definition
  std::string Symbol;   ///< mangled name, as ptxas reports it
  /// Mangled name of the host stub (what `(const void *)kernel` points to):
  /// the key the kernel registry resolves launches by.
  std::string Stub;
  /// C++ naming the stub's address from the end of the translation unit
  /// (`(const void *)&ns::k`), where one can: empty otherwise.
  std::string AddressExpr;
  /// Per parameter, the C type its value is read as from a launch's argument
  /// array (an arithmetic type), or empty when it is not a scalar.
  std::vector<std::string> ParamTypes;
  /// Bit i set: parameter i (of the first 64) is a pointer.
  std::uint64_t PointerParams = 0;
  /// The pointer parameters, "INDEX:NAME:TYPE" separated by spaces (TYPE:
  /// the element type as the runtime names it, f64, i32, bytes, ...).
  std::string Pointees;
  std::vector<std::string> Params;
  FpOps Fp32, Fp64;
  SymExpr IntOps;
  std::vector<Access> Accesses;
  SymExpr SharedStaticBytes;
  bool DynamicShared = false;
  unsigned BankConflictWay = 1;
  SymExpr SyncThreads;
  /// Bytes this thread's device-initiated NVSHMEM calls move between GPUs.
  SymExpr RemoteBytes;
  SymExpr ActiveThreads;
  std::string ActiveNote; ///< which guards set ActiveThreads
  std::vector<LoopTrip> Loops;
  std::vector<HintDiagnostic> Diagnostics;
  models::Confidence Confidence = models::Confidence::Exact;
  /// Footprint bytes (distinct bytes touched) per array and direction
  /// ("a (load)"), where derivable.
  std::vector<std::pair<std::string, SymExpr>> Footprint;
  /// The maximum block size of __launch_bounds__; 0 where not given.
  unsigned LaunchBoundsMaxThreads = 0;
  /// Bytes of loads a thread issues before waiting, from `#pragma unroll k`
  /// (k x one trip's loads; 0 when no loop says).
  double BytesInFlight = 0;
  /// Distinct bytes one block loads, per loaded array with a footprint.
  std::vector<std::pair<std::string, SymExpr>> BlockFootprint;
  bool Overridden = false; ///< counts come from a side file
  double MeasuredMicros = -1;
  std::optional<DeviceResources> Resources; ///< from ptxas, for --report
};

} // namespace orrery

#endif
