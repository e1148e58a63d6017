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

# The tools install themselves (tools/). They keep LLVM's library directory
# in their RUNPATH: libMLIR.so (MLIR_LINK_MLIR_DYLIB=ON) lives only there.
foreach(tool stencil-opt stencil-translate stencil-compile)
  if(TARGET ${tool})
    set_property(TARGET ${tool} APPEND PROPERTY INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
  endif()
endforeach()

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
  ${STENCIL_SOURCE_DIR}/cmake/StencilKernel.cmake
  DESTINATION lib/cmake/Stencil)
