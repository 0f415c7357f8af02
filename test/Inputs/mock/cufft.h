/* Mock cuFFT header for tier-0 tests: the transforms skeleton mode models
 * (apis/include/orrery/apis/MathLibs.def), CUDA 13 signatures. */
#ifndef ORRERY_MOCK_CUFFT_H
#define ORRERY_MOCK_CUFFT_H

#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { CUFFT_SUCCESS = 0 } cufftResult;
typedef enum {
  CUFFT_R2C = 0x2a,
  CUFFT_C2R = 0x2c,
  CUFFT_C2C = 0x29,
  CUFFT_D2Z = 0x6a,
  CUFFT_Z2D = 0x6c,
  CUFFT_Z2Z = 0x69
} cufftType;
typedef int cufftHandle;
typedef float cufftReal;
typedef double cufftDoubleReal;
typedef struct { float x, y; } cufftComplex;
typedef struct { double x, y; } cufftDoubleComplex;
#define CUFFT_FORWARD -1

cufftResult cufftPlan3d(cufftHandle *plan, int nx, int ny, int nz,
                        cufftType type);
cufftResult cufftExecC2C(cufftHandle plan, cufftComplex *idata,
                         cufftComplex *odata, int direction);
cufftResult cufftExecR2C(cufftHandle plan, cufftReal *idata,
                         cufftComplex *odata);
cufftResult cufftExecC2R(cufftHandle plan, cufftComplex *idata,
                         cufftReal *odata);
cufftResult cufftExecZ2Z(cufftHandle plan, cufftDoubleComplex *idata,
                         cufftDoubleComplex *odata, int direction);
cufftResult cufftExecD2Z(cufftHandle plan, cufftDoubleReal *idata,
                         cufftDoubleComplex *odata);
cufftResult cufftExecZ2D(cufftHandle plan, cufftDoubleComplex *idata,
                         cufftDoubleReal *odata);

#ifdef __cplusplus
}
#endif

#endif
