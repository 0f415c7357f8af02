"""Instruments one small CUDA file under directory names that end a string
literal or a comment when written into code unescaped, then compiles each
output. Prints one line per name; exits 1 if any output does not compile.

usage: odd-names.py WORKDIR 'INSTRUMENT FLAGS' 'COMPILE COMMAND'
"""
import os
import shlex
import subprocess
import sys

# '*/' ends the banner comment, '"' ends the site-table literal, a newline
# ends the #line literal, '??/' is a backslash in C with trigraphs, and the
# last two are not ASCII (one not even UTF-8). (A backslash is refused:
# clang's tooling reads it as '/'.)
NAMES = [b"star*", b'quote"', b"new\nline", b"tri??", b"caf\xc3\xa9",
         b"raw\xff"]

work, flags, compile_cmd = sys.argv[1], shlex.split(sys.argv[2]), shlex.split(sys.argv[3])
os.chdir(work)
inputs = []
for name in NAMES:
    os.makedirs(name, exist_ok=True)
    path = os.path.join(name, b"a.cu")
    # __FILE__ must be the name, byte for byte: its size is checked.
    size = len(path) + 1
    with open(path, "wb") as f:
        f.write(b"#include <cuda_runtime.h>\n"
                b"#ifdef ORRERY_HOOK_ABI_VERSION /* in the output only */\n"
                b"static_assert(sizeof(__FILE__) == %d, \"__FILE__ is the original name\");\n"
                b"#endif\n"
                b"void a() { cudaDeviceSynchronize(); }\n" % size)
    inputs.append(path)

rc = subprocess.call([b"orrery-instrument", b"--quiet", b"--out-dir", b"out"] +
                     inputs + [b"--"] + [f.encode() for f in flags])
print("orrery-instrument exit status", rc)
failed = False
for name, path in zip(NAMES, inputs):
    out = os.path.join(b"out", path)
    ok = subprocess.call([c.encode() for c in compile_cmd] + [out]) == 0
    failed |= not ok
    print("%r: %s" % (name, "compiles" if ok else "does not compile"))
sys.exit(1 if failed else 0)
