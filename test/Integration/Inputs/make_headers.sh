# Writes into $1 the headers headers.test and headers-gcc.test compile: those
# of header_names.mlir, of a source under a directory named `x*` (its path
# in the header's first comment ended the comment), and of every bundled
# example, each with its adjoints, as stencil-compile writes them. CLANG is
# /bin/true: only the headers are wanted.
set -e
out=$1 src=$2 inputs=$3
mkdir -p "$out/x*"
cp "$inputs/abi.mlir" "$out/x*/k.mlir"
export CLANG=/bin/true
stencil-compile "$inputs/header_names.mlir" -o "$out/o" --header "$out/names.h" \
  --stencil-adjoint --convert-to-omp
(cd "$out" && stencil-compile 'x*/k.mlir' -o o --header path.h)
for f in "$src"/examples/*.mlir "$src"/examples/fwi/*.mlir; do
  name=$(basename "$f" .mlir)
  stencil-compile "$f" -o "$out/o" --header "$out/example_$name.h" \
    --stencil-adjoint --convert-to-omp
done
for h in "$out"/*.h; do
  printf '#include "%s"\nint main(void) { return 0; }\n' "$(basename "$h")" \
    > "${h%.h}.c"
done
ls "$out"/*.h | wc -l
