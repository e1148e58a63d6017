#!/usr/bin/env bash
#===- install-deps.sh - Install the build and test dependencies ----------===//
#
# Installs, with apt-get, exactly the Debian 12 packages the project needs
# (docs: /work/shared/TOOLCHAIN.md section 1): LLVM/MLIR 22 headers, archives
# and tools, clang-22, libomp, Google Benchmark, CMake, Ninja, lld, python3.
#
# Idempotent: when every package is already installed it does nothing, not
# even `apt-get update`. Must run as root (or with sudo available).
#
#===----------------------------------------------------------------------===//
set -euo pipefail

PACKAGES=(
  llvm-22-dev       # LLVMConfig.cmake, libLLVM.so
  libmlir-22-dev    # MLIR headers, archives, MLIRConfig.cmake
  mlir-22-tools     # mlir-opt, mlir-translate, mlir-runner, mlir-tblgen
  llvm-22-tools     # FileCheck, not, count, lit
  clang-22          # C/C++ compiler; compiles the generated LLVM IR
  libomp-22-dev     # OpenMP runtime (libomp.so) for the lowered code
  libbenchmark-dev  # Google Benchmark (bench/)
  ninja-build
  cmake
  lld
  python3           # lit, scripts/stencil-compile
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
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
for pkg in "${missing[@]}"; do
  if ! apt-cache policy "$pkg" 2>/dev/null | grep -q 'Candidate: [^(]'; then
    echo "install-deps: no installable candidate for '$pkg' in the configured apt" \
         "sources (LLVM 22 packages come from the Debian 12 archive this project" \
         "was verified with; apt.llvm.org's llvm-toolchain-bookworm-22" \
         "repository provides them too)" >&2
    exit 1
  fi
done
"${SUDO[@]}" apt-get install -y "${missing[@]}"
