//===- LibraryKernels.cpp - thrust/CUB kernels by a library model ---------===//

#include "LibraryKernels.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace orrery::sim {
namespace {

/// One CUB kernel family: how to find num_items and the element type among
/// its parameters, and how many elements it reads and writes per item
/// (CUB's kernel signatures, cub/device/dispatch/kernels/*.cuh).
struct Family {
  const char *Marker;    ///< in the demangled stub name
  const char *Algorithm; ///< what thrust calls it
  int CountArg;          ///< num_items; -1: the last parameter
  int ElemArg;           ///< a parameter of the element type
  double Reads, Writes;  ///< elements per item
  bool Combines;         ///< one add per item (reductions and scans)
};

constexpr Family Families[] = {
    {"::DeviceReduceKernel<", "thrust::reduce", 2, 1, 1, 0, true},
    {"::DeviceReduceSingleTileKernel<", "thrust::reduce", 2, 1, 1, 0, true},
    {"::DeviceScanKernel<", "thrust::inclusive_scan or exclusive_scan", -1, 0,
     1, 1, true},
    {"::DeviceRadixSortOnesweepKernel<", "thrust::sort", 8, 4, 1, 1, false},
    {"::DeviceRadixSortHistogramKernel<", "thrust::sort", 2, 1, 1, 0, false},
    {"::DeviceRadixSortSingleTileKernel<", "thrust::sort", 4, 0, 1, 1, false},
    {"::DeviceRadixSortUpsweepKernel<", "thrust::sort", 2, 0, 1, 0, false},
    {"::DeviceRadixSortDownsweepKernel<", "thrust::sort", 5, 0, 1, 1, false},
    {"::transform::transform_kernel<", "thrust::transform", 0, 3, 1, 1, false},
    {"::for_each::static_kernel<", "thrust::for_each", 0, 1, 1, 0, false},
    {"::for_each::dynamic_kernel<", "thrust::for_each", 0, 1, 1, 0, false},
};

/// thrust's functors run through cub's for_each: what each algorithm moves.
struct ForEachFunctor {
  const char *Marker;
  const char *Algorithm;
  double Reads, Writes;
};
constexpr ForEachFunctor Functors[] = {
    {"::__uninitialized_fill::", "thrust::uninitialized_fill", 0, 1},
    {"::__fill::", "thrust::fill", 0, 1},
    {"::__tabulate::", "thrust::tabulate (thrust::sequence)", 0, 1},
    {"::__transform::", "thrust::transform", 1, 1},
    {"::__uninitialized_copy::", "thrust::uninitialized_copy", 1, 1},
    {"::__copy::", "thrust::copy", 1, 1},
};

/// The top-level parameters of a demangled function name.
std::vector<std::string_view> parameters(std::string_view Name) {
  std::vector<std::string_view> Out;
  if (Name.empty() || Name.back() != ')')
    return Out;
  int Depth = 0;
  size_t Open = std::string_view::npos;
  for (size_t I = Name.size(); I-- > 0;) {
    char C = Name[I];
    if (C == ')' || C == '>' || C == ']')
      ++Depth;
    else if (C == '(' || C == '<' || C == '[')
      --Depth;
    if (Depth == 0 && C == '(') {
      Open = I;
      break;
    }
  }
  if (Open == std::string_view::npos)
    return Out;
  std::string_view List = Name.substr(Open + 1, Name.size() - Open - 2);
  size_t Start = 0;
  Depth = 0;
  for (size_t I = 0; I <= List.size(); ++I) {
    char C = I < List.size() ? List[I] : ',';
    if (C == '(' || C == '<' || C == '[')
      ++Depth;
    else if (C == ')' || C == '>' || C == ']')
      --Depth;
    else if (C == ',' && Depth == 0) {
      std::string_view P = List.substr(Start, I - Start);
      while (!P.empty() && P.front() == ' ')
        P.remove_prefix(1);
      if (!P.empty())
        Out.push_back(P);
      Start = I + 1;
    }
  }
  return Out;
}

std::string_view trim(std::string_view S) {
  while (!S.empty() && S.front() == ' ')
    S.remove_prefix(1);
  while (!S.empty() && S.back() == ' ')
    S.remove_suffix(1);
  return S;
}

/// Bytes of a scalar type named as the demangler writes it; 0 if unknown.
unsigned scalarBytes(std::string_view T) {
  static const std::pair<const char *, unsigned> Sizes[] = {
      {"char", 1},          {"signed char", 1},   {"unsigned char", 1},
      {"bool", 1},          {"short", 2},         {"unsigned short", 2},
      {"__half", 2},        {"__nv_bfloat16", 2}, {"int", 4},
      {"unsigned int", 4},  {"float", 4},         {"long", 8},
      {"unsigned long", 8}, {"long long", 8},     {"unsigned long long", 8},
      {"double", 8}};
  for (auto [Name, Bytes] : Sizes)
    if (T == Name)
      return Bytes;
  return 0;
}

/// The element type's bytes of a parameter: the T of device_ptr<T> inside
/// it, else of a pointer T* / T const*.
unsigned elementBytes(std::string_view P) {
  if (size_t D = P.find("device_ptr<"); D != std::string_view::npos) {
    std::string_view Rest = P.substr(D + std::strlen("device_ptr<"));
    return scalarBytes(trim(Rest.substr(0, Rest.find('>'))));
  }
  P = trim(P);
  if (P.empty() || P.back() != '*')
    return 0;
  P.remove_suffix(1);
  P = trim(P);
  if (P.size() > 6 && P.substr(P.size() - 6) == " const")
    P.remove_suffix(6);
  if (P.substr(0, 6) == "const ")
    P.remove_prefix(6);
  return scalarBytes(trim(P));
}

/// num_items, read through the launch's argument pointer as the type the
/// parameter has; negative when it is no integer type we know.
double itemCount(std::string_view Type, const void *Arg) {
  Type = trim(Type);
  auto Read = [Arg](auto V) {
    std::memcpy(&V, Arg, sizeof V);
    return static_cast<double>(V);
  };
  if (Type == "int")
    return Read(std::int32_t());
  if (Type == "unsigned int")
    return Read(std::uint32_t());
  if (Type == "long" || Type == "long long")
    return Read(std::int64_t());
  if (Type == "unsigned long" || Type == "unsigned long long")
    return Read(std::uint64_t());
  return -1;
}

} // namespace

orrery_kernel_counts emptyCounts() {
  orrery_kernel_counts C;
  std::memset(&C, 0, sizeof C);
#define ORRERY_KERNEL_COUNT(Name, Missing) C.Name = Missing;
#include "orrery/kernel_counts.def"
#undef ORRERY_KERNEL_COUNT
  return C;
}

std::optional<LibraryLaunch> libraryModel(std::string_view StubName,
                                          void **Args, orrery_dim3 Grid,
                                          orrery_dim3 Block) {
  // The stub is the kernel's name with a prefix: ns::__device_stub__Kernel.
  std::string Name(StubName);
  const std::string Prefix = "__device_stub__";
  if (size_t P = Name.find(Prefix); P != std::string::npos)
    Name.erase(P, Prefix.size());
  std::string_view Stub = Name;
  const Family *F = nullptr;
  for (const Family &Candidate : Families)
    if (Stub.find(Candidate.Marker) != std::string_view::npos)
      F = &Candidate;
  if (!F)
    return std::nullopt;
  LibraryLaunch L;
  std::string_view Kernel = F->Marker + 2; // past "::"
  Kernel.remove_suffix(1);                 // the '<'
  double Reads = F->Reads, Writes = F->Writes;
  L.Name = F->Algorithm;
  for (const ForEachFunctor &Fn : Functors)
    if (std::strstr(F->Marker, "for_each") &&
        Stub.find(Fn.Marker) != std::string_view::npos) {
      L.Name = Fn.Algorithm;
      Reads = Fn.Reads;
      Writes = Fn.Writes;
    }
  if (std::strstr(F->Marker, "transform_kernel")) {
    // One input per kernel_arg<...> parameter.
    Reads = 0;
    for (std::string_view P : parameters(Stub))
      Reads += P.find("kernel_arg<") != std::string_view::npos ? 1 : 0;
  }
  L.Name += " (cub " + std::string(Kernel) + ", library model)";
  std::vector<std::string_view> Ps = parameters(Stub);
  int CountArg = F->CountArg < 0 ? int(Ps.size()) - 1 : F->CountArg;
  if (!Args || CountArg < 0 || CountArg >= int(Ps.size()) ||
      F->ElemArg >= int(Ps.size()))
    return L;
  double N = itemCount(Ps[CountArg], Args[CountArg]);
  unsigned E = elementBytes(Ps[F->ElemArg]);
  if (N < 0 || E == 0)
    return L;
  // Every launched thread is active; the counts per thread are the
  // algorithm's totals shared among them, and the footprints the totals.
  double Threads =
      double(Grid.x) * Grid.y * Grid.z * Block.x * Block.y * Block.z;
  if (Threads <= 0)
    return L;
  orrery_kernel_counts C = emptyCounts();
  C.threads_launched = Threads;
  C.active_threads = Threads;
  C.load_footprint = N * Reads * E;
  C.store_footprint = N * Writes * E;
  C.load_bytes = C.load_footprint / Threads;
  C.store_bytes = C.store_footprint / Threads;
  if (F->Combines) {
    std::string_view T = Ps[F->ElemArg];
    double *Adds = T.find("double") != std::string_view::npos  ? &C.fp64_add
                   : T.find("float") != std::string_view::npos ? &C.fp32_add
                                                               : &C.int_ops;
    *Adds = N / Threads;
  }
  // A model of the library, not an analysis of its code.
  C.confidence = ORRERY_CONFIDENCE_DEFAULTED;
  L.Counts = C;
  return L;
}

} // namespace orrery::sim
