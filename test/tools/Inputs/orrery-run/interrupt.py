"""Runs the command, sends it SIGNAL (a name: SIGINT, SIGHUP, SIGQUIT) after
DELAY seconds, and prints its exit status and the last line of its
standard error.

  interrupt.py SIGNAL DELAY COMMAND...
"""
import signal
import subprocess
import sys
import time

sig = getattr(signal, sys.argv[1])
# lit's workers ignore SIGINT, and an ignored signal stays ignored (as under
# nohup): give the command the default disposition a terminal would.
proc = subprocess.Popen(sys.argv[3:], stdout=subprocess.DEVNULL,
                        stderr=subprocess.PIPE, text=True,
                        preexec_fn=lambda: signal.signal(sig, signal.SIG_DFL))
time.sleep(float(sys.argv[2]))
proc.send_signal(sig)
try:
    _, err = proc.communicate(timeout=60)
except subprocess.TimeoutExpired:
    proc.kill()
    sys.exit("the command did not stop within 60 s of the signal")
lines = [l for l in err.splitlines() if l.strip()]
print("exit status", proc.returncode)
print(lines[-1] if lines else "(no message)")
