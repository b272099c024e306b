#include "run/plugins.h"

#include <dlfcn.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <map>
#include <set>
#include <vector>

#include "api/error.h"
#include "api/network_policy.h"
#include "api/plugin.h"
#include "api/task_scheduler.h"
#include "common/input_file.h"
#include "common/version.h"
#include "api/generator.h"

namespace slotflow {
namespace {

// Every table a plugin may add to, and what `f` does with each.
template <class F>
void ForEachRegistry(F&& f) {
  f(TaskSchedulerRegistry::Get(), "task scheduler");
  f(NetworkPolicyRegistry::Get(), "network policy");
  f(GeneratorRegistry::Get(), "workload generator");
}

template <class R>
std::set<std::string> NamesOf(const R& registry) {
  std::set<std::string> names;
  for (const auto& [name, entry] : registry.entries()) names.insert(name);
  return names;
}

}  // namespace

std::string SlotflowBuildId() {
  return fmt::format("{} (commit {})", SlotflowVersion(), SlotflowCommit());
}

void LoadPlugin(const std::string& path, const std::string& field) {
  CheckInputFile(path, field);
  // A path with a slash: dlopen does not search the library path for it.
  const std::string file = std::filesystem::canonical(path).string();
  // A plugin refused once stays refused: loaded again, its registrations would not run again.
  static std::map<std::string, std::string> refused;
  if (auto it = refused.find(file); it != refused.end()) {
    throw InputError("", 0, field, it->second);
  }
  std::vector<std::set<std::string>> before;
  ForEachRegistry([&](auto& r, const char*) {
    before.push_back(NamesOf(r));
    r.BeginRefusing();
  });
  void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  const char* load_error = handle ? nullptr : dlerror();
  std::vector<std::string> taken;
  ForEachRegistry([&](auto& r, const char* kind) {
    for (const std::string& name : r.EndRefusing()) {
      taken.push_back(fmt::format("{} '{}'", kind, name));
    }
  });
  std::string problem;
  if (!handle) {
    problem = fmt::format("cannot load {}: {}", path, load_error ? load_error : "unknown error");
  } else if (auto build =
                 reinterpret_cast<const char* (*)()>(dlsym(handle, SLOTFLOW_PLUGIN_SYMBOL));
             !build) {
    problem = fmt::format(
        "{} is not a slotflow plugin: it does not define {} (write SLOTFLOW_PLUGIN(); from "
        "api/plugin.h in one of its files)",
        path, SLOTFLOW_PLUGIN_SYMBOL);
  } else if (const std::string built = build(); built != SlotflowBuildId()) {
    problem = fmt::format(
        "{} was built against slotflow {}, and this is slotflow {}: rebuild it against this "
        "build's installed package",
        path, built, SlotflowBuildId());
  } else if (!taken.empty()) {
    problem = fmt::format("{} registers names already taken: {}", path, fmt::join(taken, ", "));
  }
  if (problem.empty()) return;
  // None of its policies stays (the object itself stays loaded: code of it may be referenced).
  size_t i = 0;
  ForEachRegistry([&](auto& r, const char*) {
    for (const std::string& name : NamesOf(r)) {
      if (before[i].count(name) == 0) r.Remove(name);
    }
    ++i;
  });
  if (handle) refused[file] = problem;
  throw InputError("", 0, field, problem);
}

}  // namespace slotflow
