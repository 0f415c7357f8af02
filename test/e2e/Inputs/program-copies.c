/* Each rank, after MPI_Init, looks at glibc's list of loaded objects: how
 * many copies of this program it holds (dl_iterate_phdr), whether dladdr
 * finds the rank's own main, and whether loading and closing a library still
 * works. Under SMPI every rank runs its own copy (dlopen privatization). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static const char *Base;

static int countCopies(struct dl_phdr_info *Info, size_t Size, void *Count) {
  (void)Size;
  if (Info->dlpi_name && strstr(Info->dlpi_name, Base))
    ++*(int *)Count;
  return 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int Rank = 0, Size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  const char *Slash = strrchr(argv[0], '/');
  Base = Slash ? Slash + 1 : argv[0];
  int Copies = 0;
  dl_iterate_phdr(countCopies, &Copies);
  Dl_info Info;
  int Found = dladdr((void *)&main, &Info) && Info.dli_fname &&
              strstr(Info.dli_fname, Base) != NULL;
  void *Lib = dlopen("libm.so.6", RTLD_NOW | RTLD_LOCAL);
  int Closed = Lib && dlclose(Lib) == 0;
  MPI_Barrier(MPI_COMM_WORLD);
  printf("rank %d: %d copies of %d listed, own main %s, dlopen+dlclose %s\n",
         Rank, Copies, Size, Found ? "found" : "missing",
         Closed ? "ok" : "failed");
  MPI_Finalize();
  return 0;
}
