//===- Params.cpp - C parameters as function arguments ---------------------===//
//
// `double u[n][n]`, `double c[8][8]`, `double (*u)[N]` and `double *u` are
// arrays (memrefs), integers are sizes (`index`), `double`/`float` are
// scalars. Arrays that may alias are refused unless told otherwise.
//
//===----------------------------------------------------------------------===//

#include "Analysis.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::stencil::importc;
using namespace clang;

/// The activity annotation on parameters.
static constexpr llvm::StringLiteral kActiveAnnotation = "stencil_active";

/// f64/f32 for C's double/float, null otherwise.
static mlir::Type floatType(QualType type, MLIRContext *ctx) {
  if (type->isSpecificBuiltinType(BuiltinType::Double))
    return Float64Type::get(ctx);
  if (type->isSpecificBuiltinType(BuiltinType::Float))
    return Float32Type::get(ctx);
  return nullptr;
}

static std::string extentText(const ArrayType *array, const Locator &loc) {
  if (const auto *vla = dyn_cast<VariableArrayType>(array))
    return loc.source(vla->getSizeExpr());
  if (const auto *fixed = dyn_cast<ConstantArrayType>(array))
    return std::to_string(fixed->getSize().getZExtValue());
  return "?";
}

/// `double u[n][m]` (adjusted to `double (*)[m]`), `double (*u)[8]`,
/// `double *u`: the extents, the element type and the qualifiers.
static LogicalResult classifyArray(const ParmVarDecl *p, const Locator &loc,
                                   ParamPlan &out) {
  ASTContext &ast = loc.getAST();
  QualType adjusted = p->getType();
  out.kind = ParamKind::Array;
  out.restrict = adjusted.isRestrictQualified();
  // The outermost extent lives only in the type as written.
  const ArrayType *written = ast.getAsArrayType(p->getOriginalType());
  out.extents.push_back(written ? extentText(written, loc) : "?");
  out.shape.push_back(ShapedType::kDynamic);
  QualType element = adjusted->getAs<PointerType>()->getPointeeType();
  while (const ArrayType *array = ast.getAsArrayType(element)) {
    out.extents.push_back(extentText(array, loc));
    const auto *fixed = dyn_cast<ConstantArrayType>(array);
    if (!fixed && !isa<VariableArrayType>(array))
      return loc.error(p->getLocation())
             << "'" << p->getName() << "': an array of unknown inner extent";
    out.shape.push_back(fixed ? int64_t(fixed->getSize().getZExtValue())
                              : ShapedType::kDynamic);
    element = array->getElementType();
  }
  out.readOnly = element.isConstQualified();
  out.element = floatType(element.getUnqualifiedType().getCanonicalType(),
                          loc.getContext());
  if (!out.element)
    return loc.error(p->getLocation())
           << "'" << p->getName() << "' is an array of '"
           << element.getAsString()
           << "': only arrays of double and float are imported";
  return success();
}

static LogicalResult classifyParam(const ParmVarDecl *p, const Locator &loc,
                                   ParamPlan &out) {
  QualType type = p->getType().getCanonicalType();
  out.name = p->getName().str();
  out.loc = loc.loc(p->getLocation());
  if (p->getName().empty())
    return loc.error(p->getLocation()) << "unnamed parameter";
  if (type->isPointerType())
    return classifyArray(p, loc, out);
  if (type->isIntegerType() && !type->isBooleanType() &&
      !type->isEnumeralType()) {
    out.kind = ParamKind::Size;
    return success();
  }
  if (mlir::Type element = floatType(type.getUnqualifiedType(), loc.getContext())) {
    out.kind = ParamKind::Scalar;
    out.element = element;
    return success();
  }
  return loc.error(p->getLocation())
         << "parameter '" << p->getName() << "' of type '"
         << p->getType().getAsString()
         << "': parameters are arrays or pointers of double or float, "
            "integers (sizes) or double and float scalars";
}

static bool annotatedActive(const ParmVarDecl *p) {
  for (const auto *attr : p->specific_attrs<AnnotateAttr>())
    if (attr->getAnnotation() == kActiveAnnotation)
      return true;
  return false;
}

LogicalResult mlir::stencil::importc::analyzeParams(Analysis &a) {
  const FunctionDecl *fd = a.ast.decl;
  for (const ParmVarDecl *p : fd->parameters()) {
    ParamPlan param;
    if (failed(classifyParam(p, a.locator, param)))
      return failure();
    bool listed = llvm::is_contained(a.options.active, param.name);
    param.active = listed || annotatedActive(p);
    if (param.active && param.kind == ParamKind::Size)
      return a.locator.error(p->getLocation())
             << "'" << param.name
             << "' is an integer and cannot be active: only float arrays "
                "and scalars have derivatives";
    a.ast.paramIndex[p] = a.plan.params.size();
    a.ast.declOf.push_back(p);
    a.plan.params.push_back(std::move(param));
  }
  return success();
}

LogicalResult mlir::stencil::importc::checkAliasing(Analysis &a) {
  auto &params = a.plan.params;
  // What a pointer local does, it does to the array it starts as.
  for (size_t i = params.size(); i-- > 0;) {
    if (params[i].initial < 0)
      continue;
    ParamPlan &start = params[params[i].initial];
    start.used |= params[i].used;
    start.written |= params[i].written;
  }
  if (a.options.assumeNoAlias)
    return success();
  for (auto [i, p] : llvm::enumerate(params)) {
    if (p.kind != ParamKind::Array || !p.used || p.restrict || p.initial >= 0)
      continue;
    for (size_t j = 0; j < i; ++j) {
      const ParamPlan &q = params[j];
      if (q.kind != ParamKind::Array || !q.used || q.restrict ||
          q.initial >= 0 ||
          q.element != p.element || !(p.written || q.written))
        continue;
      const ParamPlan &w = p.written ? p : q;
      return emitError(p.loc)
             << "'" << q.name << "' and '" << p.name
             << "' may alias (neither is restrict-qualified) and '" << w.name
             << "' is written: the adjoint of a loop whose arrays overlap is "
                "not a stencil adjoint; declare them 'restrict' or pass "
                "--assume-no-alias";
    }
  }
  return success();
}
