/*===- nvToolsExt.h - The pre-CUDA-13 NVTX header ----------------*- C -*-===*
 *
 * CUDA 13 dropped NVTX 2 (nvToolsExt.h and libnvToolsExt); NVTX 3 is the
 * same API, header-only, under nvtx3/. Programs written for the old path
 * build unchanged in skeleton and twin mode, and orrery-cxx drops
 * -lnvToolsExt from their link.
 *
 *===---------------------------------------------------------------------===*/
#include <nvtx3/nvToolsExt.h>
