# lit configuration for Orrery's tool tests (instrument/, report/, e2e/, ramc/, ...).
import os
import shutil

import lit.formats
import lit.util

config.name = "Orrery"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cu", ".cpp", ".c", ".test", ".yaml"]
config.excludes = ["Inputs", "unit", "utils", "sanitize", "lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.orrery_obj_root, "test")

for feature in config.orrery_features:
    if feature:
        config.available_features.add(feature)
# Skeleton programs link against liborrery-sim once it has been built.
if os.path.exists(os.path.join(config.orrery_lib_dir, "liborrery-sim.so")):
    config.available_features.add("orrery-sim")

# clang's OpenMP runtime (Debian's libomp-22-dev): orrery-cxx maps -fopenmp
# to libgomp without it.
if os.path.exists(os.path.join(config.llvm_tools_dir, "..", "lib", "libomp.so")):
    config.available_features.add("libomp")

# The fuzzers are built when clang 22's libFuzzer runtime is installed.
if os.path.exists(os.path.join(config.orrery_bin_dir, "orrery-fuzz-machine-file")):
    config.available_features.add("libfuzzer")

# Tools under test come first on PATH, then LLVM's test utilities.
config.environment["PATH"] = os.pathsep.join(
    [config.orrery_bin_dir, config.llvm_tools_dir, config.environment.get("PATH", "")]
)
for var in ["HOME", "TMPDIR", "LANG", "LC_ALL", "USER"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]

# Sanitizer build (make check-sanitize): every process a test starts may load
# our sanitized libraries (smpimain dlopen()s skeleton programs; clang-built
# programs link liborrery-native), so the ASan runtime is preloaded into all of
# them. Leak checking is off: clang, SimGrid and Open MPI keep memory to exit.
# Fatal signals stay signals (handle_segv=0...): tests check how orrery-run
# reports a program killed by one.
if getattr(config, "sanitizer_preload", ""):
    config.available_features.add("sanitize")
    config.environment["LD_PRELOAD"] = config.sanitizer_preload
    config.environment["ASAN_OPTIONS"] = ":".join([
        "detect_leaks=0", "abort_on_error=0", "halt_on_error=1",
        "detect_odr_violation=0", "allocator_may_return_null=1",
        "verify_asan_link_order=0", "handle_segv=0", "handle_sigbus=0",
        "handle_sigfpe=0", "handle_abort=0"])
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"

inputs = os.path.join(config.test_source_root, "Inputs")
mock = os.path.join(inputs, "mock")
hooks_include = os.path.join(config.orrery_src_root, "abi", "include")
clang = os.path.join(config.llvm_tools_dir, "clang")
clangxx = os.path.join(config.llvm_tools_dir, "clang++")

# Tier 0: mock CUDA and MPI headers, no toolkit needed.
cuda_mock_flags = ("-x cuda --cuda-host-only -nocudainc -nocudalib "
                   "-Wno-unknown-cuda-version -isystem %s" % mock)
config.substitutions.append(("%mock-cuda-flags", cuda_mock_flags))
config.substitutions.append(("%mock-c-flags", "-x c -isystem %s" % mock))
config.substitutions.append(("%mock-cxx-flags", "-x c++ -isystem %s" % mock))
config.substitutions.append(("%mock", mock))
config.substitutions.append(("%inputs", inputs))
config.substitutions.append(("%hooks-include", hooks_include))
# Compiles instrumented output for syntax and semantics (each instrument test does this).
config.substitutions.append(("%clangxx", clangxx))
config.substitutions.append(("%clang", clang))
# Tier 1: the real CUDA 13 headers.
config.substitutions.append(
    ("%cuda-flags",
     "-x cuda --cuda-host-only --cuda-path=%s -Wno-unknown-cuda-version" % config.cuda_path))
config.substitutions.append(("%cuda-path", config.cuda_path))
# The toolkit's ptxas (feature "ptxas", found at configure time).
config.substitutions.append(("%ptxas", config.ptxas or "ptxas"))
# orrery-instrument --report caches ptxas outputs below $XDG_CACHE_HOME: keep
# the tests' copies out of the user's cache.
config.environment["XDG_CACHE_HOME"] = os.path.join(config.orrery_obj_root,
                                                   "test", "xdg-cache")
config.substitutions.append(("%smpi-include", "/usr/include/smpi"))
# A scratch directory outside the build tree (whose compile_commands.json a
# search upward from %t would find), removed when lit exits.
import atexit
import tempfile
_outside = tempfile.mkdtemp(prefix="orrery-lit-")
atexit.register(shutil.rmtree, _outside, True)
config.substitutions.append(("%outside-tmp", _outside))
config.substitutions.append(
    ("%ompi-include",
     " ".join("-I" + d for d in config.mpi_c_include_dirs.split(";") if d)))
# Native MPI runs: CI runs as root, and these machines have two cores.
config.substitutions.append(
    ("%mpirun", "mpirun --allow-run-as-root --oversubscribe --mca btl self,vader"))
config.substitutions.append(("%src-root", config.orrery_src_root))
config.substitutions.append(("%bin", config.orrery_bin_dir))
config.substitutions.append(("%lib", config.orrery_lib_dir))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%simgrid-lib", config.simgrid_library))
