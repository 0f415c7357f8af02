/* RAMC return codes and protocol constants shared by both API layers.
 *
 * The values are interface facts of RAMC 0.5 (see docs/ramc.md); programs
 * written against that API compile unchanged. */
#ifndef RAMC_RAMC_CODES_H
#define RAMC_RAMC_CODES_H

/* Return codes. */
#define RAMC_SUCCESS 0
#define RAMC_FAILURE 1 /* a test found the condition not (yet) met */
#define RAMC_ERROR 2   /* misuse or a transport error; see the error message */
#define RAMC_TIMEOUT 3 /* a wait passed its deadline */

/* Bulletin-board states. */
#define RAMC_BB_STATUS_INACTIVE 0
#define RAMC_BB_STATUS_ACTIVE 1

/* Window states (status value & 1) and initiator comparisons. */
#define RAMC_TARGET_READ 0
#define RAMC_TARGET_WRITE 1
#define RAMC_TARGET_BEHIND 2
#define RAMC_TARGET_AHEAD 3

/* Reserved status values. */
#define RAMC_TARGET_STATUS_DESTROYED 0
#define RAMC_TARGET_STATUS_ABORT 1
#define RAMC_TARGET_STATUS_INITIALIZE 2

/* Notification modes (how a target learns that operations arrived). */
#define RAMC_NOTIFY_AUTO 0
#define RAMC_NOTIFY_MR_COUNTER 1
#define RAMC_NOTIFY_CQ_DATA 2

/* Bootstrap backends. */
#define RAMC_BOOTSTRAP_AUTO 0
#define RAMC_BOOTSTRAP_PMIX 1
#define RAMC_BOOTSTRAP_MPI 2
#define RAMC_BOOTSTRAP_SINGLE 3

/* Flags for the context API's data operations. */
#define RAMC_NONBLOCKING 1u

/* A timeout argument that means "use the context's default deadline". */
#define RAMC_TIMEOUT_DEFAULT (-1)
/* A timeout argument that means "wait forever" (discouraged). */
#define RAMC_TIMEOUT_INFINITE (-2)

#endif /* RAMC_RAMC_CODES_H */
