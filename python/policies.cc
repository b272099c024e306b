#include "policies.h"

#include <pybind11/stl.h>

#include <map>
#include <set>
#include <utility>

#include "api/error.h"
#include "api/network_policy.h"
#include "api/task_scheduler.h"

namespace slotflow {
namespace {

SettingKind KindNamed(const std::string& kind) {
  static const std::pair<const char*, SettingKind> kKinds[] = {
      {"integer", SettingKind::kInteger}, {"number", SettingKind::kNumber},
      {"bytes", SettingKind::kBytes},     {"seconds", SettingKind::kSeconds},
      {"rate", SettingKind::kRate},       {"choice", SettingKind::kChoice},
      {"queues", SettingKind::kQueues}};
  for (const auto& [name, k] : kKinds) {
    if (kind == name) return k;
  }
  throw py::value_error("setting kind '" + kind +
                        "' (known: integer, number, bytes, seconds, rate, choice, queues)");
}

// (kind, name) of every policy registered from Python.
std::set<std::pair<std::string, std::string>>& PythonNames() {
  static std::set<std::pair<std::string, std::string>> names;
  return names;
}

}  // namespace

std::vector<SettingSpec> DeclaredSettings(const std::vector<py::dict>& settings,
                                          const std::string& policy) {
  std::vector<SettingSpec> specs;
  for (const py::dict& s : settings) {
    SettingSpec spec;
    spec.name = s["name"].cast<std::string>();
    spec.kind = KindNamed(s["kind"].cast<std::string>());
    spec.default_value = py::str(s["default"]).cast<std::string>();
    spec.meaning = s.contains("meaning") ? s["meaning"].cast<std::string>() : "";
    if (s.contains("min") && !s["min"].is_none()) spec.min = s["min"].cast<double>();
    if (s.contains("max") && !s["max"].is_none()) spec.max = s["max"].cast<double>();
    if (s.contains("choices")) spec.choices = s["choices"].cast<std::vector<std::string>>();
    specs.push_back(std::move(spec));
  }
  Settings(specs, std::map<std::string, std::string>{}, policy);  // the defaults, checked
  return specs;
}

py::dict SettingValues(const Settings& settings, const std::vector<SettingSpec>& specs) {
  py::dict values;
  for (const auto& [key, text] : settings.InForce()) {
    for (const SettingSpec& spec : specs) {
      if (key != spec.name) continue;
      if (spec.kind == SettingKind::kChoice) {
        values[py::str(key)] = text;
      } else if (spec.kind == SettingKind::kInteger) {
        values[py::str(key)] = settings.Integer(key);
      } else if (spec.kind == SettingKind::kQueues) {
        values[py::str(key)] = settings.Queues(key);  // 0: unlimited
      } else {
        values[py::str(key)] = settings.Number(key);
      }
    }
  }
  return values;
}

void ClaimPythonName(const std::string& kind, const std::string& name, bool registered) {
  if (registered && PythonNames().count({kind, name}) == 0) {
    throw py::value_error("'" + name + "' is a built-in " +
                          (kind == "scheduler" ? "task scheduler" : "network policy") +
                          "; choose another name");
  }
  PythonNames().insert({kind, name});
}

void UnregisterPythonPolicies() {
  for (const auto& [kind, name] : PythonNames()) {
    if (kind == "scheduler") {
      TaskSchedulerRegistry::Get().Remove(name);
    } else {
      NetworkPolicyRegistry::Get().Remove(name);
    }
  }
  PythonNames().clear();
}

std::string TypeName(py::handle value) {
  return py::str(value.get_type().attr("__name__")).cast<std::string>();
}

bool IsInteger(py::handle value) {
  return !py::isinstance<py::bool_>(value) && !py::isinstance<py::array>(value) &&
         (py::isinstance<py::int_>(value) || PyIndex_Check(value.ptr()));
}

void ReasonWords::Add(py::handle reasons, Why& why, const std::string& source) {
  if (!py::isinstance<py::dict>(reasons)) {
    throw InputError(source, 0, "why",
                     "expected a dict of names to numbers or words, not " + TypeName(reasons));
  }
  for (auto [k, v] : reasons.cast<py::dict>()) {
    const std::string name = py::str(k).cast<std::string>();
    const char* key = Intern(name);
    if (py::isinstance<py::str>(v)) {
      why.Add(key, Intern(v.cast<std::string>()));
    } else if (py::isinstance<py::int_>(v) || py::isinstance<py::float_>(v) ||
               PyIndex_Check(v.ptr()) || py::hasattr(v, "__float__")) {
      why.Add(key, v.cast<double>());
    } else {
      throw InputError(source, 0, "why." + name,
                       "expected a number or a word, not " + TypeName(v) +
                           " (a why is flat: one level of names)");
    }
  }
}

}  // namespace slotflow
