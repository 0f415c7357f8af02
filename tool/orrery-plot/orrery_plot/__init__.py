"""orrery-plot's modes (tool/orrery-plot/orrery-plot.py is the command)."""
