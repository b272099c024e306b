// Reading a testbed back from iproute2's output, and `up` and `down` driven by a stand-in for
// `ip` and `tc` that records commands: what they run, that `up` refuses a testbed already there
// and removes what it made when a command fails, and that `down` deletes by prefix. No root.
#include "live/testbed_status.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "api/error.h"
#include "live/testbed.h"

namespace slotflow {
namespace {

using Argv = std::vector<std::string>;

// What iproute2 6.1 prints for a shaped interface (trimmed to the fields read).
const char* const kQdiscJson =
    R"([{"kind":"htb","handle":"1:","root":true,"options":{"r2q":10,"default":"0x10"}},)"
    R"({"kind":"pfifo","handle":"8001:","parent":"1:10"}])";
const char* const kClassText =
    "class htb 1:11 parent 1:1 prio 1 rate 100Kbit ceil 100Mbit burst 1600b cburst 1600b \n"
    "class htb 1:1 root rate 100Mbit ceil 100Mbit burst 1600b cburst 1600b \n"
    "class htb 1:10 parent 1:1 prio 0 rate 100Kbit ceil 100Mbit burst 1600b cburst 1600b \n";

std::string FilterJson(const std::vector<std::pair<const char*, const char*>>& value_to_class) {
  std::string j = R"([{"parent":"1:","protocol":"ip","pref":1,"kind":"u32","chain":0},)"
                  R"({"parent":"1:","kind":"u32","options":{"fh":"800:","ht_divisor":1}})";
  for (const auto& [value, cls] : value_to_class) {
    j += std::string(R"(,{"parent":"1:","kind":"u32","options":{"flowid":")") + cls +
         R"(","match":{"value":")" + value + R"(","mask":"e00000","offmask":"","off":0}}})";
  }
  return j + "]";
}

TEST(TestbedStatusParsing, NamespacesAddressesQdiscsClassesAndFilters) {
  EXPECT_EQ(ParseNetnsList(R"([{"name":"sfh1","id":2},{"name":"sfsw"}])"),
            (std::vector<std::string>{"sfh1", "sfsw"}));
  EXPECT_TRUE(ParseNetnsList("").empty());  // ip prints nothing when there is none
  EXPECT_EQ(
      ParseIpv4Address(R"([{"ifname":"eth0","addr_info":[{"family":"inet","local":"198.18.0.3",)"
                       R"("prefixlen":24}]}])"),
      "198.18.0.3/24");
  EXPECT_EQ(ParseIpv4Address(R"([{"ifname":"eth0","addr_info":[]}])"), "");
  EXPECT_EQ(ParseRootQdisc(kQdiscJson), "htb");
  EXPECT_EQ(ParseRootQdisc(R"([{"kind":"noqueue","root":true}])"), "noqueue");
  ShapingStatus s;
  ParseHtbClasses(kClassText, s);
  EXPECT_EQ(s.classes, 3);
  EXPECT_EQ(s.rate, "100Mbit");
  EXPECT_EQ(ParseTosFilters(FilterJson({{"e00000", "1:10"}, {"0", "1:17"}})),
            (std::map<int, std::string>{{0xe0, "1:10"}, {0x00, "1:17"}}));
  EXPECT_THROW(ParseNetnsList("{not json"), CommandError);
  EXPECT_THROW(ParseNetnsList(R"([{"name":7}])"), CommandError);
  EXPECT_THROW(ParseRootQdisc(R"([{"root":"yes"}])"), CommandError);
  EXPECT_TRUE(ParseTosFilters(FilterJson({{"zz", "1:10"}})).empty());
  // tc -j shows a u32 filter of several matches by its last: the ACK filter's TCP flags.
  const std::string ack = R"([{"parent":"1:","kind":"u32","options":{"flowid":"1:10","match":)"
                          R"({"value":"100000","mask":"ff0000","offmask":"","off":32}}}])";
  EXPECT_TRUE(HasAckFilter(ack));
  EXPECT_TRUE(ParseTosFilters(ack).empty());
  EXPECT_FALSE(HasAckFilter(FilterJson({{"e00000", "1:10"}})));
}

// A stand-in for ip and tc: answers `ip -j netns list` from its set of namespaces, keeps that set
// as netns add/del change it, records every command and fails the one given.
struct FakeIproute {
  std::set<std::string> namespaces;
  std::map<std::string, std::vector<std::string>> pids;  // processes in each namespace
  std::vector<Argv> ran;
  Argv fail;

  CommandResult operator()(const Argv& argv) {
    ran.push_back(argv);
    if (argv == fail) return {2, "", "Error: Specified qdisc kind is unknown.\n"};
    if (argv == Argv{"ip", "-j", "netns", "list"}) {
      std::string j = "[";
      for (const std::string& n : namespaces)
        j += (j.size() > 1 ? "," : "") + ("{\"name\":\"" + n + "\"}");
      return {0, j + "]", ""};
    }
    if (argv.size() == 4 && argv[1] == "netns" && argv[2] == "pids") {
      if (!namespaces.count(argv[3])) return {1, "", "Cannot open network namespace\n"};
      std::string out;
      for (const std::string& pid : pids[argv[3]]) out += pid + "\n";
      return {0, out, ""};
    }
    if (argv[0] == "kill") {  // every process ends at the first signal
      for (auto& [netns, list] : pids) {
        std::erase_if(list, [&](const std::string& p) {
          return std::find(argv.begin() + 3, argv.end(), p) != argv.end();
        });
      }
    }
    if (argv.size() == 4 && argv[1] == "netns" && argv[2] == "add") namespaces.insert(argv[3]);
    if (argv.size() == 4 && argv[1] == "netns" && argv[2] == "del") namespaces.erase(argv[3]);
    return {0, "", ""};
  }
};

CommandRunner Runner(FakeIproute& fake) {
  return [&fake](const Argv& argv) { return fake(argv); };
}

TEST(TestbedUp, RunsThePlanInOrder) {
  FakeIproute fake;
  TestbedConfig config = MakeTestbedConfig(2, "100mbit");
  TestbedUp(config, Runner(fake));
  const std::vector<Command> plan = TestbedUpPlan(config);
  ASSERT_EQ(fake.ran.size(), plan.size() + 1);  // the listing first
  for (size_t i = 0; i < plan.size(); ++i) EXPECT_EQ(fake.ran[i + 1], plan[i].argv);
  EXPECT_EQ(fake.namespaces, (std::set<std::string>{"sfh0", "sfh1", "sfsw"}));
}

TEST(TestbedUp, RefusesWhenAnyOfItsNamespacesIsThereAndChangesNothing) {
  FakeIproute fake;
  fake.namespaces = {"sfh4", "unrelated"};
  try {
    TestbedUp(MakeTestbedConfig(2, "100mbit"), Runner(fake));
    FAIL() << "up went ahead over a half-made testbed";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("sfh4"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("slotflow testbed down"), std::string::npos);
  }
  EXPECT_EQ(fake.ran.size(), 1u);
}

TEST(TestbedUp, AFailingCommandRemovesWhatWasMadeAndNamesTheCommand) {
  FakeIproute fake;
  fake.namespaces = {"unrelated"};
  fake.fail = {"tc",   "-n",     "sfh1", "qdisc", "add",     "dev", "eth0",
               "root", "handle", "1:",   "htb",   "default", "10"};
  try {
    TestbedUp(MakeTestbedConfig(2, "100mbit"), Runner(fake));
    FAIL() << "up ignored a failing command";
  } catch (const CommandError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("tc -n sfh1 qdisc add dev eth0"), std::string::npos) << what;
    EXPECT_NE(what.find("qdisc kind is unknown"), std::string::npos) << what;
    EXPECT_NE(what.find("removed"), std::string::npos) << what;
  }
  EXPECT_EQ(fake.namespaces, (std::set<std::string>{"unrelated"}));
}

TEST(TestbedDown, DeletesEveryOwnedNamespaceAndIsIdempotent) {
  FakeIproute fake;
  fake.namespaces = {"sfh0", "sfh7", "sfsw", "sfth0", "other"};
  EXPECT_EQ(TestbedDown(TestbedNames{}, Runner(fake)).removed,
            (std::vector<std::string>{"sfh0", "sfh7", "sfsw"}));
  EXPECT_EQ(fake.namespaces, (std::set<std::string>{"other", "sfth0"}));
  EXPECT_TRUE(TestbedDown(TestbedNames{}, Runner(fake)).removed.empty());
}

TEST(TestbedDown, EndsProcessesStillRunningInItsNamespacesFirst) {
  FakeIproute fake;
  fake.namespaces = {"sfh0", "sfsw", "other"};
  fake.pids = {{"sfh0", {"101", "102"}}, {"other", {"200"}}};
  const TestbedDownReport report = TestbedDown(TestbedNames{}, Runner(fake));
  EXPECT_EQ(report.processes_ended, 2);
  const Argv term{"kill", "-s", "TERM", "101", "102"};
  const auto killed = std::find(fake.ran.begin(), fake.ran.end(), term);
  const auto deleted =
      std::find(fake.ran.begin(), fake.ran.end(), Argv{"ip", "netns", "del", "sfh0"});
  EXPECT_LT(killed, deleted);
  EXPECT_EQ(std::count(fake.ran.begin(), fake.ran.end(), Argv{"kill", "-s", "KILL", "101", "102"}),
            0);  // they ended at SIGTERM
  EXPECT_EQ(fake.pids["other"], (std::vector<std::string>{"200"}));
}

TEST(TestbedStatus, NothingThereIsDownAndAHostWithoutSwitchIsHalfMade) {
  FakeIproute fake;
  fake.namespaces = {"other"};
  TestbedStatus st = ReadTestbedStatus(TestbedNames{}, Runner(fake));
  EXPECT_TRUE(st.Empty());
  EXPECT_FALSE(st.Up());
  fake.namespaces = {"sfh0"};
  st = ReadTestbedStatus(TestbedNames{}, Runner(fake));
  EXPECT_FALSE(st.Empty());
  EXPECT_FALSE(st.Up());
  ASSERT_FALSE(st.problems.empty());
  EXPECT_EQ(st.problems.front(), "the switch is missing");
}

TEST(ShapingStatus, CompleteOnlyWithAllClassesAndTheMappingOfThePlan) {
  ShapingStatus s;
  s.qdisc = "htb";
  s.classes = 1 + kPriorityClasses;
  for (int p = 0; p < kPriorityClasses; ++p) s.filters[TosOfPriority(p)] = PriorityClassId(p);
  EXPECT_FALSE(s.Complete());  // no ACK filter
  s.ack_filter = true;
  EXPECT_TRUE(s.Complete());
  s.filters[0x00] = "1:10";  // unmarked traffic first: not this testbed's mapping
  EXPECT_FALSE(s.Complete());
  s.filters[0x00] = "1:17";
  s.classes = 3;
  EXPECT_FALSE(s.Complete());
}

}  // namespace
}  // namespace slotflow
