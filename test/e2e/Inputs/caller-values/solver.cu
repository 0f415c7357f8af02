// A tolerance loop and a particle loop whose decisions are reached through
// helpers (reduce.cu), and a decomposition shuffled with unseeded drand48()
// on every rank, which MPI codes expect to agree.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <mpi.h>

double globalSum(double Local);
long long globalCount(long long Local);
double readBack(const double *Device);
void startCount(const long long *Local, long long *Sum, MPI_Request *Req);

int main(int Argc, char **Argv) {
  MPI_Init(&Argc, &Argv);
  int Rank = 0, Size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  double *Residual = nullptr;
  cudaMalloc(&Residual, sizeof(double));

  // Every rank draws the same numbers, as separate processes would.
  double Draw = drand48() + drand48() + rand() / double(RAND_MAX);
  double Lowest = 0, Highest = 0;
  MPI_Allreduce(&Draw, &Lowest, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&Draw, &Highest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (Rank == 0)
    std::printf("draws %s on every rank\n",
                Lowest == Highest ? "the same" : "DIFFER");

  int Iterations = 0;
  double Norm = 1;
  while (Norm > 1e-10 && Iterations < 1000) {
    ++Iterations;
    double Local = readBack(Residual);
    Norm = globalSum(Local); // the solver's norm
  }
  // A count every rank contributes 1 to: computed, since no value is set
  // at this line.
  long long Ranks = globalCount(1);
  int Passes = 0;
  long long Alive = 1;
  while (Alive != 0 && Passes < 1000) {
    ++Passes;
    Alive = globalCount(100); // particles still moving
  }
  // Particles gained and lost, reduced without blocking and tested once a
  // round, as Quicksilver's test for done: equal sums end it. A request not
  // started yet tests complete.
  long long GainLoss[2] = {100, 0}, Sums[2] = {0, 1};
  MPI_Request Req = MPI_REQUEST_NULL;
  int Rounds = 0;
  while (Rounds < 1000) {
    ++Rounds;
    int Done = 0;
    MPI_Test(&Req, &Done, MPI_STATUS_IGNORE);
    if (Done) {
      if (Sums[0] == Sums[1])
        break;
      startCount(GainLoss, Sums, &Req); // gains and losses
    }
  }
  if (Rank == 0)
    std::printf("iterations %d, ranks %lld, passes %d, rounds %d\n",
                Iterations, Ranks, Passes, Rounds);
  cudaFree(Residual);
  MPI_Finalize();
  return 0;
}
