# Runs every GoogleTest binary (*Tests) built into this directory.
import lit.formats

config.name = "Orrery-Unit"
config.test_format = lit.formats.GoogleTest(".", "Tests")
config.test_source_root = config.unit_exec_root
config.test_exec_root = config.unit_exec_root
