// One cuBLAS DOT whose result steers the program, and a branch for nvcc.
#include <cstdio>
#include <cublas_v2.h>

int main() {
  double *X;
  cudaMalloc(&X, sizeof(double) * 1000);
  cublasHandle_t H;
  cublasCreate(&H);
  double Dot = 0;
  cublasDdot(H, 1000, X, 1, X, 1, &Dot);
#ifdef __NVCC__
  printf("nvcc branch, dot %g\n", Dot);
#endif
  cublasDestroy(H);
  return 0;
}
