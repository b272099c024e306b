// Typed policy settings. A policy declares each of its settings in its own file (name, kind,
// default, valid range, one-line meaning); values come from the config file's [scheduler] and
// [network] tables, from `--set KEY=VALUE` flags and from system presets, all as text, and are
// checked by one rule whatever their source. Errors name the source (flag, or file:line) and
// the key.
// Policy API (src/api/): stable, see docs/plugins.md#the-policy-api.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/error.h"

namespace slotflow {

enum class SettingKind {
  kInteger,      // a whole number
  kNumber,       // a finite real number
  kBytes,        // a size: "10MiB", "64MB" or a number of bytes
  kSeconds,      // a duration: "100ms", "5s" or a number of seconds
  kRate,         // "1Gbps", "125MB/s" or a number of bytes per second
  kChoice,       // one of a fixed list of words
  kQueues,       // a positive count of priority classes, or "unlimited"
  kQueueShares,  // capacity queues: "name:share[:max], ..." (see ParseQueueShares)
  kText,         // a non-empty word or path, as written
  kSwitch,       // on or off: "true" or "false" (1 or 0)
};

// One capacity queue (Hadoop's capacity scheduler): its name, its guaranteed share of the
// cluster's slots and the most it may use when others leave slots idle, both in (0, 1].
struct QueueShare {
  std::string name;
  double share = 1;
  double max = 1;
};
// "name:share[:max], ..." (max defaults to 1): names of letters, digits, '-' and '_', unique;
// 0 < share <= max <= 1; shares summing to 1, as Hadoop requires of a level of queues.
// InputError naming `field` otherwise.
std::vector<QueueShare> ParseQueueShares(std::string_view text, std::string_view field);

// A setting as its policy declares it. Numbers must lie in [min, max] (or (min, max] when
// min_exclusive); the default is written as a user would write it.
struct SettingSpec {
  std::string name;
  SettingKind kind = SettingKind::kNumber;
  std::string default_value;
  std::string meaning;
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool min_exclusive = false;
  std::vector<std::string> choices = {};  // kChoice
};

// The unit word shown next to a setting in listings ("bytes", "s", "bytes/s", or "").
std::string_view SettingUnit(SettingKind kind);
// "[1, 64]", "> 1", "fifo | sjf | fair", "positive count or unlimited", ...
std::string SettingRange(const SettingSpec& spec);

struct SettingAssignment;
// Parses one assignment as `spec` declares it: the number (0 for a choice) and, in `canonical`,
// the text kept for summaries. InputError naming the assignment's source and field.
double ParseSetting(const SettingSpec& spec, const SettingAssignment& given,
                    std::string& canonical);

// One value given for a key, and where it came from (for error messages).
struct SettingAssignment {
  std::string key;    // "queues" (already stripped of its "network." / "scheduler." prefix)
  std::string value;  // as written: "10MiB", "unlimited", "8"
  std::string file;   // config file, or empty for a command-line flag
  int line = 0;
  std::string field;  // what the user wrote: "--set network.queues", "network.queues"
};

// Where an assignment was given, for a message: "file:line" (or the file), else its field.
std::string WhereGiven(const SettingAssignment& a);

// Values of every declared setting of one policy: defaults, overridden in order by the
// assignments given. Parsed and range-checked on construction.
class Settings {
 public:
  Settings() = default;
  // Throws InputError naming the assignment's source and field on an unknown key (listing the
  // known ones, under `what`, e.g. "network policy 'aalo'") or a bad value. `field_prefix`
  // ("scheduler.", "network.") names a setting left at its default in later errors.
  Settings(const std::vector<SettingSpec>& specs, const std::vector<SettingAssignment>& given,
           std::string_view what, std::string_view field_prefix = "");
  // A convenience for tests and presets: key → value text, the field is the key.
  Settings(const std::vector<SettingSpec>& specs, const std::map<std::string, std::string>& given,
           std::string_view what);

  // Typed reads; the name must be declared (std::logic_error otherwise: a policy bug).
  double Number(std::string_view name) const;  // kInteger, kNumber, kBytes, kSeconds, kRate
  int64_t Integer(std::string_view name) const;
  // kText: the word or path in force, as written.
  const std::string& Text(std::string_view name) const;
  // kChoice: the value `table` gives the word in force, e.g.
  //   Choice<Which>("priority", {{"by-mode", Which::kByMode}, {"coflow", Which::kCoflow}, ...}).
  // Read once, when the policy is built. The table must give every choice the setting declares
  // exactly once and nothing else, whatever the word in force: std::logic_error otherwise, so
  // a misspelt or missing word fails the first time the policy is built.
  template <class E>
  E Choice(std::string_view name, const std::vector<std::pair<std::string_view, E>>& table) const {
    std::vector<std::string_view> words;
    words.reserve(table.size());
    for (const auto& entry : table) words.push_back(entry.first);
    return table[ChoiceIndex(name, words)].second;
  }
  // kQueues: the count, or 0 for "unlimited".
  int Queues(std::string_view name) const;
  // kQueueShares.
  std::vector<QueueShare> QueueShares(std::string_view name) const;

  // Every setting in force, in declaration order, as canonical text (for summaries).
  std::vector<std::pair<std::string, std::string>> InForce() const;

  // Where the value in force came from: the assignment that set it last (a file and line, or
  // no file and the flag or preset in `field`), or for a default no file and the field
  // `field_prefix` + name. For an error about this value that a policy finds later.
  const SettingAssignment& Source(std::string_view name) const;
  // The error for settings that contradict each other (k1 above k2, weights that do not sum to
  // 1), to throw: at the source of the one of `names` given last, `message` followed by where
  // each other one given came from; at the first of `names` when all are defaults.
  InputError Conflict(std::initializer_list<std::string_view> names,
                      std::string_view message) const;

 private:
  struct Value {
    std::string text;  // canonical: a choice, "unlimited", or the number's shortest form
    double number = 0;
    SettingAssignment from;  // see Source
    int order = -1;          // its position among the assignments given; -1: the default
  };
  size_t Index(std::string_view name) const;
  // The position in `words` of the word in force; std::logic_error unless `words` are the
  // setting's choices, each once.
  size_t ChoiceIndex(std::string_view name, const std::vector<std::string_view>& words) const;
  std::vector<SettingSpec> specs_;
  std::vector<Value> values_;  // parallel to specs_
};

// Policy construction arguments: its settings and the run's seed.
struct PolicyArgs {
  Settings settings;
  uint64_t seed = 1;
  std::string network_policy;  // for a task scheduler: the network policy in force (may be empty)
};

}  // namespace slotflow
