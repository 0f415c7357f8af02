//===- fabric_direct.cpp - writing into a peer's memory past the provider -===//
//
// libfabric's shm provider moves a large write without CQ data by one
// process_vm_writev from the initiator into the target (cross-memory
// attach), and around that copy takes the target region's lock, checks and
// takes a command slot, queues a command the target must process, signals
// the target and writes a completion (smr_generic_rma and smr_rma_fast,
// libfabric 1.17.0). While the target polls its completion queue, every
// poll writes that region's first cache line (the signal shares it with the
// lock and the command count), which the initiator needs before and after
// each copy. On an idle 2-core machine a RAMC put of 8 KiB then cost
// 0.3-0.7 us more than a raw fi_write loop's, half of it only while the
// target polled (measured with the target asleep for the window: the gap
// halved); the raw loop's target mostly waits on the lock instead.
//
// A delivered run of puts (notify_run.cpp) needs none of that per put: it
// is counted by one note, sent through the provider once the run's puts
// have landed. So where the provider is shm and remote addresses are
// virtual addresses, RAMC makes that system call itself for the puts of a
// delivered run (RAMC_DIRECT_WRITES=0: not). It falls back to the provider
// where the kernel refuses for good (EPERM: ptrace restrictions such as
// Yama's ptrace_scope; ENOSYS) and for an address it cannot reach (EFAULT
// before a byte moved: the provider then reports its own error), and
// reports a peer that has exited (ESRCH). As with shm's own copies, the
// write goes to whatever process has the PID: the caller looks at the peer
// first (peer_watch.cpp, which compares start times).
//
//===----------------------------------------------------------------------===//
#include "fabric.h"

#include <cerrno>
#include <cstring>
#include <sys/uio.h>

namespace ramc {

bool directWrites(const fi_info &Info) {
  return std::strcmp(Info.fabric_attr->prov_name, "shm") == 0 &&
         (Info.domain_attr->mr_mode & FI_MR_VIRT_ADDR);
}

long Fabric::writeDirect(const RmaOp &Op, uint32_t Pid) {
  if (!Direct)
    return kTransportUnsupported;
  iovec Local{const_cast<void *>(Op.Local), Op.Len};
  iovec Remote{reinterpret_cast<void *>(Op.RAddr), Op.Len};
  size_t Moved = 0;
  while (Moved < Op.Len) {
    ssize_t N =
        process_vm_writev(static_cast<pid_t>(Pid), &Local, 1, &Remote, 1, 0);
    if (N > 0) { // a partial write goes on where it stopped
      Moved += static_cast<size_t>(N);
      Local.iov_base = static_cast<uint8_t *>(Local.iov_base) + N;
      Local.iov_len -= static_cast<size_t>(N);
      Remote.iov_base = static_cast<uint8_t *>(Remote.iov_base) + N;
      Remote.iov_len -= static_cast<size_t>(N);
      continue;
    }
    int E = N < 0 ? errno : EIO;
    if (E == EINTR)
      continue;
    if (E == EPERM || E == ENOSYS) {
      Direct = false;
      return kTransportUnsupported;
    }
    if (E == EFAULT && Moved == 0)
      return kTransportUnsupported;
    return -E;
  }
  return 0;
}

} // namespace ramc
