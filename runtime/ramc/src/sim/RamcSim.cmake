# libramc-sim: RAMC's front end over the simulated transport (src/sim/), for
# RAMC programs built in skeleton mode and run under smpirun. Needs SimGrid
# and liborrery-sim; no libfabric.
# ramc_add_sim_library() runs deferred, in the scope of runtime/: it finds
# its paths from this file's directory, saved here.
set_property(GLOBAL PROPERTY RAMC_SIM_DIR ${CMAKE_CURRENT_LIST_DIR})

function(ramc_add_sim_library)
  if(NOT ORRERY_HAVE_SIMGRID OR NOT TARGET orrery_sim)
    message(STATUS "libramc-sim not built (needs SimGrid and liborrery-sim)")
    return()
  endif()
  get_property(RAMC_SIM_DIR GLOBAL PROPERTY RAMC_SIM_DIR)
  get_property(RAMC_FRONT_END_SOURCES GLOBAL PROPERTY RAMC_FRONT_END_SOURCES)
  get_filename_component(RAMC_DIR ${RAMC_SIM_DIR}/../.. ABSOLUTE)
  add_library(ramc_sim SHARED
    ${RAMC_FRONT_END_SOURCES}
    ${RAMC_SIM_DIR}/sim_barrier.cpp
    ${RAMC_SIM_DIR}/sim_bootstrap.cpp
    ${RAMC_SIM_DIR}/sim_compat_state.cpp
    ${RAMC_SIM_DIR}/sim_costs.cpp
    ${RAMC_SIM_DIR}/sim_endpoint.cpp
    ${RAMC_SIM_DIR}/sim_flows.cpp
    ${RAMC_SIM_DIR}/sim_regions.cpp
    ${RAMC_SIM_DIR}/sim_transport.cpp
    ${RAMC_SIM_DIR}/sim_world.cpp)
  set_target_properties(ramc_sim PROPERTIES OUTPUT_NAME ramc-sim
                                            VERSION 0.5.0 SOVERSION 0)
  target_include_directories(ramc_sim
    PUBLIC $<BUILD_INTERFACE:${RAMC_DIR}/include>
           $<INSTALL_INTERFACE:include>
    PRIVATE ${RAMC_DIR}/src ${RAMC_SIM_DIR} ${SIMGRID_INCLUDE_DIR}/smpi)
  target_link_libraries(ramc_sim PRIVATE orrery_sim ${SIMGRID_LIBRARY})
  target_link_options(ramc_sim PRIVATE -Wl,-z,defs)
  orrery_warnings(ramc_sim)
  include(GNUInstallDirs)
  install(TARGETS ramc_sim LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endfunction()
