# orrery_add_executable(): build a program with the Orrery build driver.
#
#   orrery_add_executable(<name>
#     [MODE skeleton|twin|native]       default skeleton
#     SOURCES <file>...                 .cu .cpp .cc .cxx .c; also .o/.a/.so
#     [OUTPUT_NAME <file name>]         default <name>
#     [OUTPUT_DIRECTORY <dir>]          default <binary dir>/<mode>; at the top
#                                       binary dir, a file named like the target
#                                       clashes with it (Ninja)
#     [INCLUDE_DIRECTORIES <dir>...]    relative to the current source dir
#     [COMPILE_DEFINITIONS <NAME[=value]>...]
#     [COMPILE_OPTIONS <flag>...]       clang or nvcc flags; -O2 unless one is -O<n>
#     [CUDA_ARCHITECTURES <arch>...]    90, 90-real or sm_90 (twin and native)
#     [CUDA_PATH <dir>]                 CUDA toolkit root
#     [LINK_OPTIONS <flag>...]
#     [LINK_LIBRARIES <lib>...])        paths, -l<name>, or library targets
#
# Creates <name>, a custom target built by default, whose properties
# ORRERY_MODE and ORRERY_OUTPUT give the mode and the program's path
# (<binary dir>/<mode>/<name>, or below CMAKE_RUNTIME_OUTPUT_DIRECTORY). In
# skeleton and twin mode the program is the shared object smpirun loads.
#
# Why custom commands and not CMake's compiler machinery (a CXX/CUDA compiler
# set to orrery-cxx): one project can build the same sources in several modes
# side by side; it needs no CUDA language support, no nvcc and no compiler
# identification (project(... LANGUAGES NONE) is enough); and every command is
# exactly the documented orrery-cxx command line. The price: usage
# requirements of library targets are taken one level deep (their include
# directories, definitions and options; their own link dependencies are not
# followed).

cmake_policy(PUSH)
# DEPFILE with Makefile generators; CMP0116 (depfile paths) NEW. Functions keep
# the policies in force where they are defined.
cmake_policy(VERSION 3.20)

function(orrery_add_executable name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG ""
    "MODE;OUTPUT_NAME;OUTPUT_DIRECTORY;CUDA_PATH"
    "SOURCES;INCLUDE_DIRECTORIES;COMPILE_DEFINITIONS;COMPILE_OPTIONS;CUDA_ARCHITECTURES;LINK_OPTIONS;LINK_LIBRARIES")
  set(where "orrery_add_executable(${name})")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${where}: unknown arguments '${ARG_UNPARSED_ARGUMENTS}'; "
                        "see docs/build-driver.md for the keywords")
  endif()
  if(NOT ARG_MODE)
    set(ARG_MODE skeleton)
  endif()
  if(NOT ARG_MODE MATCHES "^(skeleton|twin|native)$")
    message(FATAL_ERROR "${where}: unknown MODE '${ARG_MODE}'; use skeleton, twin or native")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "${where}: no SOURCES given")
  endif()

  # Flags of every command, then of the compiles and of the link.
  set(flags "--orrery-mode=${ARG_MODE}")
  if(ARG_CUDA_PATH)
    list(APPEND flags "--cuda-path=${ARG_CUDA_PATH}")
  endif()
  foreach(arch IN LISTS ARG_CUDA_ARCHITECTURES)
    if(NOT arch MATCHES "^(sm_)?([0-9]+[a-z]?)(-real|-virtual)?$")
      message(FATAL_ERROR "${where}: CUDA_ARCHITECTURES entry '${arch}' is "
                          "not like 90, 90-real or sm_90")
    endif()
    list(APPEND flags "--cuda-gpu-arch=sm_${CMAKE_MATCH_2}")
  endforeach()
  set(cflags ${flags})
  foreach(dir IN LISTS ARG_INCLUDE_DIRECTORIES)
    get_filename_component(dir "${dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND cflags "-I${dir}")
  endforeach()
  foreach(def IN LISTS ARG_COMPILE_DEFINITIONS)
    list(APPEND cflags "-D${def}")
  endforeach()
  # Host code optimisation matters: SMPI times the CPU bursts between calls.
  if(NOT "${ARG_COMPILE_OPTIONS}" MATCHES "(^|;)-O")
    list(APPEND cflags -O2)
  endif()
  list(APPEND cflags ${ARG_COMPILE_OPTIONS})

  set(libs)
  set(lib_targets)
  foreach(lib IN LISTS ARG_LINK_LIBRARIES)
    if(NOT TARGET "${lib}")
      list(APPEND libs "${lib}")
      continue()
    endif()
    # $<SEMICOLON> keeps each generator expression one list element here;
    # COMMAND_EXPAND_LISTS splits the evaluated result into arguments.
    set(inc "$<TARGET_PROPERTY:${lib},INTERFACE_INCLUDE_DIRECTORIES>")
    set(def "$<TARGET_PROPERTY:${lib},INTERFACE_COMPILE_DEFINITIONS>")
    list(APPEND cflags
      "$<$<BOOL:${inc}>:-I$<JOIN:${inc},$<SEMICOLON>-I>>"
      "$<$<BOOL:${def}>:-D$<JOIN:${def},$<SEMICOLON>-D>>"
      "$<TARGET_PROPERTY:${lib},INTERFACE_COMPILE_OPTIONS>")
    get_target_property(type "${lib}" TYPE)
    if(NOT type STREQUAL "INTERFACE_LIBRARY")
      list(APPEND libs "$<TARGET_FILE:${lib}>")
      list(APPEND lib_targets "${lib}")
    endif()
  endforeach()

  set(objects)
  set(any_cxx FALSE)
  foreach(src IN LISTS ARG_SOURCES)
    get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(ext "${abs}" LAST_EXT)
    if(NOT ext MATCHES "^\\.(cu|cpp|cc|cxx|c\\+\\+|C|c)$")
      list(APPEND objects "${abs}") # an object or library: linked as it is
      continue()
    endif()
    if(ext STREQUAL ".c")
      set(driver "${ORRERY_CC}")
    else()
      set(driver "${ORRERY_CXX}")
      set(any_cxx TRUE)
    endif()
    file(RELATIVE_PATH rel "${CMAKE_CURRENT_SOURCE_DIR}" "${abs}")
    string(REPLACE "../" "__/" rel "${rel}")
    set(obj "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${name}.orrery/${rel}.o")
    get_filename_component(objdir "${obj}" DIRECTORY)
    file(MAKE_DIRECTORY "${objdir}")
    add_custom_command(OUTPUT "${obj}"
      COMMAND "${driver}" ${cflags} -MD -MF "${obj}.d" -c "${abs}" -o "${obj}"
      DEPENDS "${abs}" "${driver}"
      DEPFILE "${obj}.d"
      WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}"
      COMMENT "Orrery ${ARG_MODE}: compiling ${rel}"
      COMMAND_EXPAND_LISTS VERBATIM)
    list(APPEND objects "${obj}")
  endforeach()

  if(ARG_OUTPUT_NAME)
    set(out_name "${ARG_OUTPUT_NAME}")
  else()
    set(out_name "${name}")
  endif()
  # One directory per mode: the same program can be built in several modes
  # under one name, and the file never collides with the target's name.
  if(ARG_OUTPUT_DIRECTORY)
    get_filename_component(out_dir "${ARG_OUTPUT_DIRECTORY}" ABSOLUTE
                           BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  elseif(CMAKE_RUNTIME_OUTPUT_DIRECTORY)
    set(out_dir "${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/${ARG_MODE}")
  else()
    set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/${ARG_MODE}")
  endif()
  file(MAKE_DIRECTORY "${out_dir}")
  set(out "${out_dir}/${out_name}")
  if(any_cxx)
    set(linker "${ORRERY_CXX}")
  else()
    set(linker "${ORRERY_CC}")
  endif()
  add_custom_command(OUTPUT "${out}"
    COMMAND "${linker}" ${flags} ${ARG_LINK_OPTIONS} ${objects} ${libs} -o "${out}"
    DEPENDS ${objects} ${lib_targets} "${linker}"
    WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}"
    COMMENT "Orrery ${ARG_MODE}: linking ${out_name}"
    COMMAND_EXPAND_LISTS VERBATIM)
  add_custom_target(${name} ALL DEPENDS "${out}")
  set_target_properties(${name} PROPERTIES ORRERY_MODE "${ARG_MODE}"
                                           ORRERY_OUTPUT "${out}")
endfunction()

cmake_policy(POP)
