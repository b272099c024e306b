#include "live/testbed_status.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>
#include <sstream>

namespace slotflow {
namespace {

using nlohmann::json;

json ParseJson(const std::string& text, const char* what) {
  // iproute2 prints nothing at all for some empty lists.
  if (text.find_first_not_of(" \n") == std::string::npos) return json::array();
  try {
    json j = json::parse(text);
    if (!j.is_array()) throw CommandError(fmt::format("{}: expected a JSON array", what));
    return j;
  } catch (const json::exception& e) {
    throw CommandError(fmt::format("cannot read the output of {}: {}", what, e.what()));
  }
}

// Calls read(), turning a JSON value of an unexpected type into a CommandError.
template <class Read>
auto Guard(const char* what, Read read) {
  try {
    return read();
  } catch (const json::exception& e) {
    throw CommandError(fmt::format("cannot read the output of {}: {}", what, e.what()));
  }
}

// Runs a status query; an interface or namespace that is missing gives "" instead of an error.
std::string Query(const CommandRunner& run, const std::vector<std::string>& argv) {
  const CommandResult r = run(argv);
  return r.exit_code == 0 ? r.out : "";
}

ShapingStatus ReadShaping(const CommandRunner& run, const std::string& netns,
                          std::string_view dev) {
  const std::string d(dev);
  ShapingStatus s;
  s.qdisc = ParseRootQdisc(Query(run, {"tc", "-j", "-n", netns, "qdisc", "show", "dev", d}));
  if (s.qdisc.empty()) return s;
  ParseHtbClasses(Query(run, {"tc", "-n", netns, "class", "show", "dev", d}), s);
  const std::string filters = Query(run, {"tc", "-j", "-n", netns, "filter", "show", "dev", d});
  s.filters = ParseTosFilters(filters);
  s.ack_filter = HasAckFilter(filters);
  return s;
}

// Host indices present, from the namespace names ("sfh12" -> 12), sorted; a host name whose
// index no testbed has is a problem.
std::vector<int> HostIndices(const std::vector<std::string>& owned, const TestbedNames& names,
                             std::vector<std::string>& problems) {
  std::vector<int> indices;
  const size_t digits = names.prefix.size() + 1;
  for (const std::string& netns : owned) {
    if (netns == names.Switch()) continue;
    int index = -1;
    const auto [end, ec] =
        std::from_chars(netns.data() + digits, netns.data() + netns.size(), index);
    if (ec != std::errc() || index >= kMaxTestbedHosts) {
      problems.push_back(fmt::format("{} is not a testbed host", netns));
      continue;
    }
    indices.push_back(index);
  }
  std::sort(indices.begin(), indices.end());
  return indices;
}

void CheckHost(const HostStatus& h, int expected_index, std::vector<std::string>& problems) {
  if (h.index != expected_index) {
    problems.push_back(fmt::format("host {} is missing", expected_index));
  }
  if (h.address != fmt::format("{}/{}", HostAddress(h.index), kHostPrefixLength)) {
    problems.push_back(fmt::format("{} has address '{}'", h.netns, h.address));
  }
  if (!h.uplink.Complete()) problems.push_back(fmt::format("{} eth0 is not shaped", h.netns));
  if (!h.port.Complete()) {
    problems.push_back(fmt::format("switch {} is not shaped", TestbedNames::Port(h.index)));
  }
}

}  // namespace

bool ShapingStatus::Complete() const {
  if (qdisc != "htb" || classes != 1 + kPriorityClasses) return false;
  if (!ack_filter || filters.size() != static_cast<size_t>(kPriorityClasses)) return false;
  for (int p = 0; p < kPriorityClasses; ++p) {
    auto it = filters.find(TosOfPriority(p));
    if (it == filters.end() || it->second != PriorityClassId(p)) return false;
  }
  return true;
}

std::vector<std::string> ParseNetnsList(const std::string& text) {
  return Guard("ip -j netns list", [&] {
    std::vector<std::string> names;
    for (const json& ns : ParseJson(text, "ip -j netns list"))
      names.push_back(ns.value("name", ""));
    return names;
  });
}

std::string ParseIpv4Address(const std::string& text) {
  return Guard("ip -j addr show", [&]() -> std::string {
    for (const json& link : ParseJson(text, "ip -j addr show")) {
      for (const json& a : link.value("addr_info", json::array())) {
        if (a.value("family", "") == "inet") {
          return fmt::format("{}/{}", a.value("local", ""), a.value("prefixlen", 0));
        }
      }
    }
    return "";
  });
}

std::string ParseRootQdisc(const std::string& text) {
  return Guard("tc -j qdisc show", [&]() -> std::string {
    for (const json& q : ParseJson(text, "tc -j qdisc show")) {
      if (q.value("root", false)) return q.value("kind", "");
    }
    return "";
  });
}

void ParseHtbClasses(const std::string& text, ShapingStatus& status) {
  std::istringstream lines(text);
  std::string line;
  status.classes = 0;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string kind, qdisc, id, word;
    if (!(words >> kind >> qdisc >> id) || kind != "class" || qdisc != "htb") continue;
    ++status.classes;
    if (id != "1:1") continue;
    while (words >> word) {
      if (word == "rate" && words >> word) status.rate = word;
    }
  }
}

std::map<int, std::string> ParseTosFilters(const std::string& text) {
  return Guard("tc -j filter show", [&] {
    std::map<int, std::string> filters;
    for (const json& f : ParseJson(text, "tc -j filter show")) {
      if (f.value("kind", "") != "u32" || !f.contains("options")) continue;
      const json& o = f["options"];
      if (!o.contains("flowid") || !o.contains("match")) continue;
      const json& m = o["match"];
      if (m.value("off", -1) != 0 || m.value("mask", "") != "e00000") continue;
      // The match is on the first 32-bit word of the IP header; the TOS byte is its second byte.
      const std::string value = m.value("value", "");
      uint32_t word = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), word, 16);
      if (ec != std::errc() || end != value.data() + value.size()) continue;
      filters[static_cast<int>(word >> 16)] = o.value("flowid", "");
    }
    return filters;
  });
}

bool HasAckFilter(const std::string& text) {
  return Guard("tc -j filter show", [&] {
    for (const json& f : ParseJson(text, "tc -j filter show")) {
      if (f.value("kind", "") != "u32" || !f.contains("options")) continue;
      const json& o = f["options"];
      if (o.value("flowid", "") != PriorityClassId(0) || !o.contains("match")) continue;
      const json& m = o["match"];
      if (m.value("off", -1) == 32 && m.value("mask", "") == "ff0000" &&
          m.value("value", "") == "100000") {
        return true;
      }
    }
    return false;
  });
}

std::vector<std::string> ListNamespaces(const CommandRunner& run) {
  return ParseNetnsList(RunOrThrow(run, {"ip", "-j", "netns", "list"}).out);
}

TestbedStatus ReadTestbedStatus(const TestbedNames& names, const CommandRunner& run) {
  TestbedStatus st;
  for (const std::string& netns : ListNamespaces(run)) {
    if (names.Owns(netns)) st.namespaces.push_back(netns);
  }
  std::sort(st.namespaces.begin(), st.namespaces.end());
  st.has_switch =
      std::find(st.namespaces.begin(), st.namespaces.end(), names.Switch()) != st.namespaces.end();
  if (!st.has_switch && !st.namespaces.empty()) st.problems.push_back("the switch is missing");
  const std::vector<int> indices = HostIndices(st.namespaces, names, st.problems);
  for (size_t k = 0; k < indices.size(); ++k) {
    HostStatus h;
    h.index = indices[k];
    h.netns = names.Host(h.index);
    h.address = ParseIpv4Address(Query(run, {"ip", "-j", "-n", h.netns, "-4", "addr", "show", "dev",
                                             std::string(kHostInterface)}));
    h.uplink = ReadShaping(run, h.netns, kHostInterface);
    if (st.has_switch) h.port = ReadShaping(run, names.Switch(), TestbedNames::Port(h.index));
    CheckHost(h, static_cast<int>(k), st.problems);
    st.hosts.push_back(std::move(h));
  }
  if (st.has_switch && st.hosts.empty()) st.problems.push_back("no hosts");
  return st;
}

}  // namespace slotflow
