/* NCCL for the instrumenter's tests: the skeleton header Orrery's simulated
 * builds use (its calls are rows of apis/include/orrery/apis/Nccl.def). */
#include "../../../runtime/sim/skeleton-include/nccl.h"
