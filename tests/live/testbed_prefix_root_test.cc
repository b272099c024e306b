// `slotflow testbed up|status|down --testbed-prefix P` on a real testbed: a testbed under its own
// prefix is made, listed and removed by the command line alone. Root only where `ip netns`
// works (skipped otherwise, with the reason).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <memory>
#include <string>

#include "root_testbed.h"

namespace slotflow::testing {
namespace {

const TestbedNames kNames{"sfq"};

// What `slotflow ARGS` prints on stdout and stderr, and its exit code.
std::pair<std::string, int> Slotflow(const std::string& args) {
  const std::string cmd = std::string(SLOTFLOW_BINARY) + " " + args + " 2>&1";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
  std::string out;
  std::array<char, 4096> buffer{};
  size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe.get())) > 0) out.append(buffer.data(), n);
  const int status = pclose(pipe.release());
  return {out, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

TEST(TestbedPrefix, UpStatusAndDownNameTheTestbedByItsPrefix) {
  if (const std::string why = TestbedUnavailable(kNames); !why.empty()) GTEST_SKIP() << why;
  const auto [up, up_code] = Slotflow("testbed up --hosts 2 --testbed-prefix sfq");
  ASSERT_EQ(up_code, 0) << up;
  EXPECT_NE(up.find("sfqh0"), std::string::npos) << up;
  EXPECT_TRUE(AnyNamespaceOf(kNames));

  const auto [status, status_code] = Slotflow("testbed status --testbed-prefix sfq");
  EXPECT_EQ(status_code, 0) << status;
  EXPECT_NE(status.find("testbed: up, 2 hosts on switch namespace sfqsw"), std::string::npos)
      << status;
  // A second `up` under the prefix names the command that removes it.
  const auto [again, again_code] = Slotflow("testbed up --hosts 2 --testbed-prefix sfq");
  EXPECT_EQ(again_code, 2) << again;
  EXPECT_NE(again.find("`slotflow testbed down --testbed-prefix sfq` removes it"),
            std::string::npos)
      << again;

  const auto [down, down_code] = Slotflow("testbed down --testbed-prefix sfq");
  EXPECT_EQ(down_code, 0) << down;
  EXPECT_NE(down.find("removed sfqh0, sfqh1, sfqsw"), std::string::npos) << down;
  EXPECT_FALSE(AnyNamespaceOf(kNames));
  const auto [after, after_code] = Slotflow("testbed status --testbed-prefix sfq");
  EXPECT_NE(after.find("testbed: down (no namespace sfqsw or sfqh*)"), std::string::npos) << after;
  TestbedDown(kNames);  // whatever a failed expectation left
}

}  // namespace
}  // namespace slotflow::testing
