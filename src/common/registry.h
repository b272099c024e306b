// A name → factory table. Each policy registers itself from its own file with one line, so
// the rest of the code never names a concrete policy (cf. LevelDB's NewBloomFilterPolicy).
#pragma once

#include <fmt/format.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/error.h"

// A fresh identifier per use, for the static variables of the SLOTFLOW_REGISTER_* macros (so
// one file may register several names).
#define SLOTFLOW_CONCAT_INNER(a, b) a##b
#define SLOTFLOW_CONCAT(a, b) SLOTFLOW_CONCAT_INNER(a, b)
#define SLOTFLOW_UNIQUE_NAME(prefix) SLOTFLOW_CONCAT(prefix, __COUNTER__)

namespace slotflow {

template <class Product, class Config>
class Registry {
 public:
  using Factory = std::function<std::unique_ptr<Product>(const Config&)>;
  struct Entry {
    std::string description;
    Factory factory;
  };

  static Registry& Get() {
    static Registry registry;
    return registry;
  }

  bool Add(const std::string& name, std::string description, Factory factory) {
    entries_[name] = Entry{std::move(description), std::move(factory)};
    return true;
  }

  bool Has(const std::string& name) const { return entries_.count(name) > 0; }

  // Throws InputError naming `field` and listing the known names.
  std::unique_ptr<Product> Make(const std::string& name, const Config& config,
                                const std::string& field) const {
    auto it = entries_.find(name);
    if (it == entries_.end()) {
      throw InputError("", 0, field, fmt::format("unknown name '{}' (known: {})", name, Names()));
    }
    return it->second.factory(config);
  }

  std::string Names() const {
    std::string out;
    for (const auto& [n, e] : entries_) out += (out.empty() ? "" : ", ") + n;
    return out;
  }
  const std::map<std::string, Entry>& entries() const { return entries_; }

 private:
  std::map<std::string, Entry> entries_;
};

}  // namespace slotflow
