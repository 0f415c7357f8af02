/*===- mpi-ext.h - MPI extensions of a simulated CUDA-aware MPI --*- C -*-===*
 *
 * Skeleton programs compile against SMPI, which has no mpi-ext.h. Open MPI
 * programs include it to ask whether the MPI is CUDA-aware; the simulated
 * one is, so this says yes (orrery-cxx puts this directory on the include
 * path in skeleton and twin mode).
 *
 *===---------------------------------------------------------------------===*/
#ifndef ORRERY_SKELETON_MPI_EXT_H
#define ORRERY_SKELETON_MPI_EXT_H

#define MPIX_CUDA_AWARE_SUPPORT 1

#ifdef __cplusplus
extern "C" {
#endif
/* 1: device buffers may be passed to MPI calls (liborrery-sim). */
int MPIX_Query_cuda_support(void);
#ifdef __cplusplus
}
#endif

#endif /* ORRERY_SKELETON_MPI_EXT_H */
