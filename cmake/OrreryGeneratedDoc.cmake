# orrery_generated_doc(NAME TOOL ARGS...): docs/NAME.md is what TOOL (a
# target) prints with ARGS, written to <build>/docs/NAME.md at every build
# (target NAME-doc); `ninja update-NAME-doc` copies it into the source tree.
# Each such page has a docs-fresh test that fails while the committed copy
# differs (test/utils/check_fresh.py, or the page's own checker).
function(orrery_generated_doc name tool)
  set(out ${CMAKE_BINARY_DIR}/docs/${name}.md)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/docs
    COMMAND $<TARGET_FILE:${tool}> ${ARGN} > ${out}
    DEPENDS ${tool}
    COMMENT "Generating docs/${name}.md")
  add_custom_target(${name}-doc ALL DEPENDS ${out})
  add_custom_target(update-${name}-doc
    COMMAND ${CMAKE_COMMAND} -E copy ${out} ${CMAKE_SOURCE_DIR}/docs/${name}.md
    DEPENDS ${out}
    COMMENT "Copying the generated docs/${name}.md into the source tree")
endfunction()
