// What the end-to-end tests of the `slotflow` binary share: running it, and per-process
// temporary directories and files (ctest runs the tests in parallel processes).
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace slotflow_test {

namespace fs = std::filesystem;

struct Result {
  int exit_code;
  std::string out, err;
};

inline std::string Slurp(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Per-process names: ctest runs the tests in parallel processes.
inline fs::path TempDir(const std::string& name) {
  fs::path d =
      fs::path(::testing::TempDir()) / ("slotflow_cli_" + std::to_string(getpid()) + "_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// Runs `prefix` + the binary + `args` through the shell.
inline Result RunShell(const std::string& prefix, const std::string& args,
                       const std::string& suffix = "") {
  const fs::path dir = TempDir("run");
  const std::string cmd = prefix + std::string(SLOTFLOW_BINARY) + " " + args + suffix + " >" +
                          (dir / "out").string() + " 2>" + (dir / "err").string();
  const int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, Slurp(dir / "out"), Slurp(dir / "err")};
}

inline Result Slotflow(const std::string& args) { return RunShell("", args); }

// The binary with files limited to `kib` KiB: a write past it fails with EFBIG, as on a full
// disk (SIGXFSZ ignored), without root.
inline Result SlotflowWithFileLimit(const std::string& args, long kib) {
  return RunShell("bash -c \"trap '' XFSZ; ulimit -f " + std::to_string(kib) + "; exec ", args,
                  "\"");
}

inline fs::path WriteFile(const std::string& name, const std::string& text) {
  const fs::path p = TempDir("file_" + name) / name;
  std::ofstream(p) << text;
  return p;
}

// Removes this process's temporary directories when the test program ends.
class RemoveTempDirs : public ::testing::Environment {
 public:
  void TearDown() override {
    const std::string prefix = "slotflow_cli_" + std::to_string(getpid()) + "_";
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(::testing::TempDir(), ec)) {
      if (entry.path().filename().string().rfind(prefix, 0) == 0) fs::remove_all(entry.path(), ec);
    }
  }
};
inline const auto* const kRemoveTempDirs =
    ::testing::AddGlobalTestEnvironment(new RemoveTempDirs);

}  // namespace slotflow_test
