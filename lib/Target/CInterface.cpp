//===- CInterface.cpp - The C interface of compiled stencil code -*- C++ -*-===//
//
// This file implements the plan of a module's C interface (which entry
// points, how each value is passed) and the C header printed from it. The
// descriptor structs themselves are in the installed
// include/Stencil/ABI/StencilABI.h, which the header includes.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Target/CInterface.h"

#include "Stencil/ABI/StencilABI.h"
#include "Stencil/Dialect/StencilDialect.h"
#include "Stencil/Distribution/DistributionPlan.h"
#include "Stencil/Runtime/Checkpoint.h"
#include "Stencil/Runtime/DistributedLayout.h"
#include "Stencil/Target/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::stencil;

static constexpr int64_t kMaxDescriptorRank = STENCIL_ABI_MAX_RANK;

static std::string printType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// The C spelling of a scalar type at the C interface, or "" if it has none.
static StringRef scalarCType(Type type) {
  if (type.isF64())
    return "double";
  if (type.isF32())
    return "float";
  if (type.isIndex() || type.isInteger(64))
    return "int64_t";
  if (type.isInteger(32))
    return "int32_t";
  if (type.isInteger(16))
    return "int16_t";
  if (type.isInteger(8))
    return "int8_t";
  if (type.isInteger(1))
    return "bool";
  return "";
}

/// Describes how `type` crosses the interface; fails for types it cannot
/// pass (the caller reports them).
static FailureOr<CValue> describe(Type type) {
  CValue value;
  value.mlirType = printType(type);
  if (StringRef scalar = scalarCType(type); !scalar.empty()) {
    value.type = scalar.str();
    value.element = value.mlirType;
    return value;
  }
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !memref.getLayout().isIdentity() ||
      memref.getMemorySpace() || memref.getRank() > kMaxDescriptorRank ||
      !(memref.getElementType().isF32() || memref.getElementType().isF64()))
    return failure();
  value.element = memref.getElementType().isF64() ? "f64" : "f32";
  value.type = "StencilMemRef" + std::to_string(memref.getRank()) + "D_" +
               value.element;
  value.isDescriptor = true;
  value.rank = memref.getRank();
  for (int64_t extent : memref.getShape())
    value.shape.push_back(ShapedType::isDynamic(extent) ? -1 : extent);
  return value;
}

/// The name an argument carries in the IR: a `NameLoc` location, if any.
static StringRef argumentName(BlockArgument arg) {
  if (auto name = dyn_cast<NameLoc>(arg.getLoc()))
    return name.getName().getValue();
  return "";
}

/// Sets the roles of an adjoint's arguments from the attributes
/// --stencil-adjoint sets (StencilDialect.td): the primal's arguments, a
/// shadow per `stencil.shadows_of` entry, the seeds, `stencil.extra_args`.
static LogicalResult setRoles(func::FuncOp func, CEntryPoint &entry) {
  using D = StencilDialect;
  auto shadows =
      func->getAttrOfType<DenseI64ArrayAttr>(D::ShadowsOfAttrHelper::getNameStr());
  auto extras = func->getAttrOfType<ArrayAttr>(D::ExtraArgsAttrHelper::getNameStr());
  auto primal = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      func, StringAttr::get(func.getContext(), entry.adjointOf));
  if (!extras)
    return success();
  int64_t numArgs = entry.arguments.size();
  if (!shadows || !primal) {
    // A primal with extra arguments (the global extents of a distributed
    // function) has them last.
    int64_t next = numArgs - int64_t(extras.size());
    if (next < 0)
      return func.emitOpError() << "has fewer arguments than extra arguments";
    for (Attribute name : extras) {
      entry.arguments[next].role = CValue::Role::Extra;
      entry.arguments[next++].extra = cast<StringAttr>(name).getValue().str();
    }
    return success();
  }
  // The primal's own extra arguments are not among the adjoint's primal
  // arguments: the adjoint has its extras (the primal's included) last.
  int64_t first = primal.getNumArguments();
  if (auto primalExtras = primal->getAttrOfType<ArrayAttr>(
          D::ExtraArgsAttrHelper::getNameStr()))
    first -= int64_t(primalExtras.size());
  int64_t seeds = numArgs - first - int64_t(shadows.size()) -
                  int64_t(extras.size());
  if (seeds != int64_t(primal.getNumResults()))
    return func.emitOpError()
           << "has arguments that do not match its primal's, its shadows "
              "and its extra arguments";
  int64_t next = first;
  for (int64_t of : shadows.asArrayRef()) {
    entry.arguments[next].role = CValue::Role::Shadow;
    entry.arguments[next++].of = of;
  }
  for (int64_t k = 0; k < seeds; ++k) {
    entry.arguments[next].role = CValue::Role::Seed;
    entry.arguments[next++].of = k;
  }
  for (Attribute name : extras) {
    entry.arguments[next].role = CValue::Role::Extra;
    entry.arguments[next++].extra = cast<StringAttr>(name).getValue().str();
  }
  return success();
}

FailureOr<CEntryPoint> mlir::stencil::planEntryPoint(func::FuncOp func) {
  CEntryPoint entry;
  entry.symbol = func.getSymName().str();
  if (auto primal = func->getAttrOfType<FlatSymbolRefAttr>(
          StencilDialect::AdjointOfAttrHelper::getNameStr()))
    entry.adjointOf = primal.getValue().str();
  if (auto dist = func->getAttrOfType<DictionaryAttr>(
          StencilDialect::DistributionAttrHelper::getNameStr())) {
    ArrayRef<int64_t> grid = dist.getAs<DenseI64ArrayAttr>("grid");
    entry.grid.assign(grid.begin(), grid.end());
    entry.halo = dist.getAs<IntegerAttr>("halo").getInt();
    if (auto blocks = dist.getAs<DenseI64ArrayAttr>("blocks"))
      entry.blocks.assign(blocks.asArrayRef().begin(),
                          blocks.asArrayRef().end());
  }
  if (entry.symbol.empty() || llvm::isDigit(entry.symbol.front()) ||
      !llvm::all_of(entry.symbol,
                    [](char c) { return llvm::isAlnum(c) || c == '_'; }))
    return func.emitOpError()
           << "has a C interface but its name is not a C identifier";
  llvm::StringSet<> taken;
  for (BlockArgument arg : func.getArguments()) {
    FailureOr<CValue> value = describe(arg.getType());
    if (failed(value))
      return func.emitOpError()
             << "argument #" << arg.getArgNumber() << " of type "
             << arg.getType()
             << " is not supported yet at the C interface (f32/f64 memrefs "
                "of identity layout and rank <= "
             << kMaxDescriptorRank << ", f32, f64, index, i1-i64)";
    value->name = cParameterName(argumentName(arg), arg.getArgNumber(), taken);
    entry.arguments.push_back(std::move(*value));
  }
  for (auto [index, type] : llvm::enumerate(func.getResultTypes())) {
    FailureOr<CValue> value = describe(type);
    if (failed(value))
      return func.emitOpError() << "result #" << index << " of type " << type
                                << " is not supported yet at the C interface";
    value->name = "r" + std::to_string(index);
    entry.results.push_back(std::move(*value));
  }
  if (entry.results.size() == 1 && !entry.results.front().isDescriptor)
    entry.resultKind = CEntryPoint::ResultKind::Return;
  else if (!entry.results.empty())
    entry.resultKind = CEntryPoint::ResultKind::Pointer;
  if (failed(setRoles(func, entry)))
    return failure();
  return entry;
}

FailureOr<std::vector<CEntryPoint>>
mlir::stencil::planCInterface(ModuleOp module) {
  std::vector<CEntryPoint> entryPoints;
  bool failedAny = false;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal() || !func.isPublic() ||
        !func->hasAttr("llvm.emit_c_interface"))
      continue;
    FailureOr<CEntryPoint> entry = planEntryPoint(func);
    if (failed(entry))
      failedAny = true;
    else
      entryPoints.push_back(std::move(*entry));
  }
  if (failedAny)
    return failure();
  return entryPoints;
}

static void printPrototype(const CEntryPoint &entry, raw_ostream &os) {
  os << "/// @" << entry.symbol << "(";
  llvm::interleaveComma(entry.arguments, os, [&](const CValue &value) {
    os << "%" << value.name << ": " << value.mlirType;
  });
  os << ")";
  if (!entry.results.empty()) {
    os << " -> ";
    llvm::interleaveComma(entry.results, os,
                          [&](const CValue &value) { os << value.mlirType; });
  }
  os << "\n";
  if (!entry.grid.empty()) {
    os << "/// Distributed over a ";
    llvm::interleave(
        entry.grid, os,
        [&](int64_t p) {
          if (p == kRunTimeExtent)
            os << "?";
          else
            os << p;
        },
        "x");
    os << " process grid (`?`: chosen at run time): each array is the "
          "rank's block with "
       << entry.halo
       << " halo points per side; stencil_dist_layout_" << entry.symbol
       << "() describes them (docs/Distributed.md).\n";
  }
  if (!entry.adjointOf.empty())
    os << "/// Adjoint of @" << entry.adjointOf << ": pass @" << entry.adjointOf
       << "'s arguments as they were before @" << entry.adjointOf
       << " ran (the adjoint recomputes what it needs from them).\n"
       << "/// A call of @" << entry.adjointOf
       << " overwrites the arrays it writes (a time loop advances its\n"
       << "/// states): keep copies from before it. This call may overwrite"
       << " them too.\n";
  SmallVector<std::string> params;
  std::string returnType = "void";
  if (entry.resultKind == CEntryPoint::ResultKind::Return)
    returnType = entry.results.front().type;
  else if (entry.results.size() == 1)
    params.push_back(entry.results.front().type + " *result");
  else if (entry.resultKind == CEntryPoint::ResultKind::Pointer)
    params.push_back(entry.symbol + "_results *results");
  for (const CValue &value : entry.arguments)
    params.push_back(value.type + (value.isDescriptor ? " *" : " ") +
                     value.name);
  os << returnType << " _mlir_ciface_" << entry.symbol << "(";
  if (params.empty())
    os << "void";
  llvm::interleaveComma(params, os);
  os << ");\n\n";
}

/// The layout of a distributed entry point's arrays, for
/// stencil_dist_block_init (Stencil/Runtime/Distributed.h).
static void printLayout(const CEntryPoint &entry, raw_ostream &os) {
  if (entry.grid.empty())
    return;
  os << "/// The blocks of @" << entry.symbol
     << "'s arrays: grid (0: chosen at run time) and halo.\n"
     << "static inline stencil_dist_layout stencil_dist_layout_"
     << entry.symbol << "(void) {\n  stencil_dist_layout layout = {"
     << entry.grid.size() << ", " << entry.halo << ", {";
  llvm::interleaveComma(entry.grid, os);
  os << "}};\n  return layout;\n}\n\n";
}

static void printResultsStruct(const CEntryPoint &entry, raw_ostream &os) {
  if (entry.results.size() < 2)
    return;
  os << "/// Results of @" << entry.symbol << ", in order.\n";
  os << "typedef struct {";
  for (const CValue &value : entry.results)
    os << " " << value.type << " " << value.name << ";";
  os << " } " << entry.symbol << "_results;\n\n";
}

/// Prints `path` for a `/* */` comment: bytes other than letters, digits
/// and ` ._/+,:=@~-` as `%XX` (percent-encoding), so that no `*/`, line
/// splice (`\`), trigraph (`??/`) or newline can end the comment early.
static void printPathForComment(StringRef path, raw_ostream &os) {
  for (unsigned char c : path) {
    if (llvm::isAlnum(c) || StringRef(" ._/+,:=@~-").contains(c))
      os << c;
    else
      os << '%' << llvm::hexdigit(c >> 4) << llvm::hexdigit(c & 15);
  }
}

void mlir::stencil::printCHeader(ArrayRef<CEntryPoint> entryPoints,
                                 StringRef source, StringRef guard,
                                 raw_ostream &os) {
  os << "/* Generated from ";
  printPathForComment(source, os);
  os << " by the stencil compiler. Do not "
     << "edit. */\n"
     << "/* C ABI: docs/ABI.md. Arrays passed to one call must not overlap. "
     << "*/\n"
     << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include \"Stencil/ABI/StencilABI.h\"\n";
  if (llvm::any_of(entryPoints,
                   [](const CEntryPoint &entry) { return !entry.grid.empty(); }))
    os << "#include \"Stencil/Runtime/DistributedLayout.h\"\n";
  os << "\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  for (const CEntryPoint &entry : entryPoints) {
    printResultsStruct(entry, os);
    printPrototype(entry, os);
    printLayout(entry, os);
  }
  os << "#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n"
     << "#endif /* " << guard << " */\n";
}

std::string mlir::stencil::getHeaderGuard(StringRef source,
                                          StringRef headerName) {
  std::string guard = "STENCIL_GENERATED_";
  for (char c : llvm::sys::path::filename(headerName.empty() ? source
                                                             : headerName))
    guard += llvm::isAlnum(c) ? llvm::toUpper(c) : '_';
  if (headerName.empty())
    guard += "_H";
  return guard;
}

LogicalResult mlir::stencil::emitCHeader(ModuleOp module, StringRef source,
                                         StringRef headerName,
                                         raw_ostream &os) {
  FailureOr<std::vector<CEntryPoint>> entryPoints = planCInterface(module);
  if (failed(entryPoints))
    return failure();
  printCHeader(*entryPoints, source, getHeaderGuard(source, headerName), os);
  return success();
}

static StringRef roleName(CValue::Role role) {
  switch (role) {
  case CValue::Role::Argument:
    return "argument";
  case CValue::Role::Shadow:
    return "shadow";
  case CValue::Role::Seed:
    return "seed";
  case CValue::Role::Extra:
    return "extra";
  }
  llvm_unreachable("unknown role");
}

static llvm::json::Array valuesToJSON(ArrayRef<CValue> values) {
  llvm::json::Array out;
  for (const CValue &value : values) {
    llvm::json::Object object{
        {"name", value.name},
        {"kind", value.isDescriptor ? "descriptor" : "scalar"},
        {"c_type", value.type},
        {"mlir_type", value.mlirType},
        {"rank", value.rank},
        {"element", value.element},
        {"role", roleName(value.role)}};
    if (value.isDescriptor) {
      llvm::json::Array shape;
      for (int64_t extent : value.shape)
        shape.push_back(extent < 0 ? llvm::json::Value(nullptr)
                                   : llvm::json::Value(extent));
      object["shape"] = std::move(shape);
    }
    if (value.of >= 0)
      object["of"] = value.of;
    if (!value.extra.empty())
      object["extra"] = value.extra;
    out.push_back(std::move(object));
  }
  return out;
}

void mlir::stencil::printCInterfaceJSON(
    ArrayRef<CEntryPoint> entryPoints, raw_ostream &os,
    const llvm::StringMap<FunctionAccessBounds> *bounds) {
  // The descriptor's fields and the run-time library's structs, from the
  // tables that the C headers build them from.
#define STENCIL_FIELD_JSON(name, type, count, T, R)                            \
  llvm::json::Object{{"name", #name}, {"type", #type}, {"count", #count}},
  llvm::json::Array fields{
      STENCIL_ABI_DESCRIPTOR_FIELDS(STENCIL_FIELD_JSON, , )};
  llvm::json::Object runtimeStructs{
      {"stencil_ckpt_stats",
       llvm::json::Array{STENCIL_CKPT_STATS_FIELDS(STENCIL_FIELD_JSON, , )}},
      {"stencil_dist_layout",
       llvm::json::Array{STENCIL_DIST_LAYOUT_FIELDS(STENCIL_FIELD_JSON, , )}},
      {"stencil_dist_block",
       llvm::json::Array{STENCIL_DIST_BLOCK_FIELDS(STENCIL_FIELD_JSON, , )}}};
#undef STENCIL_FIELD_JSON
  llvm::json::Array entries;
  for (const CEntryPoint &entry : entryPoints) {
    StringRef results =
        entry.resultKind == CEntryPoint::ResultKind::Return    ? "return"
        : entry.resultKind == CEntryPoint::ResultKind::Pointer ? "pointer"
                                                                : "none";
    llvm::json::Object object{
        {"symbol", entry.symbol},
        {"c_symbol", "_mlir_ciface_" + entry.symbol},
        {"arguments", valuesToJSON(entry.arguments)},
        {"results", valuesToJSON(entry.results)},
        {"result_passing", results}};
    if (!entry.adjointOf.empty())
      object["adjoint_of"] = entry.adjointOf;
    if (!entry.grid.empty())
      object["distribution"] = llvm::json::Object{
          {"grid", llvm::json::Array(entry.grid)},
          {"halo", entry.halo},
          {"blocks", llvm::json::Array(entry.blocks)}};
    // An adjoint accesses its primal arguments where its primal does, and
    // each shadow where its array is accessed (same shape).
    StringRef planned = entry.adjointOf.empty() ? StringRef(entry.symbol)
                                                : StringRef(entry.adjointOf);
    if (bounds) {
      auto it = bounds->find(planned);
      object["bounds"] =
          it == bounds->end()
              ? llvm::json::Value(llvm::json::Object{
                    {"accesses", llvm::json::Array{}},
                    {"same_shape", llvm::json::Array{}},
                    {"unsupported", "no bounds were planned for it"}})
              : it->second.toJSON();
    }
    entries.push_back(std::move(object));
  }
  os << llvm::json::Value(llvm::json::Object{
      {"descriptor_fields", std::move(fields)},
      {"entry_points", std::move(entries)},
      {"runtime_structs", std::move(runtimeStructs)}});
  os << "\n";
}

PlanAfterPrepareABI::PlanAfterPrepareABI()
    : prepareABI(createStencilPrepareABIPass()->getArgument()) {}

void PlanAfterPrepareABI::runAfterPass(Pass *pass, Operation *op) {
  auto module = dyn_cast<ModuleOp>(op);
  if (module && pass->getArgument() == prepareABI)
    plan = planCInterface(module);
}
