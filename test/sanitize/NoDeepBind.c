/*===- NoDeepBind.c - Preload shim for sanitizer test runs -----------------===
 *
 * SMPI (SimGrid's smpimain) opens each rank's copy of a program with
 * dlopen(..., RTLD_DEEPBIND), which AddressSanitizer refuses: a deep-bound
 * library would bypass its malloc interceptors. Preloaded ahead of the ASan
 * runtime in sanitizer test runs only (make check-sanitize), this dlopen drops
 * the flag. The copies still get private globals: they are opened
 * RTLD_LOCAL, and smpimain defines none of the program's symbols.
 *
 * Built without sanitizers: it must not depend on the runtime it precedes.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include <dlfcn.h>

void *dlopen(const char *File, int Mode) {
  static void *(*Next)(const char *, int);
  if (!Next)
    *(void **)&Next = dlsym(RTLD_NEXT, "dlopen");
  return Next(File, Mode & ~RTLD_DEEPBIND);
}
