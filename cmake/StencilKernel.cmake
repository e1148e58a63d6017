#===- StencilKernel.cmake - Stencil IR into a linkable library ------------===//
#
# stencil_add_kernel(<target>
#   SOURCE <file.mlir>
#   [PASSES <flag>...]      the passes, as stencil-opt flags
#                           (default: --convert-to-omp)
#   [HEADER <name.h>]       also generate the C header of the entry points,
#                           in ${CMAKE_CURRENT_BINARY_DIR}/<target>/
#   [EXPORT <symbol>...]    keep only these functions external
#   [KEEP_LL]               keep the LLVM IR next to the object
#   [OPT_LEVEL <n>]         clang -O<n> (default 3)
#   [MARCH <cpu>])          clang -march (default native)
#
# Compiles <file.mlir> with stencil-compile, the project's one compile chain
# (tools/stencil-compile), into a static library <target>. Linking <target>
# puts the generated header and Stencil/ABI/StencilABI.h on the include path
# and links the run-time library (the checkpointing schedule of reversed time
# loops), LLVM's libomp (with an rpath) and libm, which the compiled code
# calls (docs/ABI.md). The bench, the examples and embedding projects build
# their kernels with it; the installed package provides it
# (StencilConfig.cmake).
#
# Expects STENCIL_COMPILE_EXECUTABLE, STENCIL_ABI_INCLUDE_DIR,
# STENCIL_RUNTIME_LIBRARY (a target or a file) and STENCIL_LLVM_LIBRARY_DIR,
# and STENCIL_COMPILE_TARGET when stencil-compile is built in the same
# project.
#
#===----------------------------------------------------------------------===//

function(stencil_add_kernel target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "KEEP_LL"
    "SOURCE;HEADER;OPT_LEVEL;MARCH" "PASSES;EXPORT")
  if(NOT ARG_SOURCE)
    message(FATAL_ERROR "stencil_add_kernel(${target}): SOURCE is required")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
      "stencil_add_kernel(${target}): unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  get_filename_component(source "${ARG_SOURCE}" ABSOLUTE)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${target})
  file(MAKE_DIRECTORY ${dir})
  set(object ${dir}/${target}.o)

  set(command ${STENCIL_COMPILE_EXECUTABLE} ${source} -o ${object})
  set(outputs ${object})
  set(byproducts "")
  if(ARG_HEADER)
    list(APPEND command --header ${dir}/${ARG_HEADER})
    list(APPEND outputs ${dir}/${ARG_HEADER})
  endif()
  if(ARG_EXPORT)
    string(REPLACE ";" "," exports "${ARG_EXPORT}")
    list(APPEND command --export=${exports})
  endif()
  if(ARG_KEEP_LL)
    list(APPEND command --keep-ll ${dir}/${target}.ll)
    list(APPEND byproducts ${dir}/${target}.ll)
  endif()
  if(ARG_OPT_LEVEL)
    list(APPEND command -O${ARG_OPT_LEVEL})
  endif()
  if(ARG_MARCH)
    list(APPEND command --march=${ARG_MARCH})
  endif()
  list(APPEND command ${ARG_PASSES})

  add_custom_command(OUTPUT ${outputs}
    BYPRODUCTS ${byproducts}
    COMMAND ${command}
    DEPENDS ${source} ${STENCIL_COMPILE_TARGET}
    COMMENT "stencil-compile ${ARG_SOURCE} ${ARG_PASSES}"
    VERBATIM)
  set_source_files_properties(${object} PROPERTIES
    EXTERNAL_OBJECT TRUE GENERATED TRUE)
  add_library(${target} STATIC ${outputs})
  set_target_properties(${target} PROPERTIES LINKER_LANGUAGE C)
  target_include_directories(${target} INTERFACE ${dir} ${STENCIL_ABI_INCLUDE_DIR})
  find_library(STENCIL_LIBOMP omp PATHS ${STENCIL_LLVM_LIBRARY_DIR}
    NO_DEFAULT_PATH)
  if(NOT STENCIL_LIBOMP)
    message(FATAL_ERROR "stencil_add_kernel: LLVM's libomp not found in "
                        "${STENCIL_LLVM_LIBRARY_DIR}")
  endif()
  target_link_libraries(${target} INTERFACE ${STENCIL_RUNTIME_LIBRARY}
    ${STENCIL_LIBOMP} m)
  target_link_options(${target} INTERFACE
    "LINKER:-rpath,${STENCIL_LLVM_LIBRARY_DIR}")
endfunction()

# stencil_add_shared_kernel(<target>
#   SOURCE <file.mlir>
#   OUTPUT <lib.so>          where the shared library goes
#   [PASSES <flag>...])      the passes (default: --convert-to-omp)
#
# Compiles <file.mlir> with `stencil-compile --shared` into a shared library
# that links what the compiled code calls (the run-time libraries, libomp,
# and MPI for functions distributed by --stencil-distribute), for drivers
# that load several variants of one kernel with dlopen (their entry points
# share names): the distributed examples and benchmarks, one library per
# process grid. <target> builds it.
function(stencil_add_shared_kernel target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "SOURCE;OUTPUT" "PASSES")
  if(NOT ARG_SOURCE OR NOT ARG_OUTPUT)
    message(FATAL_ERROR
      "stencil_add_shared_kernel(${target}): SOURCE and OUTPUT are required")
  endif()
  get_filename_component(source "${ARG_SOURCE}" ABSOLUTE)
  get_filename_component(dir "${ARG_OUTPUT}" DIRECTORY)
  add_custom_command(OUTPUT ${ARG_OUTPUT}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND ${STENCIL_COMPILE_EXECUTABLE} ${source} --shared -o ${ARG_OUTPUT}
            ${ARG_PASSES}
    DEPENDS ${source} ${STENCIL_COMPILE_TARGET}
    COMMENT "stencil-compile --shared ${ARG_SOURCE} ${ARG_PASSES}"
    VERBATIM)
  add_custom_target(${target} DEPENDS ${ARG_OUTPUT})
endfunction()
