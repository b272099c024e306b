#include "live/testbed_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <utility>

#include "api/error.h"
#include "api/units.h"

namespace slotflow {
namespace {

// The share of the link each priority class is guaranteed before classes borrow in priority
// order. HTB serves a class under its guaranteed rate before any borrowing one, so this is what a
// starved class still gets: a thousandth of the link, enough to keep its connections alive.
constexpr uint64_t kGuaranteedShare = 1000;
constexpr uint64_t kMinGuaranteedRate = 1000;  // bit/s
// Quantum of every class (one full frame): with one class per priority it only matters to
// silence tc's warnings about quanta derived from very small or large rates.
constexpr std::string_view kQuantum = "1514";

std::string Bits(uint64_t rate) { return fmt::format("{}bit", rate); }

// "100mbit" -> 1e8 in `bits`; false when the text is not a number with one of tc's bit units.
bool ParseTcBits(std::string_view text, double& bits) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  constexpr std::array<std::pair<std::string_view, double>, 4> kUnits{
      {{"kbit", 1e3}, {"mbit", 1e6}, {"gbit", 1e9}, {"bit", 1}}};
  for (const auto& [unit, factor] : kUnits) {
    if (lower.size() <= unit.size() || !lower.ends_with(unit)) continue;
    const std::string_view number(lower.data(), lower.size() - unit.size());
    double value = 0;
    auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (ec != std::errc() || end != number.data() + number.size()) return false;
    bits = value * factor;
    return true;
  }
  return false;
}

void AddCommand(std::vector<Command>& plan, std::initializer_list<std::string_view> argv) {
  Command c;
  for (std::string_view a : argv) c.argv.emplace_back(a);
  plan.push_back(std::move(c));
}

// Host i's link: a veth pair made in the switch's namespace with its other end moved straight
// into the host's (so neither end ever exists in the root namespace), the switch's end on the
// bridge, and the host's end with its address.
void AddHostLink(std::vector<Command>& plan, const TestbedNames& n, int i) {
  const std::string host = n.Host(i), sw = n.Switch(), port = TestbedNames::Port(i);
  const std::string address = fmt::format("{}/{}", HostAddress(i), kHostPrefixLength);
  AddCommand(plan, {"ip", "-n", sw, "link", "add", port, "type", "veth", "peer", "name",
                    kHostInterface, "netns", host});
  AddCommand(plan, {"ip", "-n", sw, "link", "set", port, "master", kBridge});
  AddCommand(plan, {"ip", "-n", sw, "link", "set", port, "up"});
  AddCommand(plan, {"ip", "-n", host, "link", "set", "lo", "up"});
  AddCommand(plan, {"ip", "-n", host, "addr", "add", address, "dev", kHostInterface});
  AddCommand(plan, {"ip", "-n", host, "link", "set", kHostInterface, "up"});
}

// IPv6 is off in every namespace, so hosts have their IPv4 address in 198.18.0.0/24 and no
// other (no link-local IPv6 either).
void AddNamespace(std::vector<Command>& plan, const std::string& netns) {
  AddCommand(plan, {"ip", "netns", "add", netns});
  AddCommand(plan, {"ip", "netns", "exec", netns, "sysctl", "-q", "-w",
                    "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1"});
}

}  // namespace

std::string TestbedNames::Switch() const { return prefix + "sw"; }
std::string TestbedNames::Host(int i) const { return fmt::format("{}h{}", prefix, i); }
std::string TestbedNames::Port(int i) { return fmt::format("port{}", i); }

std::string TestbedNames::DownCommand() const {
  return prefix == TestbedNames{}.prefix
             ? "slotflow testbed down"
             : fmt::format("slotflow testbed down --testbed-prefix {}", prefix);
}

bool TestbedNames::Owns(std::string_view netns) const {
  if (!netns.starts_with(prefix)) return false;
  const std::string_view rest = netns.substr(prefix.size());
  if (rest == "sw") return true;
  if (rest.size() < 2 || rest.front() != 'h') return false;
  return std::all_of(rest.begin() + 1, rest.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

uint64_t ParseLinkRate(std::string_view text, std::string_view field) {
  double bits = 0;
  if (!ParseTcBits(text, bits)) {
    try {
      bits = ParseRate(text, field) * 8;
    } catch (const InputError&) {
      throw InputError(
          "", 0, std::string(field),
          fmt::format("expected a rate such as 100mbit, 1gbit or 50Mbps, got '{}'", text));
    }
  }
  if (!(bits >= static_cast<double>(kMinLinkRate) && bits <= static_cast<double>(kMaxLinkRate))) {
    throw InputError("", 0, std::string(field),
                     fmt::format("a link rate must be 1mbit..10gbit, got '{}'", text));
  }
  return static_cast<uint64_t>(std::llround(bits));
}

TestbedNames MakeTestbedNames(std::string_view prefix, std::string_view field) {
  const bool valid = !prefix.empty() && prefix.size() <= kMaxTestbedPrefix &&
                     std::all_of(prefix.begin(), prefix.end(), [](char c) {
                       return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
                     });
  if (!valid) {
    throw InputError("", 0, std::string(field),
                     fmt::format("must be 1 to {} lowercase letters or digits, got '{}'",
                                 kMaxTestbedPrefix, prefix));
  }
  return TestbedNames{std::string(prefix)};
}

TestbedConfig MakeTestbedConfig(int hosts, std::string_view rate) {
  if (hosts < 1 || hosts > kMaxTestbedHosts) {
    throw InputError("", 0, "--hosts",
                     fmt::format("must be in 1..{}, got {}", kMaxTestbedHosts, hosts));
  }
  TestbedConfig config;
  config.hosts = hosts;
  config.rate = ParseLinkRate(rate, "--rate");
  return config;
}

std::string HostAddress(int i) { return fmt::format("198.18.0.{}", i + 1); }

int PriorityOfDscp(int dscp) { return kPriorityClasses - 1 - (dscp >> 3); }
int DscpOfPriority(int priority) { return (kPriorityClasses - 1 - priority) << 3; }
int TosOfPriority(int priority) { return DscpOfPriority(priority) << 2; }
std::string PriorityClassId(int priority) { return fmt::format("1:1{}", priority); }

std::vector<Command> ShapingPlan(std::string_view netns, std::string_view dev, uint64_t rate) {
  std::vector<Command> plan;
  const std::string link = Bits(rate);
  const std::string guaranteed = Bits(std::max(rate / kGuaranteedShare, kMinGuaranteedRate));
  const std::string unclassified = PriorityClassId(0).substr(2);
  AddCommand(plan, {"tc", "-n", netns, "qdisc", "add", "dev", dev, "root", "handle", "1:", "htb",
                    "default", unclassified});
  AddCommand(plan, {"tc", "-n", netns, "class", "add", "dev", dev, "parent", "1:", "classid", "1:1",
                    "htb", "rate", link, "ceil", link, "quantum", kQuantum});
  for (int p = 0; p < kPriorityClasses; ++p) {
    AddCommand(plan, {"tc",
                      "-n",
                      netns,
                      "class",
                      "add",
                      "dev",
                      dev,
                      "parent",
                      "1:1",
                      "classid",
                      PriorityClassId(p),
                      "htb",
                      "rate",
                      guaranteed,
                      "ceil",
                      link,
                      "prio",
                      std::to_string(p),
                      "quantum",
                      kQuantum});
  }
  // Pure TCP ACKs (no IP options, under 128 bytes, only the ACK flag) go first, with control
  // traffic: queued behind the data of the other direction, they slowed the flows they ack by up
  // to 62 % (docs/testbed.md). Added before the DSCP filters, so matched first.
  AddCommand(plan, {"tc",       "-n",       netns,
                    "filter",   "add",      "dev",
                    dev,        "parent",   "1:",
                    "protocol", "ip",       "prio",
                    "1",        "u32",      "match",
                    "ip",       "protocol", "6",
                    "0xff",     "match",    "u8",
                    "0x05",     "0x0f",     "at",
                    "0",        "match",    "u16",
                    "0x0000",   "0xff80",   "at",
                    "2",        "match",    "u8",
                    "0x10",     "0xff",     "at",
                    "33",       "flowid",   PriorityClassId(0)});
  for (int p = 0; p < kPriorityClasses; ++p) {
    AddCommand(plan, {"tc",       "-n",     netns,
                      "filter",   "add",    "dev",
                      dev,        "parent", "1:",
                      "protocol", "ip",     "prio",
                      "1",        "u32",    "match",
                      "ip",       "tos",    fmt::format("{:#04x}", TosOfPriority(p)),
                      "0xe0",     "flowid", PriorityClassId(p)});
  }
  return plan;
}

std::vector<Command> TestbedUpPlan(const TestbedConfig& config) {
  const TestbedNames& n = config.names;
  std::vector<Command> plan;
  AddNamespace(plan, n.Switch());
  for (int i = 0; i < config.hosts; ++i) AddNamespace(plan, n.Host(i));
  AddCommand(plan, {"ip", "-n", n.Switch(), "link", "add", kBridge, "type", "bridge"});
  AddCommand(plan, {"ip", "-n", n.Switch(), "link", "set", kBridge, "up"});
  for (int i = 0; i < config.hosts; ++i) AddHostLink(plan, n, i);
  for (int i = 0; i < config.hosts; ++i) {
    for (Command& c : ShapingPlan(n.Host(i), kHostInterface, config.rate)) plan.push_back(c);
    for (Command& c : ShapingPlan(n.Switch(), TestbedNames::Port(i), config.rate)) {
      plan.push_back(c);
    }
  }
  return plan;
}

std::vector<Command> TestbedDownPlan(const std::vector<std::string>& existing,
                                     const TestbedNames& names) {
  std::vector<std::string> owned;
  for (const std::string& netns : existing) {
    if (names.Owns(netns)) owned.push_back(netns);
  }
  // Hosts in index order, then the switch.
  const auto key = [&](const std::string& netns) {
    const std::string_view rest = std::string_view(netns).substr(names.prefix.size() + 1);
    return std::make_pair(netns == names.Switch(), std::make_pair(rest.size(), rest));
  };
  std::sort(owned.begin(), owned.end(),
            [&](const std::string& a, const std::string& b) { return key(a) < key(b); });
  std::vector<Command> plan;
  for (const std::string& netns : owned) AddCommand(plan, {"ip", "netns", "del", netns});
  return plan;
}

}  // namespace slotflow
