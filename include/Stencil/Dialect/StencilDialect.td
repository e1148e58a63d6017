//===- StencilDialect.td - Stencil dialect definition ------*- tablegen -*-===//
//
// This file declares the `stencil` dialect and the base class of its ops.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_DIALECT_STENCILDIALECT_TD
#define STENCIL_DIALECT_STENCILDIALECT_TD

include "mlir/IR/OpBase.td"

def Stencil_Dialect : Dialect {
  let name = "stencil";
  let summary = "Stencil loops with gather reads, centre writes and scatter accumulates";
  let description = [{
    The `stencil` dialect models perfect loop nests over rectangular iteration
    domains with symbolic affine bounds. Inside a `stencil.domain`, arrays
    (memrefs of `f32` or `f64`) are read at constant offsets from the current
    iteration point (`stencil.gather`), written at the current point
    (`stencil.store`, assignment) or accumulated at a constant offset
    (`stencil.accumulate`, `+=`; a non-zero offset is a scatter). The body
    computes with `arith`, `math` and `func.call`.

    This is the representation on which `--stencil-adjoint` builds scatter
    adjoints and on which the scatter-to-gather conversion turns them back
    into race-free gather stencils.
  }];
  let cppNamespace = "::mlir::stencil";

  // The dialect's attributes on other dialects' ops. Each is checked by
  // StencilDialect::verifyOperationAttribute or verifyRegionArgAttribute;
  // any other `stencil.` attribute is rejected, so a misspelt one is an
  // error instead of being ignored.
  //  - `stencil.active` (unit, on an f32/f64 or memref-of-f32/f64 function
  //    argument): --stencil-adjoint differentiates with respect to it.
  //  - `stencil.partials` (array of function symbols, on a call with one
  //    result): the partial derivative of the callee in each operand.
  //  - `stencil.adjoint_of` (symbol, on a function): set by
  //    --stencil-adjoint on the adjoint it creates, naming the primal.
  //  - `stencil.shadows_of` (i64 array) and `stencil.extra_args` (array of
  //    strings), on an adjoint: set by --stencil-adjoint. After the primal's
  //    arguments come one shadow per entry (the primal argument it belongs
  //    to), one seed per primal result, then the extra arguments named
  //    (`snapshots`); the C interface reports each argument's role from
  //    them (docs/ABI.md).
  //  - `stencil.noalias` (unit, on a function): set by --stencil-prepare-abi;
  //    the function's arrays do not overlap, which
  //    --stencil-annotate-noalias states to LLVM after the lowering.
  //  - `stencil.distributed_sum` (dictionary `{dim = K : i64, split =
  //    "slices" | "boxes"}`, on a `stencil.domain` with results): set by
  //    --stencil-distribute; the domain covers this rank's part, and its
  //    sums are those of one process, whose slices are taken along
  //    dimension K (Stencil/Runtime/Distributed.h). With "slices" the rank
  //    holds whole slices (the grid splits only K), with "boxes" a box of
  //    the domain (read through stencil::getDistributedSum).
  //  - `stencil.distribution` (dictionary `{grid = array<i64: ...>, halo =
  //    N : i64}`, on a function): set by --stencil-distribute on the
  //    functions it distributes and on their callers; the process grid and
  //    the halo width of every array argument, for the ABI JSON.
  //  - `stencil.distinct_arrays` (unit, on a GPU kernel): set by
  //    --stencil-mark-gpu-kernel-args when every launch passes distinct
  //    arrays; --stencil-gpu-kernel-noalias makes the kernel's pointers
  //    `noalias` and removes it.
  //  - `stencil.snapshot_borders` (unit, on an `i1` `arith.constant`): set
  //    by --stencil-adjoint on the flag that selects, in a reversed time
  //    loop, snapshots that keep only the borders of the arrays a step
  //    overwrites; --stencil-distribute keeps it where every box is marked
  //    `stencil.global_index`, else sets it to false (whole arrays) and
  //    folds what tests it. --convert-stencil-to-affine removes it (and
  //    `stencil.global_index`): lowered ops never carry it.
  //  - `stencil.global_index` (i64 `k`, on an op with one `index` result):
  //    set by --stencil-adjoint on the bounds of the box a step overwrites,
  //    in a reversed time loop's driver; the value is a global index of
  //    dimension `k` of the step's arrays. --stencil-distribute turns it
  //    into the rank's local index of that point, clamped to the points the
  //    rank owns, and removes the attribute.
  //  - `stencil.host_memory` (unit, on a `memref.alloc`): set by
  //    --stencil-adjoint on the table of a reversed time loop's clocks
  //    (the scalars it carries passively), which only host code reads and
  //    writes; the GPU pipeline leaves it in host memory
  //    (stencil::isHostMemory).
  //  - `stencil.runtime` (unit, on a module-level symbol): set by the
  //    passes on what they declare or define for the run-time libraries and
  //    the generated code; a symbol of a reserved name without it is the
  //    user's and refused (Stencil/Dialect/ReservedNames.h).
  //  - `stencil.ring` (unit, on a `memref.alloc`): set by
  //    --stencil-cut-shared on the temporaries of a cut whose gather nest
  //    reads them within a few planes of dimension 0 (kMaxRingPlanes,
  //    Stencil/Gather/Passes.h): the one decision that they may become
  //    per-thread rings of planes. --stencil-ring-cut rings only marked
  //    temporaries (where the lowered nests have the shape it needs) and
  //    removes the mark.
  let discardableAttrs = (ins
    "::mlir::UnitAttr":$active,
    "::mlir::ArrayAttr":$partials,
    "::mlir::FlatSymbolRefAttr":$adjoint_of,
    "::mlir::UnitAttr":$noalias,
    "::mlir::DenseI64ArrayAttr":$shadows_of,
    "::mlir::ArrayAttr":$extra_args,
    "::mlir::DictionaryAttr":$distributed_sum,
    "::mlir::DictionaryAttr":$distribution,
    "::mlir::UnitAttr":$distinct_arrays,
    "::mlir::UnitAttr":$snapshot_borders,
    "::mlir::IntegerAttr":$global_index,
    "::mlir::UnitAttr":$host_memory,
    "::mlir::UnitAttr":$runtime,
    "::mlir::UnitAttr":$ring,
    "::mlir::DictionaryAttr":$exchange_finish
  );
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
}

/// Base class of all stencil ops.
class Stencil_Op<string mnemonic, list<Trait> traits = []>
    : Op<Stencil_Dialect, mnemonic, traits>;

/// Element types the dialect computes with.
def Stencil_Float : AnyTypeOf<[F32, F64], "f32 or f64">;

/// Arrays: memrefs of any rank and shape with an f32 or f64 element type.
def Stencil_Array : MemRefOf<[F32, F64]>;

#endif // STENCIL_DIALECT_STENCILDIALECT_TD
