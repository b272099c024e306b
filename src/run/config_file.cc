// Config files read into a RunSpec: TOML text, a parsed table, or a summary.json's "setup".
#include "run/config_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "api/error.h"
#include "cluster/cluster_config.h"
#include "common/input_file.h"
#include "common/json_input.h"
#include "run/setup.h"

namespace slotflow {
namespace {

int Line(const toml::node& n) { return static_cast<int>(n.source().begin.line); }

std::string StringOf(const toml::node& n, const std::string& file, const std::string& field) {
  if (auto v = n.value<std::string>()) return *v;
  throw InputError(file, Line(n), field, "expected a string");
}

// Re-throws a parse error from a value with the config file's position attached.
template <class F>
auto At(const toml::node& n, const std::string& file, const std::string& field, F parse) {
  try {
    return parse();
  } catch (const InputError& e) {
    throw InputError(file, Line(n), field, e.message());
  }
}

}  // namespace

std::string SettingText(const toml::node& n, const std::string& file, const std::string& field) {
  if (auto v = n.value_exact<std::string>()) return *v;
  if (auto v = n.value_exact<int64_t>()) return std::to_string(*v);
  if (auto v = n.value_exact<double>()) return fmt::format("{}", *v);
  if (auto v = n.value_exact<bool>()) return *v ? "true" : "false";
  throw InputError(file, Line(n), field, "expected a string or a number");
}

void ApplyConfigFile(const std::string& path, RunSpec& spec) {
  ApplyConfigSource(ReadInputFile(path, "config"), path, spec);
}

void ApplyConfigSource(std::string_view read, const std::string& path, RunSpec& spec) {
  const std::string_view text = SkipByteOrderMark(read);
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || text[first] != '{') {
    ApplyConfigText(text, path, spec);
    return;
  }
  // A summary.json: its "setup" is the config that reproduces the run.
  const nlohmann::json summary = json_input::Parse(text, path);
  ApplyConfigTable(SetupFromSummaryJson(summary, path), path, spec);
}

toml::table ParseToml(std::string_view text, const std::string& path) {
  try {
    return toml::parse(text, std::string_view(path));
  } catch (const toml::parse_error& e) {
    throw InputError(path, static_cast<int>(e.source().begin.line), "",
                     std::string(e.description()));
  }
}

void ApplyConfigText(std::string_view text, const std::string& path, RunSpec& spec,
                     const std::vector<std::string_view>& skip) {
  ApplyConfigTable(ParseToml(text, path), path, spec, skip);
}

namespace {

void ApplyWorkloadTable(const toml::node& node, const std::string& path, RunSpec& spec) {
  if (!node.is_table()) throw InputError(path, Line(node), "workload", "expected a table");
  for (const auto& [wk, wn] : *node.as_table()) {
    const std::string f = "workload." + std::string(wk.str());
    if (wk == "trace" || wk == "jobs" || wk == "sha256") {
      std::string value = StringOf(wn, path, f);
      if (value.empty()) throw InputError(path, Line(wn), f, "is empty");
      if (wk != "sha256") spec.input_from = {std::string(wk.str()), value, path, Line(wn), f};
      spec.given_at[f] = {std::string(wk.str()), value, path, Line(wn), f};
      (wk == "trace"  ? spec.trace
       : wk == "jobs" ? spec.jobs_file
                      : spec.input_sha256) = std::move(value);
      if (wk == "sha256") {
        spec.input_sha256_from = path;
        spec.input_sha256_line = Line(wn);
      }
    } else if (wk == "mode") {
      spec.mode = At(wn, path, f, [&, &n = wn] { return ParseRunMode(StringOf(n, path, f), f); });
      spec.given_at["workload.mode"] = {"mode", std::string(RunModeName(spec.mode)), path, Line(wn),
                                        f};
    } else {
      SetWorkloadValue(spec, std::string(wk.str()), SettingText(wn, path, f), path, Line(wn), f);
    }
  }
}

}  // namespace

void ApplyConfigTable(const toml::table& root, const std::string& path, RunSpec& spec,
                      const std::vector<std::string_view>& skip) {
  auto skipped = [&](std::string_view k) {
    return std::find(skip.begin(), skip.end(), k) != skip.end();
  };
  // The preset first: everything else in the file overrides it, whatever the key order.
  if (const toml::node* system = root.get("system"); system && !skipped("system")) {
    const std::string name = StringOf(*system, path, "system");
    At(*system, path, "system", [&] {
      ApplySystem(spec, name, "system");
      return 0;
    });
  }
  for (const auto& [key, node] : root) {
    const std::string k(key.str());
    if (skipped(k) || k == "system") continue;
    if (k == "cluster") {
      if (!node.is_table()) throw InputError(path, Line(node), "cluster", "expected a table");
      ApplyClusterToml(*node.as_table(), path, spec.cluster);
      spec.cluster_layers.emplace_back(path, *node.as_table());
      for (const char* ck : {"servers", "class"}) {
        const std::string f = "cluster." + std::string(ck);
        if (const toml::node* n = node.as_table()->get(ck))
          spec.given_at[f] = {ck, "", path, Line(*n), f};
      }
    } else if (k == "workload") {
      ApplyWorkloadTable(node, path, spec);
    } else if (k == "scheduler" || k == "network") {
      if (!node.is_table()) throw InputError(path, Line(node), k, "expected a table");
      for (const auto& [pk, pn] : *node.as_table()) {
        const std::string f = k + "." + std::string(pk.str());
        SetPolicySetting(spec, f, SettingText(pn, path, f), path, Line(pn), f);
      }
    } else if (k == "rates") {
      if (!node.is_table()) throw InputError(path, Line(node), k, "expected a table");
      for (const auto& [rk, rn] : *node.as_table()) {
        const std::string f = "rates." + std::string(rk.str());
        SetRatesValue(spec, std::string(rk.str()), SettingText(rn, path, f), path, Line(rn), f);
      }
    } else if (k == "seed") {
      spec.simulation.seed =
          At(node, path, k, [&, &n = node] { return ParseSeed(SettingText(n, path, k), k); });
    } else {
      throw InputError(
          path, Line(node), k,
          "unknown key (known: seed, system, [cluster], [workload], [scheduler], [network], "
          "[rates])");
    }
  }
}
}  // namespace slotflow
