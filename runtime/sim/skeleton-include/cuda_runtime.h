/* The toolkit's cuda_runtime.h, then the calls CUDA 12 and 13 removed
 * (orrery_removed_cuda_apis.h), for simulated builds of older codes. */
#include_next <cuda_runtime.h>
#include "orrery_removed_cuda_apis.h"
