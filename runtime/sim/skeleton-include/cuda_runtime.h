/* The toolkit's cuda_runtime.h, then the calls CUDA 12 and 13 removed
 * (orrery_removed_cuda_apis.h) and the host min/max nvcc's headers declare
 * (orrery_host_minmax.h), for simulated builds of codes written for nvcc. */
#include_next <cuda_runtime.h>
#include "orrery_removed_cuda_apis.h"
#include "orrery_host_minmax.h"
