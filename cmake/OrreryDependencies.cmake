# Locates the Debian-packaged dependencies (scripts/install-deps.sh installs them).
# Each optional part is switched off with a clear message when its dependency is absent.

find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(yaml-cpp REQUIRED)
find_package(nlohmann_json 3 REQUIRED)

set(ORRERY_LLVM_ROOT "/usr/lib/llvm-22" CACHE PATH "Root of the LLVM/Clang 22 installation")
set(ORRERY_LLVM_TOOLS_DIR "${ORRERY_LLVM_ROOT}/bin" CACHE PATH "Where lit and FileCheck live")

if(ORRERY_ENABLE_CLANG)
  # Debian's LLVMConfigVersion.cmake refuses a versioned request: find it unversioned
  # and check the major version ourselves.
  find_package(LLVM CONFIG REQUIRED HINTS "${ORRERY_LLVM_ROOT}/lib/cmake/llvm" NO_DEFAULT_PATH)
  if(NOT LLVM_VERSION_MAJOR EQUAL 22)
    message(FATAL_ERROR "Orrery needs LLVM/Clang 22; found ${LLVM_PACKAGE_VERSION} in ${LLVM_DIR}")
  endif()
  find_package(Clang CONFIG REQUIRED HINTS "${ORRERY_LLVM_ROOT}/lib/cmake/clang" NO_DEFAULT_PATH)
  set(ORRERY_CLANG_RESOURCE_DIR "${ORRERY_LLVM_ROOT}/lib/clang/${LLVM_VERSION_MAJOR}"
      CACHE PATH "Clang resource directory baked into orrery-instrument")
  if(NOT EXISTS "${ORRERY_CLANG_RESOURCE_DIR}/include/cuda_wrappers")
    message(FATAL_ERROR "Clang resource directory ${ORRERY_CLANG_RESOURCE_DIR} has no "
                        "include/cuda_wrappers; install libclang-common-22-dev or set "
                        "ORRERY_CLANG_RESOURCE_DIR")
  endif()
  message(STATUS "Orrery: LLVM ${LLVM_PACKAGE_VERSION} at ${LLVM_DIR}")
endif()

set(ORRERY_CUDA_PATH "/usr/local/cuda" CACHE PATH "CUDA toolkit used for real headers (optional)")
if(EXISTS "${ORRERY_CUDA_PATH}/include/cuda_runtime.h")
  set(ORRERY_HAVE_CUDA_TOOLKIT ON)
else()
  set(ORRERY_HAVE_CUDA_TOOLKIT OFF)
endif()

if(ORRERY_ENABLE_SIMGRID)
  find_path(SIMGRID_INCLUDE_DIR simgrid/s4u.hpp)
  find_library(SIMGRID_LIBRARY simgrid)
  find_program(SMPIRUN smpirun)
  if(SIMGRID_INCLUDE_DIR AND SIMGRID_LIBRARY AND SMPIRUN)
    set(ORRERY_HAVE_SIMGRID ON)
  else()
    message(WARNING "SimGrid not found (install libsimgrid-dev); simulation parts disabled")
    set(ORRERY_HAVE_SIMGRID OFF)
  endif()
else()
  set(ORRERY_HAVE_SIMGRID OFF)
endif()

if(ORRERY_ENABLE_RAMC)
  pkg_check_modules(LIBFABRIC IMPORTED_TARGET libfabric)
  if(LIBFABRIC_FOUND)
    set(ORRERY_HAVE_LIBFABRIC ON)
  else()
    message(WARNING "libfabric not found (install libfabric-dev); RAMC disabled")
    set(ORRERY_HAVE_LIBFABRIC OFF)
  endif()
else()
  set(ORRERY_HAVE_LIBFABRIC OFF)
endif()

find_package(MPI COMPONENTS C)
if(MPI_C_FOUND)
  set(ORRERY_HAVE_MPI ON)
else()
  set(ORRERY_HAVE_MPI OFF)
endif()

# Adds an Orrery library with the project's warning flags.
function(orrery_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-unused-parameter)
endfunction()
