"""Stops orrery-cxx while it works and prints what it left in TMPDIR.

usage: kill-driver.py TMPDIR pipe|SIGINT|SIGTERM ORRERY-CXX-ARGS...

pipe: orrery-cxx writes to a pipe whose reader is gone (as in
`orrery-cxx -v ... 2>&1 | head -1`) and dies of SIGPIPE. SIGINT, SIGTERM:
the signal is sent once orrery-cxx's temporary directory exists.
"""
import os
import signal
import subprocess
import sys
import time

tmp, how, args = sys.argv[1], sys.argv[2], sys.argv[3:]
env = dict(os.environ, TMPDIR=tmp)


def default_signals():
    # A shell running us in the background ignores SIGINT, and orrery-cxx
    # keeps an ignored signal ignored (as nohup wants): start it with the
    # defaults an interactive build has.
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE):
        signal.signal(sig, signal.SIG_DFL)

if how == "pipe":
    r, w = os.pipe()
    os.close(r)
    p = subprocess.Popen(args, stdout=w, stderr=w, env=env,
                         start_new_session=True, preexec_fn=default_signals)
    os.close(w)
else:
    p = subprocess.Popen(args, env=env, start_new_session=True,
                         preexec_fn=default_signals)
    # Wait (without a time limit of our own: lit's applies) for the
    # temporary directory, then stop the driver alone.
    while not os.listdir(tmp) and p.poll() is None:
        time.sleep(0.05)
    os.kill(p.pid, getattr(signal, how))
try:
    rc = p.wait(timeout=120)  # a driver that survives is a failure, not a hang
except subprocess.TimeoutExpired:
    os.killpg(p.pid, signal.SIGKILL)
    rc = p.wait()
    print("orrery-cxx survived the signal")
try:
    os.killpg(p.pid, signal.SIGKILL)  # the stand-in child, if any
except ProcessLookupError:
    pass
print("killed by", signal.Signals(-rc).name if rc < 0 else "nothing (exit %d)" % rc)
print("left in TMPDIR:", sorted(os.listdir(tmp)))
