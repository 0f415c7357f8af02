// Every modeled CUDA runtime call, every launch form and the MPI families,
// written against the real CUDA 13 and MPI headers.
#include <cuda_runtime.h>
#include <mpi.h>
#include <stdio.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess)                                                     \
      fprintf(stderr, "%s\n", cudaGetErrorString(e_));                         \
  } while (0)

__global__ void k1(float *x) {}
template <typename T, int N> __global__ void kt(T *x) {}
template <typename T> void launchT(T *x, cudaStream_t s) {
  kt<T, 2><<<1, 32, 0, s>>>(x);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int n = 1 << 20, rank, size, ndev, dev, lo, hi;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  float *d, *e, *h, *h2, *p, *m;
  size_t fr, tot, pitch = 4096;
  CHECK(cudaGetDeviceCount(&ndev));
  CHECK(cudaSetDevice(rank % (ndev ? ndev : 1)));
  CHECK(cudaGetDevice(&dev));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, dev));
  CHECK(cudaMalloc((void **)&d, n * sizeof(float)));
  CHECK(cudaMalloc(&e, n * sizeof(float)));
  CHECK(cudaMallocHost((void **)&h, n * sizeof(float)));
  CHECK(cudaMallocHost(&h2, n * sizeof(float), cudaHostAllocPortable));
  CHECK(cudaHostAlloc((void **)&p, n, cudaHostAllocDefault));
  CHECK(cudaMallocManaged(&m, n));
  CHECK(cudaHostRegister(h, n, cudaHostRegisterDefault));
  CHECK(cudaHostUnregister(h));
  CHECK(cudaMemGetInfo(&fr, &tot));
  cudaStream_t s[2], t;
  cudaEvent_t a, b;
  CHECK(cudaStreamCreate(&s[0]));
  CHECK(cudaStreamCreateWithFlags(&s[1], cudaStreamNonBlocking));
  CHECK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
  CHECK(cudaStreamCreateWithPriority(&t, cudaStreamNonBlocking, hi));
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreateWithFlags(&b, cudaEventDisableTiming));
  CHECK(cudaMemcpy(d, h, n, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(e, d, n, cudaMemcpyDeviceToDevice));
  CHECK(cudaMemcpy(h2, h, n, cudaMemcpyHostToHost));
  CHECK(cudaMemcpy(e, h, n, cudaMemcpyDefault));
  CHECK(cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s[0]));
  CHECK(cudaMemcpy2D(d, pitch, h, 1024, 1024, 16, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy2DAsync(h, 1024, d, pitch, 1024, 16, cudaMemcpyDeviceToHost,
                          s[1]));
  CHECK(cudaMemset(d, 0, n));
  CHECK(cudaMemsetAsync(d, 0, n, s[0]));
  cudaMemLocation loc = {};
  loc.type = cudaMemLocationTypeDevice;
  loc.id = dev;
  CHECK(cudaMemPrefetchAsync(m, n, loc, 0, s[0]));
  CHECK(cudaEventRecord(a, s[0]));
  CHECK(cudaStreamWaitEvent(s[1], a, 0));
  CHECK(cudaFuncSetCacheConfig(k1, cudaFuncCachePreferL1));
  CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
  dim3 grid(n / 256), block(256);
  cudaStream_t *ps = &s[1];
  k1<<<grid, block>>>(d);
  k1<<<dim3(4, 2), dim3(16, 16), 1024, s[0]>>>(d);
  k1<<<n / 128, 128, 0, *ps>>>(d);
  k1<<<grid, {32, 8, 1}, 0, s[1]>>>(d);
  kt<double, 4><<<grid, block, 0, t>>>((double *)e);
  launchT(d, s[0]);
  launchT((int *)e, s[1]);
  void *args[] = {&d};
  CHECK(cudaLaunchKernel((const void *)k1, grid, block, args, 0, s[0]));
  CHECK(cudaGetLastError());
  CHECK(cudaPeekAtLastError());
  CHECK(cudaEventRecord(b, s[1]));
  CHECK(cudaStreamQuery(s[1]));
  CHECK(cudaEventQuery(b));
  CHECK(cudaEventSynchronize(b));
  float ms;
  CHECK(cudaEventElapsedTime(&ms, a, b));
  CHECK(cudaStreamSynchronize(s[0]));
  CHECK(cudaDeviceSynchronize());

  MPI_Request r[2];
  int peer = (rank + 1) % size;
  MPI_Isend(d, n, MPI_FLOAT, peer, 0, MPI_COMM_WORLD, &r[0]);
  MPI_Irecv(e, n, MPI_FLOAT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &r[1]);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  MPI_Sendrecv(d, 16, MPI_FLOAT, peer, 1, e, 16, MPI_FLOAT, peer, 1,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Allreduce(MPI_IN_PLACE, d, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Bcast(d, n, MPI_FLOAT, 0, MPI_COMM_WORLD);
  MPI_Win win;
  MPI_Win_create(e, n * sizeof(float), sizeof(float), MPI_INFO_NULL,
                 MPI_COMM_WORLD, &win);
  MPI_Win_fence(0, win);
  MPI_Put(d, 4, MPI_FLOAT, peer, 0, 4, MPI_FLOAT, win);
  MPI_Win_fence(0, win);
  MPI_Win_free(&win);
  MPI_Barrier(MPI_COMM_WORLD);

  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  CHECK(cudaStreamDestroy(s[0]));
  CHECK(cudaStreamDestroy(s[1]));
  CHECK(cudaStreamDestroy(t));
  CHECK(cudaFreeHost(h));
  CHECK(cudaFreeHost(h2));
  CHECK(cudaFreeHost(p));
  CHECK(cudaFree(m));
  CHECK(cudaFree(e));
  CHECK(cudaFree(d));
  CHECK(cudaDeviceReset());
  MPI_Finalize();
  return 0;
}
