/*===- mpi.h - SMPI's mpi.h for programs built in strict C modes -*- C -*-===*
 *
 * SMPI's mpi.h declares smpi_usleep(useconds_t), but glibc declares
 * useconds_t only when a feature macro asks for POSIX/XSI (gcc's gnu99
 * default does; -std=c99 or -std=c11 does not), so a program built with
 * `-std=c99` that includes mpi.h before unistd.h would not compile, while it
 * does with a real MPI. This declares useconds_t the way glibc does (same
 * guard macro, so a later unistd.h does not redeclare it) and includes
 * SMPI's mpi.h (orrery-cxx puts this directory ahead of SMPI's).
 *
 *===---------------------------------------------------------------------===*/
#ifndef ORRERY_SKELETON_MPI_H
#define ORRERY_SKELETON_MPI_H

#pragma GCC system_header /* #include_next is a GNU extension */

#include <sys/types.h>
#if defined(__GLIBC__) && !defined(__useconds_t_defined)
typedef __useconds_t useconds_t;
#define __useconds_t_defined
#endif

#include_next <mpi.h>

#endif /* ORRERY_SKELETON_MPI_H */
