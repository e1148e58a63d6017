# -*- Python -*-
# lit configuration of the stencil test suite.
#
# check-stencil runs everything but test/Integration and executes no
# generated code; check-stencil-integration (lit param `integration=1`)
# runs test/Integration, which lowers, compiles and runs code.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "STENCIL"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".c"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.stencil_obj_root, "test")
config.excludes = ["Inputs", "CMakeLists.txt", "README.txt", "lit.cfg.py",
                   "lit.site.cfg.py"]
if not lit_config.params.get("integration"):
    config.excludes.append("Integration")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%shlibext", config.llvm_shlib_ext))
config.substitutions.append(("%stencil_src", config.stencil_src_root))
config.substitutions.append(("%stencil_obj", config.stencil_obj_root))
# Where `cmake --install` puts the Python package, under the prefix.
config.substitutions.append(("%python_install_dir",
                             config.stencil_python_install_dir))

llvm_config.use_default_substitutions()
# Sanitizer settings reach the tools of a STENCIL_SANITIZE build, and
# STENCIL_GEN_SCALE the generators of the random time-loop and distributed
# tests (a larger batch by hand, docs/Testing.md).
llvm_config.with_system_environment(["ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS",
                                     "STENCIL_GEN_SCALE"])
# Same FileCheck strictness as upstream MLIR.
config.environment["FILECHECK_OPTS"] = "-enable-var-scope --allow-unused-prefixes=false"

lib = config.llvm_lib_dir
config.substitutions.append(("%mlir_c_runner_utils",
                             os.path.join(lib, "libmlir_c_runner_utils" + config.llvm_shlib_ext)))
config.substitutions.append(("%mlir_runner_utils",
                             os.path.join(lib, "libmlir_runner_utils" + config.llvm_shlib_ext)))
config.substitutions.append(("%libomp", os.path.join(lib, "libomp" + config.llvm_shlib_ext)))
config.substitutions.append(("%llvm_lib_dir", lib))
# %cmake_generator before %cmake: substitutions apply in order, and %cmake
# is a prefix of it.
config.substitutions.append(("%cmake_generator", config.cmake_generator))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%mlir_dir", config.mlir_dir))
# MLIR's headers (CRunnerUtils.h), next to the LLVM tools.
config.substitutions.append(
    ("%mlir_include_dir",
     os.path.join(os.path.dirname(config.llvm_tools_dir), "include")))
# The compilers of the main build, for tests that configure other projects.
config.substitutions.append(("%cxx_compiler", config.cxx_compiler))
config.substitutions.append(("%c_compiler", config.c_compiler))

tool_dirs = [config.stencil_tools_dir, config.llvm_tools_dir]
tools = [
    "stencil-opt",
    "stencil-translate",
    "stencil-compile",
    "stencil-polyplan-check",
    # Built only where Clang's C++ libraries are (feature c-importer).
    ToolSubst("stencil-import-c", unresolved="ignore"),
    # Built with the fuzzer (STENCIL_BUILD_FUZZER) and the C importer.
    ToolSubst("stencil-delinearize-fuzz", unresolved="ignore"),
    # With STENCIL_BUILD_FUZZER too (feature c-importer-fuzzer).
    ToolSubst("stencil-import-c-fuzz", unresolved="ignore"),
    # Built only with clang (examples/CMakeLists.txt); integration tests only.
    ToolSubst("wave3d-example", unresolved="ignore"),
    ToolSubst("fwi-example", unresolved="ignore"),
    ToolSubst("wave3d-mpi-example", unresolved="ignore"),
    ToolSubst("fwi-mpi-example", unresolved="ignore"),
    "mlir-opt",
    "mlir-translate",
    "mlir-runner",
    ToolSubst("%clang", os.path.join(config.llvm_tools_dir, "clang"), unresolved="fatal"),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)
llvm_config.with_environment("PATH", config.stencil_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# Built with sanitizers (build-san): their shadow memory and quarantine make
# the process's resident memory say nothing about the code's own.
if getattr(config, "stencil_sanitize", ""):
    config.available_features.add("sanitizers")

# The numerical checker of the adjoints (test/Integration/gen). A sanitizer
# build checks the compiler's own code: the libraries it builds from the
# same IR as the main build are compiled at -O0 there, since LLVM's
# optimiser takes nearly all of their build time and the main build
# already runs them optimised.
import sys
check_adjoint = '"%s" %s --stencil-compile stencil-compile' % (
    sys.executable,
    os.path.join(config.test_source_root, "Integration", "gen", "check_adjoint.py"))
max_opt = " --max-opt-level 0" if getattr(config, "stencil_sanitize", "") else ""
check_adjoint += max_opt
config.substitutions.append(("%check_adjoint", check_adjoint))
# gather-random-nonrect.test checks 40 random cases; a sanitizer build,
# several times slower, checks the first 12 of them (the same seed). The
# random stencils of adjoint-random, gather-random, gather-random-exact and
# gather-random-coarsen are 60, of which a sanitizer build checks the first
# 20: the main build checks all 60 in the same run of scripts/test.sh.
sanitized = bool(getattr(config, "stencil_sanitize", ""))
config.substitutions.append(("%nonrect_cases", "12" if sanitized else "40"))
config.substitutions.append(("%random_cases", "20" if sanitized else "60"))
# mpi-reductions.test runs its cases on 12 grids; a sanitizer build on 5 of
# them (in 2-D and 3-D, one that splits nothing; in 2-D, one splitting the
# summation dimension only and one the other only; in 3-D, one both).
config.substitutions.append((
    "%reduction_grids",
    "1x1,2x1,1x3,1x1x1,3x1x2" if sanitized else
    "1x1,2x1,1x2,2x2,3x1,1x3,2x3,1x1x1,2x1x1,1x2x2,3x1x2,1x1x4"))

# MPI (docs/Distributed.md, "One MPI"): the distributed run-time library is
# built when CMake finds Open MPI (cmake/StencilMPI.cmake), and the mpirun
# tests use its mpicc.openmpi and the project's launcher bin/stencil-mpirun,
# never the mpicc/mpirun alternatives. scripts/install-deps.sh installs it,
# so a missing one shows as UNSUPPORTED tests, never as a silent pass.
import shutil
# The C importer, built where Clang's C++ libraries were found (CMake's
# STENCIL_BUILD_C_IMPORTER); without them its tests show as UNSUPPORTED.
if config.stencil_c_importer.upper() in ("TRUE", "ON", "1", "YES"):
    config.available_features.add("c-importer")
    if os.path.exists(os.path.join(config.stencil_tools_dir,
                                   "stencil-delinearize-fuzz")):
        config.available_features.add("delinearize-fuzz")
    # Its libFuzzer target, stencil-import-c-fuzz (build-san).
    if config.stencil_build_fuzzer.upper() in ("TRUE", "ON", "1", "YES"):
        config.available_features.add("c-importer-fuzzer")
# GCC, the second C compiler the generated headers must compile with
# (test/Integration/headers-gcc.test); a missing one shows as UNSUPPORTED.
if shutil.which("gcc"):
    config.available_features.add("gcc")
    config.substitutions.append(("%gcc", shutil.which("gcc")))
mpirun = os.path.join(config.stencil_tools_dir, "stencil-mpirun")
if (config.stencil_have_mpi.upper() in ("TRUE", "ON", "1", "YES")
        and os.path.exists(mpirun)):
    config.available_features.add("mpi")
    config.substitutions.append(("%mpicc", config.stencil_mpicc))
    # %mpirun_fails: a launch that must fail (as `not %mpirun`), killed
    # with the ranks it leaves if it has not ended in 120 s
    # (Inputs/mpirun_fails.py: a launcher can lose ranks during an
    # MPI_Abort).
    # Listed first: lit substitutes in order, and %mpirun is its prefix.
    config.substitutions.append(
        ("%mpirun_fails", sys.executable + " " + os.path.join(
            config.test_source_root, "Integration", "Inputs",
            "mpirun_fails.py") + " --timeout 120 " + mpirun))
    config.substitutions.append(("%mpirun", mpirun))
    # The distributed random programs against one process
    # (Integration/gen/check_dist.py), launched through the same mpirun.
    config.substitutions.append(("%check_dist", '"%s" %s --stencil-compile stencil-compile --mpirun "%s"%s' % (
        sys.executable, os.path.join(config.test_source_root, "Integration",
                                     "gen", "check_dist.py"), mpirun, max_opt)))
    config.substitutions.append(
        ("%dist_runtime",
         os.path.join(config.stencil_obj_root, "lib", "libStencilDistRuntime.a")))

# A CUDA toolkit (docs/GPU.md): the GPU run-time library, fatbin binaries
# (ptxas, fatbinary) and shared libraries of GPU kernels need it. Without
# one the tests that need it are UNSUPPORTED; the PTX tests (format=isa,
# LLVM's NVPTX back end only) run everywhere.
if config.stencil_have_cuda.upper() in ("TRUE", "ON", "1", "YES"):
    config.available_features.add("cuda")
    config.substitutions.append(("%cuda_toolkit", config.stencil_cuda_toolkit))

# The benchmark suite (bench/, STENCIL_BUILD_BENCHMARKS) and its Halide
# peers (STENCIL_BENCH_HALIDE, found at configure time): bench-quick.test
# is UNSUPPORTED without the binary and checks the peers only where they
# were built. scripts/setup.sh installs Google Benchmark and Halide, so CI
# runs both.
stencil_bench = os.path.join(config.stencil_tools_dir, "stencil-bench")
if os.path.exists(stencil_bench):
    config.available_features.add("stencil-bench")
    import subprocess
    try:
        listing = subprocess.run([stencil_bench, "--benchmark_list_tests"],
                                 capture_output=True, text=True,
                                 timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        listing = ""
    if "/halide_adjoint/" in listing:
        config.available_features.add("halide-peers")
