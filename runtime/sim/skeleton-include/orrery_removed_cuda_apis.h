/*===- orrery_removed_cuda_apis.h - CUDA calls CUDA 12 and 13 removed ---===*
 *
 * Published codes older than CUDA 12 call runtime functions the CUDA 13
 * headers no longer declare. They build with the toolkit their users have;
 * simulated here, each name stands for the call that replaced it, spelled
 * at the user's call site (so orrery-instrument hooks it like the modern
 * call, and the report names the modern call). Included by the
 * cuda_runtime.h and cuda_runtime_api.h of this directory after the
 * toolkit's own; docs/simulate.md lists them.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ORRERY_REMOVED_CUDA_APIS_H
#define ORRERY_REMOVED_CUDA_APIS_H

/* cudaThread* became cudaDevice* in CUDA 4.0 and left in CUDA 12 (those
 * whose cudaDevice* call liborrery-sim implements). */
#ifndef cudaThreadSynchronize
#define cudaThreadSynchronize cudaDeviceSynchronize
#endif
#ifndef cudaThreadExit
#define cudaThreadExit cudaDeviceReset
#endif
#ifndef cudaThreadSetCacheConfig
#define cudaThreadSetCacheConfig cudaDeviceSetCacheConfig
#endif

#endif
