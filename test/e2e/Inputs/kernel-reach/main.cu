// Every way a kernel is launched reaches the same cost: each scenario times
// one launch of a kernel with CUDA events (simulated clocks) and prints
// "<name>_seconds <value>"; test/e2e/sim-kernel-reach.test compares each
// indirect launch with the direct launch of the same kernel.
#include <cuda.h>
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    exit(1);
  }
}

__global__ void axpy(double a, const double *x, double *y, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

template <class T> __global__ void scale(T *out, const T *in, T s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = s * in[i];
}

// Defined in other.cu, with a function that launches it directly there.
__global__ void triad_other(double *a, const double *b, const double *c,
                            double s, long n);
void launch_triad_other(double *a, const double *b, const double *c, double s,
                        long n, int grid, int block);
void launch_other_local(double *a, long n, int grid, int block,
                        bool through_pointer);
// In prebuilt/prebuilt.cu, built without instrumenting its kernel.
void launch_prebuilt(double *x, long n, int grid, int block);

// A launch written inside a macro body, the kernel a macro argument.
// Same name and signature as other.cu's static kernel, more bytes.
static __global__ void local_kernel(double *a, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n)
    for (int k = 0; k < 2; ++k)
      a[i] = a[i] * 2;
}

#define LAUNCH(kernel) kernel<<<grid, block>>>(a, x, y, n)

static cudaEvent_t start, stop;

static void begin(cudaStream_t s = 0) {
  check(cudaEventRecord(start, s), "cudaEventRecord");
}
static void end(const char *name, cudaStream_t s = 0) {
  check(cudaEventRecord(stop, s), "cudaEventRecord");
  check(cudaEventSynchronize(stop), "cudaEventSynchronize");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
  printf("%s_seconds %.9g\n", name, ms * 1e-3);
}

// A measurement helper that takes the kernel as a pointer, as benchmark
// suites write it.
template <class T>
static void timed(const char *name, void (*kernel)(T *, const T *, T, int),
                  T *out, const T *in, int n, int block) {
  begin();
  kernel<<<(n + block - 1) / block, block>>>(out, in, T(2), n);
  end(name);
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1 << 24;
  int block = 256, grid = (int)((n + block - 1) / block);
  double *x, *y, *z;
  check(cudaMalloc((void **)&x, n * sizeof(double)), "cudaMalloc");
  check(cudaMalloc((void **)&y, n * sizeof(double)), "cudaMalloc");
  check(cudaMalloc((void **)&z, n * sizeof(double)), "cudaMalloc");
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  double a = 3;

  begin();
  axpy<<<grid, block>>>(a, x, y, n);
  end("direct");

  void (*pointer)(double, const double *, double *, long) = axpy;
  begin();
  pointer<<<grid, block>>>(a, x, y, n);
  end("pointer");

  auto &reference = axpy;
  begin();
  reference<<<grid, block>>>(a, x, y, n);
  end("reference");

  begin();
  LAUNCH(axpy);
  end("macro");

  void *args[] = {&a, &x, &y, &n};
  begin();
  check(cudaLaunchKernel((const void *)axpy, dim3(grid), dim3(block), args, 0,
                         0),
        "cudaLaunchKernel");
  end("launch_kernel");

  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(block);
  begin();
  check(cudaLaunchKernelExC(&config, (const void *)axpy, args),
        "cudaLaunchKernelExC");
  end("launch_kernel_ex");

  begin();
  check(cudaLaunchKernelEx(&config, axpy, a, (const double *)x, y, n),
        "cudaLaunchKernelEx");
  end("launch_kernel_ex_template");

  begin();
  check(cudaLaunchCooperativeKernel((const void *)axpy, dim3(grid),
                                    dim3(block), args, 0, 0),
        "cudaLaunchCooperativeKernel");
  end("cooperative");

  cudaFunction_t function;
  check(cudaGetFuncBySymbol(&function, (const void *)axpy),
        "cudaGetFuncBySymbol");
  begin();
  if (cuLaunchKernel((CUfunction)function, grid, 1, 1, block, 1, 1, 0, 0,
                     args, 0) != CUDA_SUCCESS) {
    fprintf(stderr, "cuLaunchKernel failed\n");
    return 1;
  }
  end("driver");

  // Graphs: two launches captured from a stream (one through the pointer),
  // and an explicit kernel node. Each graph launch costs the host one graph
  // launch, not one launch per kernel.
  cudaStream_t s;
  check(cudaStreamCreate(&s), "cudaStreamCreate");
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  check(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal),
        "cudaStreamBeginCapture");
  axpy<<<grid, block, 0, s>>>(a, x, y, n);
  pointer<<<grid, block, 0, s>>>(a, x, y, n);
  check(cudaStreamEndCapture(s, &graph), "cudaStreamEndCapture");
  check(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
  for (int i = 0; i < 2; ++i) {
    begin(s);
    check(cudaGraphLaunch(exec, s), "cudaGraphLaunch");
    end(i ? "captured_graph_again" : "captured_graph", s);
  }
  check(cudaGraphExecDestroy(exec), "cudaGraphExecDestroy");
  check(cudaGraphDestroy(graph), "cudaGraphDestroy");

  cudaKernelNodeParams node = {};
  node.func = (void *)axpy;
  node.gridDim = dim3(grid);
  node.blockDim = dim3(block);
  node.kernelParams = args;
  cudaGraphNode_t handle;
  check(cudaGraphCreate(&graph, 0), "cudaGraphCreate");
  check(cudaGraphAddKernelNode(&handle, graph, 0, 0, &node),
        "cudaGraphAddKernelNode");
  check(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
  begin(s);
  check(cudaGraphLaunch(exec, s), "cudaGraphLaunch");
  end("explicit_graph", s);

  // A memset node against the same memset on the stream.
  begin(s);
  check(cudaMemsetAsync(y, 0, n * sizeof(double), s), "cudaMemsetAsync");
  end("memset_direct", s);
  cudaMemsetParams set = {};
  set.dst = y;
  set.elementSize = 1;
  set.width = n * sizeof(double);
  set.height = 1;
  check(cudaGraphCreate(&graph, 0), "cudaGraphCreate");
  check(cudaGraphAddMemsetNode(&handle, graph, 0, 0, &set),
        "cudaGraphAddMemsetNode");
  check(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
  begin(s);
  check(cudaGraphLaunch(exec, s), "cudaGraphLaunch");
  end("memset_graph", s);

  // A template kernel: direct, then through a measurement helper.
  float *fx = (float *)x, *fy = (float *)y;
  int fn = (int)n;
  begin();
  scale<float><<<(fn + block - 1) / block, block>>>(fy, fx, 2.0f, fn);
  end("template_direct");
  timed<float>("template_pointer", scale<float>, fy, fx, fn, block);
  timed<double>("template_double_pointer", scale<double>, y, x, fn, block);
  begin();
  scale<double><<<(fn + block - 1) / block, block>>>(y, x, 2.0, fn);
  end("template_double_direct");

  // Static kernels of one name in two files, each through a pointer.
  void (*local)(double *, long) = local_kernel;
  begin();
  local_kernel<<<grid, block>>>(x, n / 2);
  end("local_main_direct");
  begin();
  local<<<grid, block>>>(x, n / 2);
  end("local_main_pointer");
  begin();
  launch_other_local(x, n / 2, grid, block, false);
  end("local_other_direct");
  begin();
  launch_other_local(x, n / 2, grid, block, true);
  end("local_other_pointer");

  // A kernel of a library built without the instrumenter.
  launch_prebuilt(x, n, grid, block);
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");

  // A kernel of another translation unit.
  begin();
  launch_triad_other(x, y, z, a, n, grid, block);
  end("other_direct");
  begin();
  triad_other<<<grid, block>>>(x, y, z, a, n);
  end("other_here");
  return 0;
}
