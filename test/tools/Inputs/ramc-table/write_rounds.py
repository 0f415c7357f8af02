"""Writes bench/ramc.sh's round files for ramc-table-goals.test.

  write_rounds.py DIR NAME ROUND...

ROUND K is "SIZE:BW:LAT,..." and becomes DIR/NAME.rK with one line
"size=SIZE bw_MBps=BW lat_us=LAT" per entry, as the bench programs print.
"""
import os
import sys

d, name = sys.argv[1], sys.argv[2]
os.makedirs(d, exist_ok=True)
for k, spec in enumerate(sys.argv[3:], 1):
    with open(os.path.join(d, "%s.r%d" % (name, k)), "w") as f:
        for row in spec.split(","):
            s, bw, lat = row.split(":")
            f.write("size=%s bw_MBps=%s lat_us=%s\n" % (s, bw, lat))
