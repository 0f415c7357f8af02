#include "orrery/passes/ApiTable.h"

#include "llvm/ADT/StringExtras.h"
#include "gtest/gtest.h"

using namespace orrery;

TEST(ApiTableTest, FindsApisOfEachFamily) {
  const ApiSpec *Memcpy = lookupApi("cudaMemcpyAsync");
  ASSERT_NE(Memcpy, nullptr);
  EXPECT_EQ(Memcpy->Kind, SiteKind::Cuda);
  EXPECT_STREQ(Memcpy->A.Count, "$2");
  EXPECT_STREQ(Memcpy->Handle, "$4");
  const ApiSpec *Allreduce = lookupApi("MPI_Allreduce");
  ASSERT_NE(Allreduce, nullptr);
  EXPECT_EQ(Allreduce->Kind, SiteKind::Mpi);
  EXPECT_EQ(Allreduce->A.Form, BufForm::Mpi);
  EXPECT_EQ(lookupApi("cudaLaunchKernel")->Kind, SiteKind::Launch);
}

TEST(ApiTableTest, PerThreadStreamNamesMapToTheirApi) {
  EXPECT_EQ(canonicalApiName("cudaMemcpyAsync_ptsz"), "cudaMemcpyAsync");
  EXPECT_EQ(canonicalApiName("cudaMemcpy_ptds"), "cudaMemcpy");
  EXPECT_EQ(lookupApi("cudaStreamSynchronize_ptsz"),
            lookupApi("cudaStreamSynchronize"));
}

TEST(ApiTableTest, UnknownNamesAreClassifiedByFamily) {
  SiteKind K;
  EXPECT_EQ(lookupApi("cudaMemcpy3D"), nullptr);
  ASSERT_TRUE(classifyUnknownApi("cudaMemcpy3D", K));
  EXPECT_EQ(K, SiteKind::Cuda);
  ASSERT_TRUE(classifyUnknownApi("MPI_Comm_spawn", K));
  EXPECT_EQ(K, SiteKind::Mpi);
  EXPECT_FALSE(classifyUnknownApi("memcpy", K));
  EXPECT_TRUE(isIgnoredApi("MPI_Wtime"));
}

TEST(ApiTableTest, EveryTemplateReferencesArgumentsOnly) {
  // Templates may hold `$N`, `$L` and expression text; a `$` must always be
  // followed by a digit or L.
  for (const char *Name :
       {"cudaMemcpy2DAsync", "MPI_Sendrecv", "MPI_Alltoallv", "MPI_Put"}) {
    const ApiSpec *S = lookupApi(Name);
    ASSERT_NE(S, nullptr) << Name;
    for (const char *T : {S->A.Ptr, S->A.Count, S->A.Type, S->B.Ptr, S->B.Count,
                          S->B.Type, S->Aux, S->Handle}) {
      llvm::StringRef R(T);
      for (size_t I = R.find('$'); I != llvm::StringRef::npos;
           I = R.find('$', I + 1)) {
        ASSERT_LT(I + 1, R.size()) << Name << ": " << T;
        EXPECT_TRUE(llvm::isDigit(R[I + 1]) || R[I + 1] == 'L')
            << Name << ": " << T;
      }
    }
  }
}
