/* Communicators and groups whose members' actor ids spread over the run
 * (test/e2e/sim-group-maps.test): the node's communicator, a split by
 * colour with reversed keys, a group of every third rank in reverse, their
 * translations to MPI_COMM_WORLD, comparisons and a reduction over each.
 * Every rank prints one line; the lines must be the same with SimGrid's
 * own group maps and with liborrery-simgrid-fixes' compact ones. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  MPI_Comm node, split;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL,
                      &node);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 3, -rank, &split);
  int nodeRank, nodeSize, splitRank, splitSize;
  MPI_Comm_rank(node, &nodeRank);
  MPI_Comm_size(node, &nodeSize);
  MPI_Comm_rank(split, &splitRank);
  MPI_Comm_size(split, &splitSize);

  /* Sums of world ranks over each communicator. */
  int nodeSum, splitSum;
  MPI_Allreduce(&rank, &nodeSum, 1, MPI_INT, MPI_SUM, node);
  MPI_Allreduce(&rank, &splitSum, 1, MPI_INT, MPI_SUM, split);

  /* Every third world rank, last first; where this rank is in it, and
   * where the split's ranks are in the world. */
  MPI_Group world, thirds, splitGroup;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int n = (size + 2) / 3;
  int *members = malloc(sizeof(int) * (size_t)n);
  for (int i = 0; i < n; ++i)
    members[i] = 3 * (n - 1 - i);
  MPI_Group_incl(world, n, members, &thirds);
  int thirdsRank;
  MPI_Group_rank(thirds, &thirdsRank);
  MPI_Comm_group(split, &splitGroup);
  int *in = malloc(sizeof(int) * (size_t)splitSize);
  int *out = malloc(sizeof(int) * (size_t)splitSize);
  for (int i = 0; i < splitSize; ++i)
    in[i] = i;
  MPI_Group_translate_ranks(splitGroup, splitSize, in, world, out);
  long translated = 0;
  for (int i = 0; i < splitSize; ++i)
    translated = translated * 7 + out[i];
  int cmpSelf, cmpWorld;
  MPI_Group_compare(splitGroup, splitGroup, &cmpSelf);
  MPI_Group_compare(splitGroup, world, &cmpWorld);

  printf("rank %d: node %d/%d sum %d; split %d/%d sum %d world %ld; "
         "thirds %d; compare %s %s\n",
         rank, nodeRank, nodeSize, nodeSum, splitRank, splitSize, splitSum,
         translated, thirdsRank, cmpSelf == MPI_IDENT ? "ident" : "other",
         cmpWorld == MPI_UNEQUAL ? "unequal" : "other");
  MPI_Group_free(&thirds);
  MPI_Group_free(&splitGroup);
  MPI_Group_free(&world);
  MPI_Comm_free(&split);
  MPI_Comm_free(&node);
  free(members);
  free(in);
  free(out);
  MPI_Finalize();
  return 0;
}
