//===- DeviceReads.cpp - What a device-to-host copy writes on the host ----===//

#include "DeviceReads.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringRef.h"

using namespace clang;

namespace orrery {

std::string deviceReadType(const Expr *Dst, const ASTContext &Ctx) {
  QualType T = Dst->IgnoreParenImpCasts()->getType();
  if (const auto *AT = Ctx.getAsArrayType(T))
    return valueTypeOf(AT->getElementType(), Ctx);
  if (T->isPointerType())
    return valueTypeOf(T->getPointeeType(), Ctx);
  return "bytes";
}

std::string valueTypeOf(QualType T, const ASTContext &Ctx) {
  if (T.isNull() || T->isDependentType() || T->isIncompleteType())
    return "bytes";
  T = T.getCanonicalType();
  if (const auto *AT = Ctx.getAsArrayType(T))
    T = AT->getElementType().getCanonicalType();
  const auto *B = T->getAs<BuiltinType>();
  if (!B)
    return "bytes";
  if (B->getKind() == BuiltinType::Float)
    return "f32";
  if (B->getKind() == BuiltinType::Double)
    return "f64";
  if (!B->isInteger())
    return "bytes";
  uint64_t Bits = Ctx.getTypeSize(T);
  if (Bits != 8 && Bits != 16 && Bits != 32 && Bits != 64)
    return "bytes";
  bool Signed = B->isSignedInteger() && B->getKind() != BuiltinType::Bool;
  return (Signed ? "i" : "u") + std::to_string(Bits);
}

std::optional<std::string> devicePragmaValue(SourceLocation Loc,
                                             const SourceManager &SM) {
  Loc = SM.getExpansionLoc(Loc);
  FileID FID = SM.getFileID(Loc);
  bool Invalid = false;
  StringRef Buf = SM.getBufferData(FID, &Invalid);
  if (Invalid)
    return std::nullopt;
  unsigned Line = SM.getExpansionLineNumber(Loc);
  if (Line < 2)
    return std::nullopt;
  SourceLocation Prev = SM.translateLineCol(FID, Line - 1, 1);
  size_t Begin = SM.getFileOffset(Prev);
  size_t End = Buf.find('\n', Begin);
  StringRef Text =
      Buf.slice(Begin, End == StringRef::npos ? Buf.size() : End).trim();
  if (!Text.consume_front("#"))
    return std::nullopt;
  Text = Text.ltrim();
  if (!Text.consume_front("pragma"))
    return std::nullopt;
  Text = Text.ltrim();
  if (!Text.consume_front("orrery"))
    return std::nullopt;
  Text = Text.ltrim();
  if (!Text.consume_front("device_value"))
    return std::nullopt;
  Text = Text.ltrim();
  if (!Text.consume_front("(") || !Text.consume_back(")"))
    return std::nullopt;
  Text = Text.trim();
  if (Text.empty())
    return std::nullopt;
  return Text.str();
}

} // namespace orrery
