/*===- SkeletonEntry.c - A skeleton program run by itself ------------------===*
 *
 * Skeleton programs are shared objects that smpirun loads once per rank.
 * Executed directly (./app), one without an entry point crashes with
 * SIGSEGV and no word. orrery-cxx links this object into every skeleton
 * program and makes orrery_skeleton_entry its ELF entry point, with the
 * system's dynamic loader as interpreter, so ./app says what it is and how
 * to run it. Loading by smpirun (dlopen) ignores both.
 *
 *===----------------------------------------------------------------------===*/
#include <stdint.h>
#include <unistd.h>

/* NVTX 3's static injection (nvtxDetail/nvtxInit.h): a strong definition
 * that overrides the weak one every TU including nvToolsExt.h carries, so
 * the program's NVTX ranges reach liborrery-sim's timeline (NvtxRanges.cpp).
 * This object is linked into every skeleton program already. */
int orrery_nvtx_inject(const void *(*GetExportTable)(uint32_t));
int (*InitializeInjectionNvtx2_fnptr)(const void *(*)(uint32_t)) =
    orrery_nvtx_inject;

#if defined(__x86_64__)
const char orrery_skeleton_interp[] __attribute__((section(".interp"))) =
    "/lib64/ld-linux-x86-64.so.2";
#elif defined(__aarch64__)
const char orrery_skeleton_interp[] __attribute__((section(".interp"))) =
    "/lib/ld-linux-aarch64.so.1";
#endif

static const char Message[] =
    "this is an Orrery skeleton program: a shared object that simulates the "
    "application under SimGrid; run it with\n"
    "  orrery-run -np N --machine FILE ./program [arguments]\n"
    "(or build it with orrery-cxx --orrery-mode=native to run it on real "
    "GPUs)\n";

/* The kernel enters here with the stack aligned to 16 bytes, not as after a
 * call; nothing of libc's start-up has run, so only system calls. */
__attribute__((noreturn, used, force_align_arg_pointer)) void
orrery_skeleton_entry(void) {
  ssize_t Ignored = write(2, Message, sizeof Message - 1);
  (void)Ignored;
  _exit(126);
}
