// A file using thrust and CUB from the CUDA 13 toolkit (include/cccl).
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <cub/cub.cuh>
__global__ void k(float *x) { x[threadIdx.x] = 1; }
int main() {
  thrust::device_vector<float> v(100, 1.0f);
  k<<<1, 100>>>(thrust::raw_pointer_cast(v.data()));
  float s = thrust::reduce(v.begin(), v.end());
  cudaDeviceSynchronize();
  return s > 0 ? 0 : 1;
}
