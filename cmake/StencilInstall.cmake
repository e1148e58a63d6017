#===- StencilInstall.cmake - Install tree and CMake package ---------------===//
#
# Installs headers (hand-written and TableGen-generated), the libraries, the
# tools and a relocatable `StencilConfig.cmake`, so that another compiler can
# `find_package(Stencil)` and embed the passes.
#
#===----------------------------------------------------------------------===//
include(CMakePackageConfigHelpers)

install(DIRECTORY ${STENCIL_SOURCE_DIR}/include/Stencil DESTINATION include
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${STENCIL_BINARY_DIR}/include/Stencil DESTINATION include
  FILES_MATCHING PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE)

# stencil-opt installs itself (tools/stencil-opt); stencil-compile finds it
# next to itself in bin/. The installed stencil-opt keeps LLVM's library
# directory in its RUNPATH: libMLIR.so (MLIR_LINK_MLIR_DYLIB=ON) lives only
# there.
install(PROGRAMS ${STENCIL_SOURCE_DIR}/scripts/stencil-compile DESTINATION bin)
if(TARGET stencil-opt)
  set_property(TARGET stencil-opt APPEND PROPERTY INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
endif()

install(EXPORT StencilTargets NAMESPACE Stencil:: DESTINATION lib/cmake/Stencil)

configure_package_config_file(
  ${STENCIL_SOURCE_DIR}/cmake/StencilConfig.cmake.in
  ${STENCIL_BINARY_DIR}/lib/cmake/Stencil/StencilConfig.cmake
  INSTALL_DESTINATION lib/cmake/Stencil)
write_basic_package_version_file(
  ${STENCIL_BINARY_DIR}/lib/cmake/Stencil/StencilConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES
  ${STENCIL_BINARY_DIR}/lib/cmake/Stencil/StencilConfig.cmake
  ${STENCIL_BINARY_DIR}/lib/cmake/Stencil/StencilConfigVersion.cmake
  DESTINATION lib/cmake/Stencil)
