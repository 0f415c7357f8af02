/* The toolkit's cuda_runtime_api.h, then the calls CUDA 12 and 13 removed
 * (orrery_removed_cuda_apis.h), for simulated builds of older codes. */
#include_next <cuda_runtime_api.h>
#include "orrery_removed_cuda_apis.h"
