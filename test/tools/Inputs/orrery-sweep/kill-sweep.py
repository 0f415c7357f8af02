"""Starts orrery-sweep (the arguments), waits until its hanging point wrote
its pid to $FAKE_HANG_PID, kills the sweep with SIGKILL and prints whether
that point's process outlived it by a few seconds."""
import os
import signal
import subprocess
import sys
import time

pid_file = os.environ["FAKE_HANG_PID"]
sweep = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
for _ in range(300):
    if os.path.exists(pid_file) and open(pid_file).read().strip():
        break
    time.sleep(0.05)
else:
    sys.exit("the point never started")
point = int(open(pid_file).read())
sweep.send_signal(signal.SIGKILL)
sweep.wait()
for _ in range(100):
    try:
        os.kill(point, 0)
    except ProcessLookupError:
        print("point stopped with the sweep")
        sys.exit(0)
    time.sleep(0.05)
os.kill(point, signal.SIGKILL)
print("point still running 5 s after the sweep died")
