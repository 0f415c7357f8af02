/* What a rank learns of where it runs (sim-hostnames.test): its host name
 * and MPI's processor name, as codes that group ranks by node use them. */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, len = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char host[64], proc[MPI_MAX_PROCESSOR_NAME], tiny[3];
  gethostname(host, sizeof host);
  MPI_Get_processor_name(proc, &len);
  int rc = gethostname(tiny, sizeof tiny);
  printf("rank %d: host %s, processor %s (%d), short buffer %d\n", rank, host,
         proc, len, rc);
  MPI_Finalize();
  return 0;
}
