#!/usr/bin/env bash
#===- install-deps.sh - Install the build and test dependencies ----------===//
#
# Installs, with apt-get, exactly the Debian 12 packages the project needs
# (README.md, "Quick start"): LLVM/MLIR 22 headers, archives and tools, clang-22,
# libomp, GCC (the second compiler CI builds with), Google Benchmark, CMake,
# Ninja, lld, python3 with NumPy, SymPy, pytest and matplotlib (the Python
# package, its front end and its example) and with venv, pip, setuptools and
# wheel (the package installed into a virtual environment), and debootstrap
# (scripts/fresh-machine-test.sh).
#
#   install-deps.sh          install what is missing; when everything is
#                            installed it does nothing, not even `apt-get
#                            update`. Must run as root (or with sudo).
#   install-deps.sh --check  change nothing: resolve an installable candidate
#                            for every package and run `apt-get install
#                            --simulate` over the whole list, so that the
#                            install path is exercised even on a machine
#                            where everything is already installed (CI).
#
# No pipeline here ends in `grep -q` or `head`: under `pipefail` the writer
# can die of SIGPIPE when the reader exits early, and the pipeline then
# fails although the match succeeded. Output is captured, then matched.
#
#===----------------------------------------------------------------------===//
set -euo pipefail

PACKAGES=(
  llvm-22-dev       # LLVMConfig.cmake, libLLVM.so
  libmlir-22-dev    # MLIR headers, archives, MLIRConfig.cmake
  mlir-22-tools     # mlir-opt, mlir-translate, mlir-runner, mlir-tblgen
  llvm-22-tools     # FileCheck, not, count, lit
  clang-22          # C/C++ compiler; compiles the generated LLVM IR
  libclang-rt-22-dev # libFuzzer and the sanitizer runtimes (test/Fuzz)
  libclang-22-dev   # Clang's headers: the C importer (docs/ImportC.md)
  libclang-cpp22-dev # libclang-cpp.so, the one Clang library it links
  libomp-22-dev     # OpenMP runtime (libomp.so) for the lowered code
  g++               # GCC: CI also builds the compiler with it
  libbenchmark-dev  # Google Benchmark (bench/)
  libhalide14-0-dev # Halide 14, the peer of the benchmarks (bench/)
  ninja-build
  cmake
  lld
  python3           # lit, the test generators and checkers
  python3-numpy     # the Python package stencilad (python/, docs/Python.md)
  python3-sympy     # its front end (stencilad.frontend)
  python3-venv      # `python3 -m venv`, with pip and setuptools inside it
  python3-pip       # pip (docs/Python.md, "Install")
  python3-setuptools # the build backend of <build>/python/pyproject.toml
  python3-wheel     # setuptools' bdist_wheel, for pip --no-build-isolation
  python3-pytest    # its tests (test/Integration/python.test)
  python3-matplotlib # the gradient image of examples/python/fwi_gradient.py
  python3-torch     # PyTorch, the peer of the filter benchmark (bench/torch_peer.py)
  libopenmpi-dev    # Open MPI (Debian's default MPI): headers, libmpi, mpicc.openmpi
  openmpi-bin       # mpirun.openmpi for the distributed tests (docs/Distributed.md)
  python3-mpi4py    # mpi4py, built on Open MPI: stencilad's distributed calls
  debootstrap       # scripts/fresh-machine-test.sh
)

# Installed without their Recommends: python3-torch's (libtorch-dev,
# build-essential, pybind11-dev, and the GTK and Qt libraries these pull
# in) are not used here; OpenCV comes either way, libtorch depends on it.
NO_RECOMMENDS=(python3-torch)

# no_recommends <pkg>: the package is installed without its Recommends.
no_recommends() {
  local p
  for p in "${NO_RECOMMENDS[@]}"; do
    [ "$p" = "$1" ] && return 0
  done
  return 1
}

# is_installed <pkg>: dpkg says the package is fully installed.
is_installed() {
  local status
  status="$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" || return 1
  [ "$status" = "install ok installed" ]
}

# has_candidate <pkg>: the configured apt sources offer a version of it.
has_candidate() {
  local policy
  policy="$(apt-cache policy "$1" 2>/dev/null)" || return 1
  case "$policy" in
    *"Candidate: (none)"*) return 1 ;;
    *"Candidate: "*) return 0 ;;
    *) return 1 ;;
  esac
}

# check_candidates <pkg...>: reports every package without a candidate.
check_candidates() {
  local bad=0 pkg
  for pkg in "$@"; do
    if ! has_candidate "$pkg"; then
      echo "install-deps: no installable candidate for '$pkg' in the configured" \
           "apt sources (the LLVM 22 packages come from Debian 12's archive;" \
           "apt.llvm.org's llvm-toolchain-bookworm-22 provides them too)" >&2
      bad=1
    fi
  done
  return "$bad"
}

if [ "${1:-}" = "--check" ]; then
  check_candidates "${PACKAGES[@]}"
  # --simulate needs no root and changes nothing; it fails on unresolvable
  # dependencies exactly where a real install would.
  if ! apt-get install --simulate -q -y "${PACKAGES[@]}" >/dev/null ||
     ! apt-get install --simulate -q -y --no-install-recommends \
         "${NO_RECOMMENDS[@]}" >/dev/null; then
    echo "install-deps: apt-get install --simulate failed" >&2
    exit 1
  fi
  echo "install-deps: --check: all ${#PACKAGES[@]} packages resolve and install (simulated)"
  exit 0
fi

missing=()
for pkg in "${PACKAGES[@]}"; do
  is_installed "$pkg" || missing+=("$pkg")
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages already installed"
  exit 0
fi

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
  else
    echo "install-deps: missing packages (${missing[*]}) and not root" >&2
    exit 1
  fi
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update
check_candidates "${missing[@]}"
plain=()
bare=()
for pkg in "${missing[@]}"; do
  if no_recommends "$pkg"; then bare+=("$pkg"); else plain+=("$pkg"); fi
done
if [ "${#plain[@]}" -gt 0 ]; then
  "${SUDO[@]}" apt-get install -y "${plain[@]}"
fi
if [ "${#bare[@]}" -gt 0 ]; then
  "${SUDO[@]}" apt-get install -y --no-install-recommends "${bare[@]}"
fi
