//===- CudaApis.cpp - CUDA runtime calls and their cost annotations -------===//
//
// Slots: A = buffer written (dst), B = buffer read (src), Aux = cudaMemcpyKind,
// flags or value, Handle = the stream the call is ordered on. For calls that
// create or use a handle (stream, event), A.Ptr is that handle or its address.
//
//===----------------------------------------------------------------------===//

#include "ApiTableEntries.h"

namespace orrery {

static const SiteKind C = SiteKind::Cuda;

static const ApiSpec CudaTable[] = {
    // Memory management.
    {"cudaMalloc", C, bytes("$0", "$1"), none(), "", ""},
    {"cudaMallocManaged", C, bytes("$0", "$1"), none(), "$2", ""},
    {"cudaMallocHost", C, bytes("$0", "$1"), none(), "$2", ""},
    {"cudaHostAlloc", C, bytes("$0", "$1"), none(), "$2", ""},
    {"cudaMallocAsync", C, bytes("$0", "$1"), none(), "", "$2"},
    {"cudaFree", C, bytes("$0", ""), none(), "", ""},
    {"cudaFreeHost", C, bytes("$0", ""), none(), "", ""},
    {"cudaFreeAsync", C, bytes("$0", ""), none(), "", "$1"},
    {"cudaHostRegister", C, bytes("$0", "$1"), none(), "$2", ""},
    {"cudaHostUnregister", C, bytes("$0", ""), none(), "", ""},
    {"cudaMemGetInfo", C, none(), none(), "", ""},
    // Copies and sets.
    {"cudaMemcpy", C, bytes("$0", "$2"), bytes("$1", "$2"), "$3", "", "", true},
    {"cudaMemcpyAsync", C, bytes("$0", "$2"), bytes("$1", "$2"), "$3", "$4", "",
     true},
    {"cudaMemcpy2D", C, bytes("$0", "$4 * $5"), bytes("$2", "$4 * $5"), "$6",
     "", "", true},
    {"cudaMemcpy2DAsync", C, bytes("$0", "$4 * $5"), bytes("$2", "$4 * $5"),
     "$6", "$7", "", true},
    {"cudaMemcpyPeer", C, bytes("$0", "$4"), bytes("$2", "$4"), "", ""},
    {"cudaMemcpyPeerAsync", C, bytes("$0", "$4"), bytes("$2", "$4"), "", "$5"},
    {"cudaMemcpyToSymbol", C, bytes("&($0)", "$2"), bytes("$1", "$2"), "$4",
     ""},
    {"cudaMemcpyFromSymbol", C, bytes("$0", "$2"), bytes("&($1)", "$2"), "$4",
     "", "", true},
    {"cudaMemset", C, bytes("$0", "$2"), none(), "$1", ""},
    {"cudaMemsetAsync", C, bytes("$0", "$2"), none(), "$1", "$3"},
    // CUDA 12 and 13 differ in the middle arguments; both end with the stream.
    {"cudaMemPrefetchAsync", C, bytes("$0", "$1"), none(), "", "$L"},
    // Streams.
    {"cudaStreamCreate", C, bytes("$0", ""), none(), "", ""},
    {"cudaStreamCreateWithFlags", C, bytes("$0", ""), none(), "$1", ""},
    {"cudaStreamCreateWithPriority", C, bytes("$0", ""), none(), "$1", ""},
    {"cudaDeviceGetStreamPriorityRange", C, none(), none(), "", ""},
    {"cudaStreamSynchronize", C, none(), none(), "", "$0"},
    {"cudaStreamWaitEvent", C, none(), bytes("$1", ""), "$2", "$0"},
    {"cudaStreamQuery", C, none(), none(), "", "$0"},
    {"cudaStreamDestroy", C, none(), none(), "", "$0"},
    // Events.
    {"cudaEventCreate", C, bytes("$0", ""), none(), "$1", ""},
    {"cudaEventCreateWithFlags", C, bytes("$0", ""), none(), "$1", ""},
    {"cudaEventRecord", C, bytes("$0", ""), none(), "", "$1"},
    {"cudaEventSynchronize", C, bytes("$0", ""), none(), "", ""},
    {"cudaEventQuery", C, bytes("$0", ""), none(), "", ""},
    {"cudaEventElapsedTime", C, bytes("$1", ""), bytes("$2", ""), "", ""},
    {"cudaEventDestroy", C, bytes("$0", ""), none(), "", ""},
    // Devices.
    {"cudaDeviceSynchronize", C, none(), none(), "", ""},
    {"cudaDeviceReset", C, none(), none(), "", ""},
    {"cudaGetDeviceCount", C, none(), none(), "", ""},
    {"cudaSetDevice", C, none(), none(), "$0", ""},
    {"cudaGetDevice", C, none(), none(), "", ""},
    {"cudaGetDeviceProperties", C, none(), none(), "$1", ""},
    {"cudaDeviceCanAccessPeer", C, none(), none(), "$1", ""},
    {"cudaDeviceEnablePeerAccess", C, none(), none(), "$0", ""},
    {"cudaFuncSetCacheConfig", C, none(), none(), "$1", ""},
    {"cudaDeviceSetCacheConfig", C, none(), none(), "$0", ""},
    // Errors.
    {"cudaGetLastError", C, none(), none(), "", ""},
    {"cudaPeekAtLastError", C, none(), none(), "", ""},
    {"cudaGetErrorString", C, none(), none(), "$0", ""},
    {"cudaGetErrorName", C, none(), none(), "$0", ""},
    // Launch through the runtime API: geometry from arguments 1, 2, 4, 5.
    {"cudaLaunchKernel", SiteKind::Launch, none(), none(), "", ""},
};

llvm::ArrayRef<ApiSpec> cudaApis() { return CudaTable; }

} // namespace orrery
