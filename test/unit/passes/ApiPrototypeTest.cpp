//===- ApiPrototypeTest.cpp - The API tables against the real headers -----===//
//
// Every argument a row of apis/include/orrery/apis/*.def references (`$N`)
// must be a parameter of the function the header declares: the CUDA 13
// headers (when installed), SMPI's and Open MPI's mpi.h, RAMC's headers and
// the mock headers of the tier-0 tests, which must declare every CUDA and MPI
// row.
//
//===----------------------------------------------------------------------===//

#include "orrery/passes/ApiTable.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

using namespace clang;
using namespace llvm;
using namespace orrery;

namespace {

/// Parses code that includes API headers, as C++ (which sees the overloads
/// cuda_runtime.h adds, such as cudaEventCreate's with flags) or as C.
std::unique_ptr<ASTUnit> parseHeaders(StringRef Code,
                                      std::vector<std::string> Args,
                                      bool CPlusPlus = false) {
  Args.insert(Args.begin(), {"-resource-dir", ORRERY_CLANG_RESOURCE_DIR});
  return tooling::buildASTFromCodeWithArgs(
      Code, Args, CPlusPlus ? "apis.cpp" : "apis.c", "orrery-api-prototypes");
}

/// Every declaration of a function, overloads and templates included.
std::vector<const FunctionDecl *> findFunctions(ASTContext &Ctx,
                                                StringRef Name) {
  std::vector<const FunctionDecl *> Out;
  // Versioned entry points (cuda.h maps cuCtxCreate to cuCtxCreate_v2).
  for (std::string N : {Name.str(), Name.str() + "_v2"})
    for (const NamedDecl *D :
         Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get(N)))
      if (const FunctionDecl *FD = D->getAsFunction())
        Out.push_back(FD);
  return Out;
}

/// The argument indices a template references (`$N`).
std::vector<unsigned> references(StringRef Template) {
  std::vector<unsigned> Out;
  for (size_t I = Template.find('$'); I != StringRef::npos;
       I = Template.find('$', I + 1)) {
    size_t J = I + 1;
    while (J < Template.size() && isDigit(Template[J]))
      ++J;
    unsigned N;
    if (J > I + 1 && !Template.slice(I + 1, J).getAsInteger(10, N))
      Out.push_back(N);
  }
  return Out;
}

/// Checks every row of Rows against the declarations in AST. With
/// RequireAll, a row the headers do not declare is an error too.
void checkRows(ArrayRef<ApiSpec> Rows, ASTUnit &AST, const char *Headers,
               const char *DefFile, bool RequireAll) {
  ASTContext &Ctx = AST.getASTContext();
  SourceManager &SM = Ctx.getSourceManager();
  for (const ApiSpec &S : Rows) {
    std::vector<const FunctionDecl *> Decls = findFunctions(Ctx, S.Name);
    if (Decls.empty()) {
      if (RequireAll)
        ADD_FAILURE() << Headers << " declare no '" << S.Name
                      << "': fix the row's name in " << DefFile
                      << " or declare it in the mock header";
      continue;
    }
    // The overload with the most parameters: a reference beyond another
    // overload's last argument reads as 0 there.
    const FunctionDecl *FD = *std::max_element(
        Decls.begin(), Decls.end(), [](const auto *A, const auto *B) {
          return A->getNumParams() < B->getNumParams();
        });
    unsigned Params = FD->getNumParams();
    std::string Where = FD->getLocation().printToString(SM);
    std::vector<std::pair<std::string, unsigned>> Refs;
    for (const char *T : {S.A.Ptr, S.A.Count, S.A.Type, S.B.Ptr, S.B.Count,
                          S.B.Type, S.Aux, S.Handle, S.Extra, S.Match.SendTag,
                          S.Match.Source, S.Match.RecvTag, S.Match.Request})
      for (unsigned N : references(T))
        Refs.push_back({T, N});
    if (S.Kind == SiteKind::Launch) // grid, block, shared memory, stream
      for (unsigned N : {1u, 2u, 4u, 5u})
        Refs.push_back({"launch geometry", N});
    for (const auto &[T, N] : Refs)
      EXPECT_TRUE(N < Params || FD->isVariadic())
          << DefFile << ": row " << S.Name << " references $" << N << " in '"
          << T << "', but " << S.Name << " has " << Params << " parameter(s) ("
          << Where << "); fix the row's argument index";
    // A copy's direction is its cudaMemcpyKind; a math-library result
    // (cuBLAS DOT, GetVector) always goes to the host.
    if (S.DeviceRead && StringRef(S.Op) != "Library") {
      std::vector<unsigned> Kind = references(S.Aux);
      ASSERT_EQ(Kind.size(), 1u) << S.Name << ": a device read's Aux must be "
                                 << "its cudaMemcpyKind argument";
      if (Kind[0] < Params)
        EXPECT_NE(FD->getParamDecl(Kind[0])->getType().getAsString().find(
                      "cudaMemcpyKind"),
                  std::string::npos)
            << DefFile << ": row " << S.Name << ": Aux $" << Kind[0]
            << " is not the cudaMemcpyKind parameter (" << Where << ")";
    }
  }
}

const char *const CudaDef =
    "apis/include/orrery/apis/Cuda.def (or MathLibs.def, Nccl.def)";
const char *const MpiDef = "apis/include/orrery/apis/Mpi.def";
const char *const RamcDef = "apis/include/orrery/apis/Ramc.def";

} // namespace

TEST(ApiPrototypeTest, CudaRowsMatchTheCudaHeaders) {
#ifndef ORRERY_CUDA_INCLUDE
  GTEST_SKIP() << "the CUDA toolkit is not installed";
#else
  auto AST = parseHeaders("#include <cuda.h>\n#include <cuda_profiler_api.h>\n"
                          "#include <cuda_runtime.h>\n#include <cublas_v2.h>\n"
                          "#include <cusparse.h>\n#include <cufft.h>\n"
                          "#include <curand.h>\n",
                          {"-I", ORRERY_CUDA_INCLUDE, "-include",
                           ORRERY_SKELETON_INCLUDE "/nccl.h"},
                          /*CPlusPlus=*/true);
  ASSERT_TRUE(AST && !AST->getDiagnostics().hasErrorOccurred());
  checkRows(cudaApis(), *AST, "the CUDA headers", CudaDef, true);
#endif
}

TEST(ApiPrototypeTest, CudaRowsMatchTheMockHeaders) {
  auto AST = parseHeaders("#include <cuda.h>\n#include <cuda_runtime.h>\n"
                          "#include <cublas_v2.h>\n#include <cusparse.h>\n"
                          "#include <cufft.h>\n#include <curand.h>\n"
                          "#include <nccl.h>\n",
                          {"-isystem", ORRERY_MOCK_INCLUDE},
                          /*CPlusPlus=*/true);
  ASSERT_TRUE(AST && !AST->getDiagnostics().hasErrorOccurred());
  checkRows(cudaApis(), *AST, "test/Inputs/mock/cu*.h", CudaDef, true);
}

TEST(ApiPrototypeTest, MpiRowsMatchSmpi) {
#ifndef ORRERY_SMPI_INCLUDE
  GTEST_SKIP() << "SimGrid is not installed";
#else
  auto AST = parseHeaders("#include <mpi.h>\n", {"-I", ORRERY_SMPI_INCLUDE});
  ASSERT_TRUE(AST && !AST->getDiagnostics().hasErrorOccurred());
  checkRows(mpiApis(), *AST, "SMPI's mpi.h", MpiDef, true);
#endif
}

TEST(ApiPrototypeTest, MpiRowsMatchOpenMpi) {
#ifndef ORRERY_OMPI_INCLUDE
  GTEST_SKIP() << "Open MPI is not installed";
#else
  auto AST = parseHeaders("#include <mpi.h>\n", {"-I", ORRERY_OMPI_INCLUDE});
  ASSERT_TRUE(AST && !AST->getDiagnostics().hasErrorOccurred());
  checkRows(mpiApis(), *AST, "Open MPI's mpi.h", MpiDef, true);
#endif
}

TEST(ApiPrototypeTest, MpiRowsMatchTheMockHeader) {
  auto AST =
      parseHeaders("#include <mpi.h>\n", {"-isystem", ORRERY_MOCK_INCLUDE});
  ASSERT_TRUE(AST && !AST->getDiagnostics().hasErrorOccurred());
  checkRows(mpiApis(), *AST, "test/Inputs/mock/mpi.h", MpiDef, false);
}

TEST(ApiPrototypeTest, RamcRowsMatchRamcHeaders) {
  auto AST = parseHeaders("#include <ramc.h>\n", {"-I", ORRERY_RAMC_INCLUDE});
  ASSERT_TRUE(AST && !AST->getDiagnostics().hasErrorOccurred());
  checkRows(ramcApis(), *AST, "runtime/ramc/include", RamcDef, true);
}
