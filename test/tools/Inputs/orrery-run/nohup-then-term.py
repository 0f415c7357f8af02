"""Runs the command with SIGHUP ignored (as nohup does), sends it SIGHUP,
says whether it is still running 2 s later, then stops it with SIGTERM and
prints its exit status."""
import signal
import subprocess
import sys
import time

proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                        preexec_fn=lambda: (
                            signal.signal(signal.SIGHUP, signal.SIG_IGN),
                            signal.signal(signal.SIGTERM, signal.SIG_DFL)))
time.sleep(2)
proc.send_signal(signal.SIGHUP)
time.sleep(2)
print("alive after SIGHUP" if proc.poll() is None else
      "stopped by SIGHUP (exit status %d)" % proc.returncode)
proc.send_signal(signal.SIGTERM)
try:
    proc.wait(timeout=60)
except subprocess.TimeoutExpired:
    proc.kill()
    sys.exit("the command did not stop within 60 s of SIGTERM")
print("exit status", proc.returncode)
