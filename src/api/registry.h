// A name → factory table. Each policy registers itself from its own file with one line, so
// the rest of the code never names a concrete policy (cf. LevelDB's NewBloomFilterPolicy).
// An entry carries the policy's description, the settings it declares (api/settings.h) and,
// in a registry that asks for one, a `Declared` value: what every policy of that kind must
// state about itself (a network policy: the predictor NEAT+ uses for it). Such a registry
// refuses an entry without it: Add then takes it as a required argument.
// Policy API (src/api/): stable, see docs/plugins.md#the-policy-api.
#pragma once

#include <fmt/format.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "api/error.h"
#include "api/settings.h"

// A fresh identifier per use, for the static variables of the SLOTFLOW_REGISTER_* macros (so
// one file may register several names).
#define SLOTFLOW_CONCAT_INNER(a, b) a##b
#define SLOTFLOW_CONCAT(a, b) SLOTFLOW_CONCAT_INNER(a, b)
#define SLOTFLOW_UNIQUE_NAME(prefix) SLOTFLOW_CONCAT(prefix, __COUNTER__)

// Registers a factory (PolicyArgs → std::unique_ptr<product>) in `registry` under `name`, with
// the settings the policy declares and, after them, the registry's Declared value if it has
// one. The policy interfaces wrap these in their own macros.
#define SLOTFLOW_REGISTER_WITH(registry, name, description, settings, factory, ...) \
  static const bool SLOTFLOW_UNIQUE_NAME(slotflow_registered_) =                    \
      registry::Get().Add(name, description, settings, factory __VA_OPT__(, ) __VA_ARGS__)
// The same for a type constructed from a PolicyArgs.
#define SLOTFLOW_REGISTER_TYPE(registry, product, name, description, settings, type, ...) \
  SLOTFLOW_REGISTER_WITH(registry, name, description, settings,                           \
                         [](const ::slotflow::PolicyArgs& args) {                         \
                           return std::unique_ptr<product>(new type(args));               \
                         } __VA_OPT__(, ) __VA_ARGS__)

namespace slotflow {

// `Declared`: what each entry must state besides its settings; std::monostate for nothing.
// Visible from every shared object whatever its default visibility (the Python extension hides
// its symbols): so that the core, the extension and plugins all reach one table per kind.
template <class Product, class Declared = std::monostate>
class __attribute__((visibility("default"))) Registry {
 public:
  using Factory = std::function<std::unique_ptr<Product>(const PolicyArgs&)>;
  static constexpr bool kDeclares = !std::is_same_v<Declared, std::monostate>;
  struct Entry {
    std::string description;
    std::vector<SettingSpec> settings;
    Factory factory;
    Declared declared;
  };

  // The one table of this kind: defined in libslotflow alone (SLOTFLOW_DEFINE_REGISTRY), so that
  // the Python extension and plugins, however they are linked, reach the core's.
  static Registry& Get();

  bool Add(const std::string& name, std::string description, std::vector<SettingSpec> settings,
           Factory factory) requires(!kDeclares) {
    return Put(name, Entry{std::move(description), std::move(settings), std::move(factory), {}});
  }
  bool Add(const std::string& name, std::string description, std::vector<SettingSpec> settings,
           Factory factory, Declared declared) requires kDeclares {
    return Put(name, Entry{std::move(description), std::move(settings), std::move(factory),
                           std::move(declared)});
  }

  // While a plugin loads (run/plugins.h), an Add under a name already taken keeps the entry
  // there and is recorded; EndRefusing returns the names refused.
  void BeginRefusing() {
    refusing_ = true;
    refused_.clear();
  }
  std::vector<std::string> EndRefusing() {
    refusing_ = false;
    return std::exchange(refused_, {});
  }

  bool Has(const std::string& name) const { return entries_.count(name) > 0; }
  // Drops an entry added at run time (a policy registered from Python, at exit).
  void Remove(const std::string& name) { entries_.erase(name); }

  // Throws InputError at `file`:`line` naming `field` and listing the known names.
  const Entry& Find(const std::string& name, const std::string& field, const std::string& file = "",
                    int line = 0) const {
    auto it = entries_.find(name);
    if (it == entries_.end()) {
      throw InputError(file, line, field,
                       fmt::format("unknown name '{}' (known: {})", name, Names()));
    }
    return it->second;
  }

  std::unique_ptr<Product> Make(const std::string& name, const PolicyArgs& args,
                                const std::string& field) const {
    return Find(name, field).factory(args);
  }
  // For tests: key → value text.
  std::unique_ptr<Product> Make(const std::string& name,
                                const std::map<std::string, std::string>& given = {},
                                uint64_t seed = 1) const {
    const Entry& e = Find(name, "policy");
    return e.factory(PolicyArgs{Settings(e.settings, given, name), seed, ""});
  }

  std::string Names() const {
    std::string out;
    for (const auto& [n, e] : entries_) out += (out.empty() ? "" : ", ") + n;
    return out;
  }
  const std::map<std::string, Entry>& entries() const { return entries_; }

 private:
  bool Put(const std::string& name, Entry entry) {
    if (refusing_ && entries_.count(name) > 0) {
      refused_.push_back(name);
      return false;
    }
    entries_[name] = std::move(entry);
    return true;
  }

  std::map<std::string, Entry> entries_;
  bool refusing_ = false;
  std::vector<std::string> refused_;
};

template <class Product, class Declared>
Registry<Product, Declared>& Registry<Product, Declared>::Get() {
  static Registry registry;
  return registry;
}

}  // namespace slotflow

// After a registry's alias, in its header: every other library calls the core's Get().
#define SLOTFLOW_DECLARE_REGISTRY(registry) extern template registry& registry::Get()
// In one source file of the core.
#define SLOTFLOW_DEFINE_REGISTRY(registry) template registry& registry::Get()
