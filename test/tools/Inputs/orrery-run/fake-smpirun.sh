#!/bin/sh
# Stands in for smpirun in tests that need no SimGrid: prints the
# environment orrery-run set and its arguments, copies $FAKE_REPORT to
# $ORRERY_REPORT when given (through a new file renamed over it, as the
# runtime writes it), and exits with $FAKE_STATUS (default 0).
echo "fake-smpirun: $*"
for v in ORRERY_MACHINE ORRERY_NETWORK_FILE ORRERY_NETWORK_MODE \
         ORRERY_RANKS_PER_NODE ORRERY_REPORT ORRERY_PROGRAM ORRERY_TRACE \
         ORRERY_PROGRESS; do
  eval "val=\${$v-<unset>}"
  echo "fake-smpirun: $v=$val"
done
if [ -n "$FAKE_REPORT" ]; then
  cp "$FAKE_REPORT" "$ORRERY_REPORT.tmp.$$" && mv "$ORRERY_REPORT.tmp.$$" "$ORRERY_REPORT"
fi
exit "${FAKE_STATUS:-0}"
