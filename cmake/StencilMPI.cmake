#===- StencilMPI.cmake - The one MPI the project builds and runs on -------===//
#
# Open MPI, Debian's default MPI and the one python3-mpi4py is built on (a
# process cannot hold two MPI libraries, and stencilad calls distributed
# functions from mpi4py programs). Chosen by name, mpicc.openmpi and
# mpirun.openmpi, never through the mpicc/mpirun alternatives, which another
# MPI's packages may switch (MPICH's, for one). scripts/install-deps.sh
# installs it (libopenmpi-dev, openmpi-bin).
#
# Sets STENCIL_HAVE_MPI, MPI::MPI_C, and STENCIL_MPICC and STENCIL_MPIRUN,
# the compiler wrapper and launcher the tests, examples and benchmarks use.
#
#===----------------------------------------------------------------------===//

find_program(STENCIL_MPICC mpicc.openmpi)
find_program(STENCIL_MPIRUN mpirun.openmpi)
set(STENCIL_HAVE_MPI FALSE)
if(STENCIL_MPICC AND STENCIL_MPIRUN)
  # FORCE: a build tree configured before keeps no other MPI's wrapper.
  set(MPI_C_COMPILER ${STENCIL_MPICC} CACHE FILEPATH "Open MPI's mpicc" FORCE)
  set(MPIEXEC_EXECUTABLE ${STENCIL_MPIRUN} CACHE FILEPATH
      "Open MPI's mpirun" FORCE)
  set(MPI_DETERMINE_LIBRARY_VERSION TRUE)
  find_package(MPI COMPONENTS C)
  if(MPI_C_FOUND AND NOT MPI_C_LIBRARY_VERSION_STRING MATCHES "Open MPI")
    message(WARNING "StencilMPI: ${STENCIL_MPICC} is not Open MPI's "
                    "(${MPI_C_LIBRARY_VERSION_STRING}); distributed "
                    "functions are not built")
  elseif(MPI_C_FOUND)
    set(STENCIL_HAVE_MPI TRUE)
  endif()
endif()
if(NOT STENCIL_HAVE_MPI)
  message(STATUS "StencilMPI: no Open MPI (libopenmpi-dev, openmpi-bin): the "
                 "distributed run-time library and its tests are skipped")
endif()

# bin/stencil-mpirun: the launcher, with the options every run here needs
# (tools/stencil-mpirun/stencil-mpirun.in says which and why).
if(STENCIL_HAVE_MPI)
  configure_file(${PROJECT_SOURCE_DIR}/tools/stencil-mpirun/stencil-mpirun.in
    ${PROJECT_BINARY_DIR}/bin/stencil-mpirun
    FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
                     GROUP_EXECUTE WORLD_READ WORLD_EXECUTE
    @ONLY)
  install(PROGRAMS ${PROJECT_BINARY_DIR}/bin/stencil-mpirun DESTINATION bin)
  set(STENCIL_MPIRUN_WRAPPER ${PROJECT_BINARY_DIR}/bin/stencil-mpirun)
endif()
