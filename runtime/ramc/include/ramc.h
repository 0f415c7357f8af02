/* RAMC: Remote Access Memory Channels. Including this header gives the
 * RAMC 0.5-compatible API (ramc_api.h) and the context API (ramc/ramc_ctx.h).
 */
#ifndef RAMC_H
#define RAMC_H

#include "ramc/ramc_ctx.h"
#include "ramc_api.h"

#endif /* RAMC_H */
