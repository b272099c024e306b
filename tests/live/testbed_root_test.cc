// A real testbed of 3 hosts on this machine: up, ping between two hosts, the qdiscs in place,
// nothing in the root namespace, and down. Runs only as root where `ip netns` works (skipped
// otherwise). It uses its own prefix, so it never touches a testbed a user has up, and removes
// its testbed before and after, also when a check fails.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "live/testbed.h"
#include "live/testbed_status.h"
#include "root_testbed.h"

namespace slotflow {
namespace {

const TestbedNames kNames{"sft"};

std::vector<std::string> RootLinkNames() {
  std::vector<std::string> names;
  for (const auto& link : nlohmann::json::parse(RunProgram({"ip", "-j", "link", "show"}).out)) {
    names.push_back(link.value("ifname", ""));
  }
  return names;
}

class RealTestbed : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = testing::TestbedUnavailable(kNames); !why.empty()) {
      GTEST_SKIP() << why;
    }
    try {
      RunProgram({"ping", "-V"});
    } catch (const CommandError& e) {
      GTEST_SKIP() << e.what();
    }
    made_ = true;
  }
  void TearDown() override {
    if (made_) TestbedDown(kNames);
  }

 private:
  bool made_ = false;
};

TEST_F(RealTestbed, ThreeHostsPingEachOtherThroughShapedLinksAndDownRemovesAll) {
  const std::vector<std::string> root_before = RootLinkNames();
  TestbedConfig config = MakeTestbedConfig(3, "100mbit");
  config.names = kNames;
  TestbedUp(config);

  const TestbedStatus st = ReadTestbedStatus(kNames, RunProgram);
  EXPECT_TRUE(st.Up()) << (st.problems.empty() ? "" : st.problems.front());
  ASSERT_EQ(st.hosts.size(), 3u);
  for (const HostStatus& h : st.hosts) {
    EXPECT_EQ(h.address, HostAddress(h.index) + "/24");
    EXPECT_TRUE(h.uplink.Complete()) << h.netns;
    EXPECT_TRUE(h.port.Complete()) << h.netns;
    EXPECT_EQ(h.uplink.rate, "100Mbit");
    EXPECT_EQ(h.port.rate, "100Mbit");
  }
  const CommandResult ping = RunProgram({"ip", "netns", "exec", kNames.Host(0), "ping", "-c", "2",
                                         "-i", "0.2", "-W", "2", HostAddress(2)});
  EXPECT_EQ(ping.exit_code, 0) << ping.out << ping.err;
  // Nothing of the testbed is in the root namespace.
  EXPECT_EQ(RootLinkNames(), root_before);

  // A program left running on a host is ended by down (it would keep the namespace alive).
  ASSERT_EQ(
      std::system(("ip netns exec " + kNames.Host(1) + " sleep 60 >/dev/null 2>&1 &").c_str()), 0);
  const std::vector<std::string> host1{kNames.Host(1)};
  for (int tries = 0; tries < 100 && RunProgram({"ip", "netns", "pids", host1[0]}).out.empty();
       ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const TestbedDownReport report = TestbedDown(kNames);
  EXPECT_EQ(report.processes_ended, 1);
  const std::vector<std::string>& removed = report.removed;
  EXPECT_EQ(removed.size(), 4u);
  const std::vector<std::string> left = ListNamespaces(RunProgram);
  EXPECT_TRUE(
      std::none_of(left.begin(), left.end(), [](const std::string& n) { return kNames.Owns(n); }));
  EXPECT_EQ(RootLinkNames(), root_before);
  EXPECT_TRUE(TestbedDown(kNames).removed.empty());
}

}  // namespace
}  // namespace slotflow
