// The testbed's plan of `ip` and `tc` commands, its names, addresses, link rates and the DSCP
// to priority mapping; none of this needs root.
#include "live/testbed_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "api/error.h"

namespace slotflow {
namespace {

using Argv = std::vector<std::string>;

bool Contains(const std::vector<Command>& plan, const Argv& argv) {
  return std::any_of(plan.begin(), plan.end(), [&](const Command& c) { return c.argv == argv; });
}

size_t IndexOf(const std::vector<Command>& plan, const Argv& argv) {
  auto it =
      std::find_if(plan.begin(), plan.end(), [&](const Command& c) { return c.argv == argv; });
  return static_cast<size_t>(it - plan.begin());
}

TEST(TestbedNames, NamespacesAndPortsFollowThePrefix) {
  const TestbedNames n;
  EXPECT_EQ(n.Switch(), "sfsw");
  EXPECT_EQ(n.Host(0), "sfh0");
  EXPECT_EQ(n.Host(253), "sfh253");
  EXPECT_EQ(TestbedNames::Port(7), "port7");
  EXPECT_EQ(TestbedNames{"sft"}.Host(2), "sfth2");
}

TEST(TestbedNames, OwnsExactlyTheSwitchAndNumberedHosts) {
  const TestbedNames n;
  for (const char* owned : {"sfsw", "sfh0", "sfh12", "sfh999"}) EXPECT_TRUE(n.Owns(owned)) << owned;
  for (const char* other :
       {"sf", "sfh", "sfhx", "sfh1a", "sfsw0", "sfth0", "sftsw", "xsfh0", "sfh-1", "netns1"}) {
    EXPECT_FALSE(n.Owns(other)) << other;
  }
  EXPECT_TRUE(TestbedNames{"sft"}.Owns("sfth0"));
  EXPECT_FALSE(TestbedNames{"sft"}.Owns("sfh0"));
}

TEST(TestbedAddresses, HostsAreNumberedFromOneInTheBenchmarkingRange) {
  EXPECT_EQ(HostAddress(0), "198.18.0.1");
  EXPECT_EQ(HostAddress(253), "198.18.0.254");
  EXPECT_EQ(kHostPrefixLength, 24);
}

TEST(LinkRate, TakesTcUnitsInAnyCaseAndSlotflowUnits) {
  EXPECT_EQ(ParseLinkRate("100mbit", "--rate"), 100'000'000u);
  EXPECT_EQ(ParseLinkRate("100Mbit", "--rate"), 100'000'000u);
  EXPECT_EQ(ParseLinkRate("1gbit", "--rate"), 1'000'000'000u);
  EXPECT_EQ(ParseLinkRate("2500kbit", "--rate"), 2'500'000u);
  EXPECT_EQ(ParseLinkRate("1000000bit", "--rate"), 1'000'000u);
  EXPECT_EQ(ParseLinkRate("50Mbps", "--rate"), 50'000'000u);
  EXPECT_EQ(ParseLinkRate("12.5MB/s", "--rate"), 100'000'000u);
}

TEST(LinkRate, RejectsNonsenseAndRatesOutsideOneMbitToTenGbitNamingTheFlag) {
  for (const char* bad :
       {"fast", "", "mbit", "-5mbit", "100 parsecs", "999kbit", "11gbit", "0", "nanmbit"}) {
    try {
      ParseLinkRate(bad, "--rate");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), "--rate") << bad;
    }
  }
}

TEST(TestbedConfig, HostsMustBeOneTo254) {
  EXPECT_EQ(MakeTestbedConfig(1, "100mbit").hosts, 1);
  EXPECT_EQ(MakeTestbedConfig(254, "1gbit").rate, 1'000'000'000u);
  for (int bad : {0, -1, 255, 300}) {
    try {
      MakeTestbedConfig(bad, "100mbit");
      ADD_FAILURE() << "accepted " << bad << " hosts";
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), "--hosts");
    }
  }
}

TEST(DscpPriority, ClassSelectorSevenGoesFirstAndUnmarkedTrafficLast) {
  EXPECT_EQ(PriorityOfDscp(56), 0);  // CS7
  EXPECT_EQ(PriorityOfDscp(46), 2);  // EF shares CS5's priority
  EXPECT_EQ(PriorityOfDscp(0), 7);   // CS0, unmarked
  for (int p = 0; p < kPriorityClasses; ++p) {
    EXPECT_EQ(PriorityOfDscp(DscpOfPriority(p)), p);
    EXPECT_EQ(TosOfPriority(p), DscpOfPriority(p) << 2);
    // Every DSCP of a class selector's group maps with it.
    for (int low = 0; low < 8; ++low) EXPECT_EQ(PriorityOfDscp(DscpOfPriority(p) + low), p);
  }
  EXPECT_EQ(TosOfPriority(0), 0xe0);
  EXPECT_EQ(TosOfPriority(7), 0x00);
  EXPECT_EQ(PriorityClassId(0), "1:10");
  EXPECT_EQ(PriorityClassId(7), "1:17");
}

TEST(ShapingPlan, HtbRootWithEightPriorityClassesAndOneFilterEach) {
  const std::vector<Command> plan = ShapingPlan("sfh1", "eth0", 100'000'000);
  ASSERT_EQ(plan.size(), 3u + 2u * kPriorityClasses);
  EXPECT_EQ(plan[0].argv, (Argv{"tc", "-n", "sfh1", "qdisc", "add", "dev", "eth0", "root", "handle",
                                "1:", "htb", "default", "10"}));
  EXPECT_TRUE(Contains(
      plan, {"tc", "-n", "sfh1", "class", "add", "dev", "eth0", "parent", "1:", "classid", "1:1",
             "htb", "rate", "100000000bit", "ceil", "100000000bit", "quantum", "1514"}));
  // Each class is guaranteed a thousandth of the link and may borrow all of it in prio order.
  EXPECT_TRUE(
      Contains(plan, {"tc",     "-n",           "sfh1",    "class", "add",     "dev",  "eth0",
                      "parent", "1:1",          "classid", "1:13",  "htb",     "rate", "100000bit",
                      "ceil",   "100000000bit", "prio",    "3",     "quantum", "1514"}));
  EXPECT_TRUE(Contains(plan, {"tc",     "-n", "sfh1",     "filter", "add",  "dev",    "eth0",
                              "parent", "1:", "protocol", "ip",     "prio", "1",      "u32",
                              "match",  "ip", "tos",      "0xe0",   "0xe0", "flowid", "1:10"}));
  EXPECT_TRUE(Contains(plan, {"tc",     "-n", "sfh1",     "filter", "add",  "dev",    "eth0",
                              "parent", "1:", "protocol", "ip",     "prio", "1",      "u32",
                              "match",  "ip", "tos",      "0x00",   "0xe0", "flowid", "1:17"}));
  // Pure ACKs (TCP, no IP options, under 128 bytes, flags ACK alone) go to priority 0, and their
  // filter comes before the DSCP filters, which match every packet.
  const Argv ack = {"tc",       "-n",       "sfh1", "filter", "add",    "dev",    "eth0",  "parent",
                    "1:",       "protocol", "ip",   "prio",   "1",      "u32",    "match", "ip",
                    "protocol", "6",        "0xff", "match",  "u8",     "0x05",   "0x0f",  "at",
                    "0",        "match",    "u16",  "0x0000", "0xff80", "at",     "2",     "match",
                    "u8",       "0x10",     "0xff", "at",     "33",     "flowid", "1:10"};
  EXPECT_LT(IndexOf(plan, ack),
            IndexOf(plan, {"tc",     "-n", "sfh1",     "filter", "add",  "dev",    "eth0",
                           "parent", "1:", "protocol", "ip",     "prio", "1",      "u32",
                           "match",  "ip", "tos",      "0xe0",   "0xe0", "flowid", "1:10"}));
}

TEST(TestbedUpPlan, NamespacesFirstThenLinksThenShapingOfBothEnds) {
  TestbedConfig config;
  config.hosts = 2;
  const std::vector<Command> plan = TestbedUpPlan(config);
  const size_t add_switch = IndexOf(plan, {"ip", "netns", "add", "sfsw"});
  const size_t add_host1 = IndexOf(plan, {"ip", "netns", "add", "sfh1"});
  const size_t veth1 = IndexOf(plan, {"ip", "-n", "sfsw", "link", "add", "port1", "type", "veth",
                                      "peer", "name", "eth0", "netns", "sfh1"});
  const size_t address1 =
      IndexOf(plan, {"ip", "-n", "sfh1", "addr", "add", "198.18.0.2/24", "dev", "eth0"});
  const size_t shape1 = IndexOf(plan, {"tc", "-n", "sfh1", "qdisc", "add", "dev", "eth0", "root",
                                       "handle", "1:", "htb", "default", "10"});
  const size_t shape_port1 = IndexOf(plan, {"tc", "-n", "sfsw", "qdisc", "add", "dev", "port1",
                                            "root", "handle", "1:", "htb", "default", "10"});
  for (size_t i : {add_switch, add_host1, veth1, address1, shape1, shape_port1}) {
    ASSERT_LT(i, plan.size());
  }
  EXPECT_LT(add_switch, veth1);
  EXPECT_LT(add_host1, veth1);
  EXPECT_LT(veth1, address1);
  EXPECT_LT(address1, shape1);
  EXPECT_TRUE(Contains(plan, {"ip", "-n", "sfsw", "link", "set", "port1", "master", "br0"}));
  EXPECT_TRUE(
      Contains(plan, {"ip", "netns", "exec", "sfh0", "sysctl", "-q", "-w",
                      "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1"}));
}

TEST(TestbedUpPlan, EveryCommandStaysInsideTheTestbedsNamespaces) {
  TestbedConfig config;
  config.hosts = 3;
  for (const Command& c : TestbedUpPlan(config)) {
    ASSERT_GE(c.argv.size(), 3u);
    // `ip netns add|exec NS` or `ip|tc -n NS`: nothing is made in the root namespace.
    const std::string& netns = c.argv[1] == "-n" ? c.argv[2] : c.argv[3];
    EXPECT_TRUE(config.names.Owns(netns)) << c.argv[0] << " " << c.argv[1] << " " << netns;
    if (c.argv[1] != "-n") {
      EXPECT_EQ(c.argv[1], "netns");
    }
  }
}

TEST(TestbedDownPlan, DeletesOnlyWhatThePrefixOwnsWhateverIsLeft) {
  const std::vector<Command> plan =
      TestbedDownPlan({"other", "sfh10", "sfh2", "sfsw", "sfth0", "sfh0", "sfhx"}, TestbedNames{});
  ASSERT_EQ(plan.size(), 4u);
  EXPECT_EQ(plan[0].argv, (Argv{"ip", "netns", "del", "sfh0"}));
  EXPECT_EQ(plan[1].argv, (Argv{"ip", "netns", "del", "sfh2"}));
  EXPECT_EQ(plan[2].argv, (Argv{"ip", "netns", "del", "sfh10"}));
  EXPECT_EQ(plan[3].argv, (Argv{"ip", "netns", "del", "sfsw"}));
  EXPECT_TRUE(TestbedDownPlan({"x", "y"}, TestbedNames{}).empty());
}

}  // namespace
}  // namespace slotflow
