# ORRERY_SANITIZE=ON builds the whole tree with AddressSanitizer and
# UndefinedBehaviorSanitizer (make check-sanitize, docs/testing.md).
#
# Programs the tree does not build load our sanitized libraries too: SimGrid's
# smpimain dlopen()s skeleton programs, clang-built test programs link
# liborrery-native and libramc. The sanitizer runtime must be the first library
# of such a process, so the test suite preloads it (ORRERY_SANITIZER_PRELOAD,
# read by test/lit.cfg.py).
option(ORRERY_SANITIZE "Build with AddressSanitizer + UndefinedBehaviorSanitizer" OFF)

set(ORRERY_SANITIZER_PRELOAD "")
if(ORRERY_SANITIZE)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "ORRERY_SANITIZE needs GCC or Clang, not ${CMAKE_CXX_COMPILER_ID}")
  endif()
  # -O1 keeps stack traces readable and compiles faster than -O3.
  set(sanitize_flags -fsanitize=address,undefined -fno-sanitize-recover=undefined
                     -fno-omit-frame-pointer -O1 -g1)
  add_compile_options(${sanitize_flags})
  add_link_options(-fsanitize=address,undefined)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    set(asan_name libasan.so)
  else()
    set(asan_name libclang_rt.asan-x86_64.so)
  endif()
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=${asan_name}
                  OUTPUT_VARIABLE asan_path OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT IS_ABSOLUTE "${asan_path}" OR NOT EXISTS "${asan_path}")
    message(FATAL_ERROR "ORRERY_SANITIZE: ${CMAKE_CXX_COMPILER} does not know where "
                        "${asan_name} is (got '${asan_path}'); install the compiler's "
                        "sanitizer runtime (libasan8 for GCC)")
  endif()
  get_filename_component(ORRERY_SANITIZER_PRELOAD "${asan_path}" REALPATH)
  message(STATUS "Orrery: ASan + UBSan build; tests preload ${ORRERY_SANITIZER_PRELOAD}")
endif()
