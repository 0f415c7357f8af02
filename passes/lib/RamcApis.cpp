//===- RamcApis.cpp - RAMC calls and their cost annotations ---------------===//
//
// Both API layers of runtime/ramc (docs/ramc.md): the RAMC 0.5-compatible
// calls and the context API. Slots: A = the local source of a put, B = the
// local destination of a get (or the memory a window exposes), Aux = the
// peer rank, Handle = the context (ctx API) or the window structure (0.5 API),
// Extra = the target or initiator handle (ctx API). Put and get sizes are the
// `len` arguments; the remote side is known to the runtime from the window.
//
//===----------------------------------------------------------------------===//

#include "ApiTableEntries.h"

namespace orrery {

static const SiteKind R = SiteKind::Ramc;

static const ApiSpec RamcTable[] = {
    // RAMC 0.5: environment.
    {"ramc_init", R, none(), none(), "", ""},
    {"ramc_finalize", R, none(), none(), "", ""},
    {"ramc_get_rank", R, none(), none(), "", ""},
    {"ramc_get_numranks", R, none(), none(), "", ""},
    {"ramc_barrier_linear", R, none(), none(), "", ""},
    {"ramc_barrier_binary", R, none(), none(), "", ""},
    {"ramc_set_timeout_ms", R, none(), none(), "", ""},
    {"ramc_last_error", R, none(), none(), "", ""},
    {"ramc_describe_transport", R, none(), none(), "", ""},
    // RAMC 0.5: target side.
    {"ramc_tgt_create_window", R, none(), bytes("$0", "$1"), "", "$4"},
    {"ramc_tgt_destroy_window", R, none(), none(), "", "$0"},
    {"ramc_tgt_post_window", R, none(), none(), "", "$0"},
    {"ramc_tgt_activate_bb", R, none(), none(), "", ""},
    {"ramc_tgt_deactivate_bb", R, none(), none(), "", ""},
    {"ramc_tgt_await_bb_reads", R, none(), none(), "", ""},
    {"ramc_tgt_test_bb_reads", R, none(), none(), "", ""},
    {"ramc_tgt_await_win_ops", R, none(), none(), "", "$0"},
    {"ramc_tgt_test_win_ops", R, none(), none(), "", "$0"},
    {"ramc_tgt_increment_win_status", R, none(), none(), "", "$0"},
    {"ramc_tgt_set_win_status", R, none(), none(), "", "$0"},
    // RAMC 0.5: initiator side.
    {"ramc_init_check_bb_status", R, none(), none(), "$0", ""},
    {"ramc_init_get_bb_status", R, none(), none(), "$0", ""},
    {"ramc_init_get_bb_posting", R, none(), none(), "$0", "$2"},
    {"ramc_init_increment_status", R, none(), none(), "", "$0"},
    {"ramc_init_set_status", R, none(), none(), "", "$0"},
    {"ramc_init_check_win_status", R, none(), none(), "", "$0"},
    {"ramc_init_get_win_status", R, none(), none(), "", "$0"},
    {"ramc_init_detach", R, none(), none(), "", "$0"},
    {"ramc_put", R, bytes("$0", "$1"), none(), "", "$2"},
    {"ramc_put_nb", R, bytes("$0", "$1"), none(), "", "$2"},
    {"ramc_get", R, none(), bytes("$0", "$1"), "", "$2"},
    {"ramc_get_nb", R, none(), bytes("$0", "$1"), "", "$2"},
    {"ramc_await_all_puts", R, none(), none(), "", ""},
    {"ramc_await_all_gets", R, none(), none(), "", ""},
    {"ramc_atomic_inc", R, none(), none(), "", "$0"},
    // Context API: contexts.
    {"ramc_ctx_options_init", R, none(), none(), "", ""},
    {"ramc_ctx_create", R, none(), none(), "", ""},
    {"ramc_ctx_destroy", R, none(), none(), "", "$0"},
    {"ramc_ctx_rank", R, none(), none(), "", "$0"},
    {"ramc_ctx_size", R, none(), none(), "", "$0"},
    {"ramc_ctx_error", R, none(), none(), "", "$0"},
    {"ramc_ctx_provider", R, none(), none(), "", "$0"},
    {"ramc_ctx_bootstrap_name", R, none(), none(), "", "$0"},
    {"ramc_ctx_notify_mode", R, none(), none(), "", "$0"},
    {"ramc_ctx_describe", R, none(), none(), "", "$0"},
    {"ramc_ctx_barrier", R, none(), none(), "", "$0"},
    {"ramc_ctx_progress", R, none(), none(), "", "$0"},
    {"ramc_ctx_set_default_timeout", R, none(), none(), "", "$0"},
    {"ramc_ctx_wait_puts", R, none(), none(), "", "$0"},
    {"ramc_ctx_wait_gets", R, none(), none(), "", "$0"},
    // Context API: targets and the bulletin board.
    {"ramc_target_create", R, none(), bytes("$1", "$2"), "", "$0"},
    {"ramc_target_destroy", R, none(), none(), "", "$0", "$1"},
    {"ramc_target_post", R, none(), none(), "", "$0", "$1"},
    {"ramc_target_unpost", R, none(), none(), "", "$0", "$1"},
    {"ramc_target_set_status", R, none(), none(), "", "$0", "$1"},
    {"ramc_target_add_status", R, none(), none(), "", "$0", "$1"},
    {"ramc_target_status", R, none(), none(), "", "$0", "$1"},
    {"ramc_target_test", R, none(), none(), "", "$0", "$1"},
    {"ramc_target_wait", R, none(), none(), "", "$0", "$1"},
    {"ramc_target_counts", R, none(), none(), "", "$0", "$1"},
    {"ramc_bb_activate", R, none(), none(), "", "$0"},
    {"ramc_bb_deactivate", R, none(), none(), "", "$0"},
    {"ramc_bb_test_attaches", R, none(), none(), "", "$0"},
    {"ramc_bb_wait_attaches", R, none(), none(), "", "$0"},
    {"ramc_bb_read", R, none(), none(), "$1", "$0"},
    {"ramc_bb_check", R, none(), none(), "$1", "$0"},
    // Context API: initiators.
    {"ramc_initiator_attach", R, none(), none(), "$1", "$0"},
    {"ramc_initiator_detach", R, none(), none(), "", "$0", "$1"},
    {"ramc_initiator_info", R, none(), none(), "", "$0", "$1"},
    {"ramc_initiator_expected", R, none(), none(), "", "$0", "$1"},
    {"ramc_initiator_set_expected", R, none(), none(), "", "$0", "$1"},
    {"ramc_initiator_add_expected", R, none(), none(), "", "$0", "$1"},
    {"ramc_initiator_read_status", R, none(), none(), "", "$0", "$1"},
    {"ramc_initiator_check", R, none(), none(), "", "$0", "$1"},
    {"ramc_initiator_wait_status", R, none(), none(), "", "$0", "$1"},
    {"ramc_initiator_put", R, bytes("$2", "$3"), none(), "", "$0", "$1"},
    {"ramc_initiator_get", R, none(), bytes("$2", "$3"), "", "$0", "$1"},
    {"ramc_initiator_atomic_inc", R, none(), none(), "", "$0", "$1"},
};

llvm::ArrayRef<ApiSpec> ramcApis() { return RamcTable; }

} // namespace orrery
