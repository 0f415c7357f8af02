/* Mock cuRAND header for tier-0 tests: the generators skeleton mode models
 * (apis/include/orrery/apis/MathLibs.def), CUDA 13 signatures. */
#ifndef ORRERY_MOCK_CURAND_H
#define ORRERY_MOCK_CURAND_H

#include <cuda_runtime.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { CURAND_STATUS_SUCCESS = 0 } curandStatus_t;
typedef enum { CURAND_RNG_PSEUDO_DEFAULT = 100 } curandRngType_t;
typedef struct curandGenerator_st *curandGenerator_t;

curandStatus_t curandCreateGenerator(curandGenerator_t *generator,
                                     curandRngType_t rng_type);
curandStatus_t curandGenerate(curandGenerator_t generator,
                              unsigned int *outputPtr, size_t num);
curandStatus_t curandGenerateUniform(curandGenerator_t generator,
                                     float *outputPtr, size_t num);
curandStatus_t curandGenerateUniformDouble(curandGenerator_t generator,
                                           double *outputPtr, size_t num);
curandStatus_t curandGenerateNormal(curandGenerator_t generator,
                                    float *outputPtr, size_t n, float mean,
                                    float stddev);
curandStatus_t curandGenerateNormalDouble(curandGenerator_t generator,
                                          double *outputPtr, size_t n,
                                          double mean, double stddev);
curandStatus_t curandGenerateLogNormal(curandGenerator_t generator,
                                       float *outputPtr, size_t n, float mean,
                                       float stddev);
curandStatus_t curandGenerateLogNormalDouble(curandGenerator_t generator,
                                             double *outputPtr, size_t n,
                                             double mean, double stddev);

#ifdef __cplusplus
}
#endif

#endif
