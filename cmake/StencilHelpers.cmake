#===- StencilHelpers.cmake - Library helper -------------------------------===//
#
# add_stencil_library(name ...) wraps add_mlir_library but installs the
# library into our own export set (StencilTargets), so that
# find_package(Stencil) works against the install tree.
#
# With STENCIL_PCH (on by default) the libraries' sources share one
# precompiled header of the MLIR headers most of them include
# (cmake/StencilPCH.h): parsing those took most of the build's time.
#
#===----------------------------------------------------------------------===//
set_property(GLOBAL PROPERTY STENCIL_EXPORTED_LIBS "")
set_property(GLOBAL PROPERTY STENCIL_PCH_OWNER "")
option(STENCIL_PCH "Precompile the MLIR headers the libraries share" ON)

# stencil_use_pch(target): the first target builds the precompiled header,
# every later one reuses it (same compiler flags: add_mlir_library's).
function(stencil_use_pch target)
  if(NOT STENCIL_PCH)
    return()
  endif()
  get_property(owner GLOBAL PROPERTY STENCIL_PCH_OWNER)
  if(owner)
    target_precompile_headers(${target} REUSE_FROM ${owner})
  else()
    target_precompile_headers(${target} PRIVATE
      "${STENCIL_SOURCE_DIR}/cmake/StencilPCH.h")
    set_property(GLOBAL PROPERTY STENCIL_PCH_OWNER ${target})
  endif()
endfunction()

function(add_stencil_library name)
  add_mlir_library(${name} DISABLE_INSTALL ${ARGN})
  stencil_use_pch(obj.${name})
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
