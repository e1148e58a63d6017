#===- StencilHelpers.cmake - Library helper -------------------------------===//
#
# add_stencil_library(name ...) wraps add_mlir_library but installs the
# library into our own export set (StencilTargets), so that
# find_package(Stencil) works against the install tree.
#
#===----------------------------------------------------------------------===//
set_property(GLOBAL PROPERTY STENCIL_EXPORTED_LIBS "")

function(add_stencil_library name)
  add_mlir_library(${name} DISABLE_INSTALL ${ARGN})
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${STENCIL_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${STENCIL_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  install(TARGETS ${name} EXPORT StencilTargets
    ARCHIVE DESTINATION lib
    LIBRARY DESTINATION lib)
  if(STENCIL_SANITIZER_FLAGS)
    # Instrumented archives need the sanitizer runtimes in whatever links them.
    target_link_options(${name} INTERFACE ${STENCIL_SANITIZER_FLAGS})
  endif()
  set_property(GLOBAL APPEND PROPERTY STENCIL_EXPORTED_LIBS ${name})
endfunction()
