#===- StencilSanitizers.cmake - Sanitizer and fuzzer builds ---------------===//
#
# STENCIL_SANITIZE=address,undefined (any -fsanitize= list) compiles and
# links every target of the project with those sanitizers; LLVM and MLIR
# themselves come from Debian and stay uninstrumented. Errors abort
# (-fno-sanitize-recover), so a test that triggers one fails. Libraries
# carry the link flag to their users (examples/embed links them too).
# STENCIL_BUILD_FUZZER adds -fsanitize=fuzzer-no-link to every target, so
# that libFuzzer sees the coverage of our passes, and builds stencil-fuzz.
#
#===----------------------------------------------------------------------===//
set(STENCIL_SANITIZER_FLAGS "")
if(STENCIL_SANITIZE)
  list(APPEND STENCIL_SANITIZER_FLAGS -fsanitize=${STENCIL_SANITIZE}
       -fno-sanitize-recover=all -fno-omit-frame-pointer)
endif()
if(STENCIL_BUILD_FUZZER)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "STENCIL_BUILD_FUZZER needs clang (libFuzzer)")
  endif()
  list(APPEND STENCIL_SANITIZER_FLAGS -fsanitize=fuzzer-no-link)
endif()
if(STENCIL_SANITIZER_FLAGS)
  message(STATUS "Sanitizer flags: ${STENCIL_SANITIZER_FLAGS}")
  add_compile_options(${STENCIL_SANITIZER_FLAGS})
  add_link_options(${STENCIL_SANITIZER_FLAGS})
endif()
