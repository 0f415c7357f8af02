#!/bin/sh
# Stands in for orrery-instrument: never finishes, so that orrery-cxx can
# be stopped while its temporary directory exists.
exec sleep 600
