//===- AtomicFileTest.cpp - writeFileAtomically and friends ---------------===//

#include "orrery/support/AtomicFile.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using orrery::support::replaceFile;
using orrery::support::writeFileAtomically;
using orrery::support::writeTemporaryBeside;

namespace {

/// A fresh directory, removed with its files at the end of the test.
class AtomicFileTest : public ::testing::Test {
protected:
  void SetUp() override {
    char Template[] = "/tmp/orrery-atomic-XXXXXX";
    ASSERT_NE(mkdtemp(Template), nullptr);
    Dir = Template;
  }
  void TearDown() override {
    for (const std::string &F : files())
      std::remove((Dir + "/" + F).c_str());
    rmdir(Dir.c_str());
  }
  std::vector<std::string> files() const {
    std::vector<std::string> Names;
    if (DIR *D = opendir(Dir.c_str())) {
      while (dirent *E = readdir(D))
        if (std::string(E->d_name) != "." && std::string(E->d_name) != "..")
          Names.push_back(E->d_name);
      closedir(D);
    }
    return Names;
  }
  static std::string read(const std::string &Path) {
    std::ifstream In(Path, std::ios::binary);
    std::ostringstream SS;
    SS << In.rdbuf();
    return SS.str();
  }
  static void put(const std::string &Path, const std::string &Text) {
    std::ofstream(Path, std::ios::binary) << Text;
  }
  std::string Dir;
};

/// Limits the size of files this process writes, so that a write fails
/// part-way (EFBIG rather than SIGXFSZ).
class FileSizeLimit {
public:
  explicit FileSizeLimit(rlim_t Bytes) {
    getrlimit(RLIMIT_FSIZE, &Saved);
    OldHandler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit L = Saved;
    L.rlim_cur = Bytes;
    setrlimit(RLIMIT_FSIZE, &L);
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &Saved);
    std::signal(SIGXFSZ, OldHandler);
  }

private:
  rlimit Saved;
  void (*OldHandler)(int);
};

TEST_F(AtomicFileTest, CreatesAMissingTarget) {
  std::string Path = Dir + "/out.json", Error;
  ASSERT_TRUE(writeFileAtomically(Path, "{}\n", Error)) << Error;
  EXPECT_EQ(read(Path), "{}\n");
  EXPECT_EQ(files(), std::vector<std::string>{"out.json"});
}

TEST_F(AtomicFileTest, ReplacesAndKeepsPermissions) {
  std::string Path = Dir + "/out.txt", Error;
  put(Path, "old contents, longer than the new\n");
  ASSERT_EQ(chmod(Path.c_str(), 0640), 0);
  ASSERT_TRUE(writeFileAtomically(Path, "new\n", Error)) << Error;
  EXPECT_EQ(read(Path), "new\n");
  struct stat St;
  ASSERT_EQ(stat(Path.c_str(), &St), 0);
  EXPECT_EQ(St.st_mode & 0777, 0640u);
  EXPECT_EQ(files(), std::vector<std::string>{"out.txt"});
}

TEST_F(AtomicFileTest, PartialWriteLeavesTheOldFileAndNoTemporary) {
  std::string Path = Dir + "/report.json", Error;
  put(Path, "old\n");
  std::string Big(1 << 16, 'x');
  bool Ok;
  {
    FileSizeLimit Limit(4096); // the write stops after 4 KiB
    Ok = writeFileAtomically(Path, Big, Error);
  }
  EXPECT_FALSE(Ok);
  EXPECT_EQ(read(Path), "old\n");
  EXPECT_EQ(files(), std::vector<std::string>{"report.json"});
  EXPECT_NE(Error.find(Path), std::string::npos) << Error;
  EXPECT_NE(Error.find("left unchanged"), std::string::npos) << Error;
}

TEST_F(AtomicFileTest, MissingDirectoryIsAnErrorNamingThePath) {
  std::string Path = Dir + "/no-such-dir/out.csv", Error;
  EXPECT_FALSE(writeFileAtomically(Path, "a,b\n", Error));
  EXPECT_EQ(Error, "cannot write '" + Path + "': cannot create a file in " +
                       Dir + "/no-such-dir: No such file or directory");
  EXPECT_TRUE(files().empty());
}

TEST_F(AtomicFileTest, FailedReplaceRemovesTheTemporary) {
  // A directory appears where the file should go after its temporary was
  // written: the replacement is refused and the temporary removed.
  std::string Path = Dir + "/target", Error;
  std::string Temp = writeTemporaryBeside(Path, "data", Error);
  ASSERT_FALSE(Temp.empty()) << Error;
  ASSERT_EQ(mkdir(Path.c_str(), 0755), 0);
  put(Path + "/keep", "x");
  EXPECT_FALSE(replaceFile(Temp, Path, Error));
  EXPECT_NE(Error.find("'" + Path + "': it is a directory"), std::string::npos)
      << Error;
  EXPECT_EQ(files(), std::vector<std::string>{"target"});
  std::remove((Path + "/keep").c_str());
  rmdir(Path.c_str());
}

TEST_F(AtomicFileTest, TemporaryThenReplace) {
  std::string A = Dir + "/a", B = Dir + "/b", Error;
  put(A, "old a");
  std::string TA = writeTemporaryBeside(A, "new a", Error);
  std::string TB = writeTemporaryBeside(B, "new b", Error);
  ASSERT_FALSE(TA.empty()) << Error;
  ASSERT_FALSE(TB.empty()) << Error;
  EXPECT_NE(TA, TB);
  EXPECT_EQ(read(A), "old a"); // nothing replaced yet
  ASSERT_TRUE(replaceFile(TA, A, Error)) << Error;
  ASSERT_TRUE(replaceFile(TB, B, Error)) << Error;
  EXPECT_EQ(read(A), "new a");
  EXPECT_EQ(read(B), "new b");
  EXPECT_EQ(files().size(), 2u);
}

} // namespace

TEST_F(AtomicFileTest, RefusesToReplaceAnythingButAFile) {
  // A FIFO (or a device, or a directory) is never replaced by a file.
  std::string Fifo = Dir + "/pipe", Error;
  ASSERT_EQ(mkfifo(Fifo.c_str(), 0600), 0);
  EXPECT_FALSE(writeFileAtomically(Fifo, "{}\n", Error));
  EXPECT_NE(Error.find("'" + Fifo + "': it is a FIFO"), std::string::npos)
      << Error;
  struct stat St;
  ASSERT_EQ(stat(Fifo.c_str(), &St), 0);
  EXPECT_TRUE(S_ISFIFO(St.st_mode));
  EXPECT_EQ(files(), std::vector<std::string>{"pipe"}); // no temporary left
}

TEST_F(AtomicFileTest, WritesThroughALink) {
  // The file a link points to is replaced; the link stays a link.
  std::string Target = Dir + "/real.json", Link = Dir + "/link.json", Error;
  put(Target, "old\n");
  ASSERT_EQ(symlink("real.json", Link.c_str()), 0);
  ASSERT_TRUE(writeFileAtomically(Link, "new\n", Error)) << Error;
  EXPECT_EQ(read(Target), "new\n");
  struct stat St;
  ASSERT_EQ(lstat(Link.c_str(), &St), 0);
  EXPECT_TRUE(S_ISLNK(St.st_mode));
  std::remove(Link.c_str());
}

TEST_F(AtomicFileTest, CheckOutputPathRefusesInputsAndSpecialFiles) {
  using orrery::support::checkOutputPath;
  std::string In = Dir + "/machine.yaml", Alias = Dir + "/alias.yaml", Error;
  put(In, "x\n");
  ASSERT_EQ(symlink("machine.yaml", Alias.c_str()), 0);
  EXPECT_TRUE(checkOutputPath("--report", Dir + "/new.json", {In}, Error));
  EXPECT_TRUE(checkOutputPath("--report", "-", {In}, Error));
  EXPECT_FALSE(checkOutputPath("--report", In, {In}, Error));
  EXPECT_EQ(Error, "--report " + In +
                       " is an input of this command: writing it would "
                       "destroy it; name another file");
  EXPECT_FALSE(checkOutputPath("--report", Alias, {In}, Error));
  EXPECT_NE(Error.find("the same file as the input " + In), std::string::npos);
  EXPECT_FALSE(checkOutputPath("--report", Dir, {}, Error));
  EXPECT_NE(Error.find("is a directory"), std::string::npos);
  EXPECT_FALSE(checkOutputPath("--trace", "/dev/null", {}, Error));
  EXPECT_NE(Error.find("is a character device"), std::string::npos);
  std::remove(Alias.c_str());
}
