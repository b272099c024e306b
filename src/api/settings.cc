#include "api/settings.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include "api/error.h"
#include "api/units.h"

namespace slotflow {
namespace {

// The largest count of priority classes a policy may be given: each class costs the solver
// per-class state, and no paper uses more than a few dozen.
constexpr int64_t kMaxQueues = 1 << 16;

std::string_view Trim(std::string_view t) {
  while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
  while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
  return t;
}

int64_t ParseInteger(std::string_view text, std::string_view field) {
  const std::string_view t = Trim(text);
  int64_t v = 0;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec == std::errc::result_out_of_range) {
    throw InputError("", 0, std::string(field), fmt::format("'{}' is out of range", text));
  }
  if (ec != std::errc() || end != t.data() + t.size() || t.empty()) {
    throw InputError("", 0, std::string(field), fmt::format("expected an integer, got '{}'", text));
  }
  return v;
}

double ParseNumber(std::string_view text, std::string_view field) {
  const std::string_view t = Trim(text);
  double v = 0;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || end != t.data() + t.size() || t.empty() || !std::isfinite(v)) {
    throw InputError("", 0, std::string(field),
                     fmt::format("expected a finite number, got '{}'", text));
  }
  return v;
}

std::string FormatLimit(const SettingSpec& spec, double v) {
  switch (spec.kind) {
    case SettingKind::kBytes:
      return FormatBytes(v);
    case SettingKind::kSeconds:
      return FormatSeconds(v);
    default:
      return fmt::format("{}", v);
  }
}

// Parses `text` as `spec` declares; throws InputError naming `field` (no file yet).
double ParseValue(const SettingSpec& spec, std::string_view text, std::string_view field,
                  std::string& canonical) {
  canonical = std::string(Trim(text));
  double v = 0;
  switch (spec.kind) {
    case SettingKind::kChoice:
      for (const std::string& c : spec.choices) {
        if (c == canonical) return 0;
      }
      throw InputError("", 0, std::string(field),
                       fmt::format("unknown value '{}' (known: {})", text, SettingRange(spec)));
    case SettingKind::kQueues:
      if (canonical == "unlimited") return 0;
      v = static_cast<double>(ParseInteger(text, field));
      if (v < 1 || v > static_cast<double>(kMaxQueues)) {
        throw InputError(
            "", 0, std::string(field),
            fmt::format("expected a count in [1, {}] or 'unlimited', got '{}'", kMaxQueues, text));
      }
      return v;
    case SettingKind::kQueueShares:
      ParseQueueShares(text, field);
      return 0;
    case SettingKind::kText:
      if (canonical.empty()) throw InputError("", 0, std::string(field), "must not be empty");
      return 0;
    case SettingKind::kSwitch:
      if (canonical == "true" || canonical == "1") return canonical = "true", 1;
      if (canonical == "false" || canonical == "0") return canonical = "false", 0;
      throw InputError("", 0, std::string(field),
                       fmt::format("expected true or false, got '{}'", text));
    case SettingKind::kInteger:
      v = static_cast<double>(ParseInteger(text, field));
      break;
    case SettingKind::kNumber:
      v = ParseNumber(text, field);
      break;
    case SettingKind::kBytes:
      v = ParseBytes(text, field);
      break;
    case SettingKind::kSeconds:
      v = ParseSeconds(text, field);
      break;
    case SettingKind::kRate:
      v = ParseRate(text, field);
      break;
  }
  const bool low = spec.min_exclusive ? !(v > spec.min) : !(v >= spec.min);
  if (low || !(v <= spec.max) || !std::isfinite(v)) {
    throw InputError("", 0, std::string(field),
                     fmt::format("'{}' is out of range (valid: {})", text, SettingRange(spec)));
  }
  return v;
}

}  // namespace

std::vector<QueueShare> ParseQueueShares(std::string_view text, std::string_view field) {
  auto fail = [&](const std::string& what) {
    throw InputError("", 0, std::string(field),
                     fmt::format("{} in '{}' (expected name:share[:max],... with shares "
                                 "summing to 1, e.g. 'io:0.5,cpu:0.5:1')",
                                 what, text));
  };
  std::vector<QueueShare> out;
  double sum = 0;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view item = Trim(text.substr(start, comma - start));
    start = comma + 1;
    const size_t c1 = item.find(':');
    if (c1 == std::string_view::npos) fail(fmt::format("queue '{}' has no share", item));
    QueueShare q;
    q.name = std::string(Trim(item.substr(0, c1)));
    if (q.name.empty() || q.name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ"
                                                   "RSTUVWXYZ0123456789-_") != std::string::npos) {
      fail(fmt::format("bad queue name '{}'", q.name));
    }
    for (const QueueShare& other : out) {
      if (other.name == q.name) fail(fmt::format("queue '{}' is listed twice", q.name));
    }
    const std::string_view rest = item.substr(c1 + 1);
    const size_t c2 = rest.find(':');
    q.share = ParseNumber(rest.substr(0, c2), field);
    if (c2 != std::string_view::npos) q.max = ParseNumber(rest.substr(c2 + 1), field);
    if (!(q.share > 0 && q.share <= q.max && q.max <= 1)) {
      fail(fmt::format("queue '{}' needs 0 < share <= max <= 1", q.name));
    }
    sum += q.share;
    out.push_back(std::move(q));
  }
  if (std::fabs(sum - 1) > 1e-6) fail(fmt::format("the shares sum to {:g}, not 1", sum));
  return out;
}

double ParseSetting(const SettingSpec& spec, const SettingAssignment& given,
                    std::string& canonical) {
  try {
    return ParseValue(spec, given.value, given.field, canonical);
  } catch (const InputError& e) {
    throw InputError(given.file, given.line, given.field, e.message());
  }
}

std::string_view SettingUnit(SettingKind kind) {
  switch (kind) {
    case SettingKind::kBytes:
      return "bytes";
    case SettingKind::kSeconds:
      return "s";
    case SettingKind::kRate:
      return "bytes/s";
    default:
      return "";
  }
}

std::string SettingRange(const SettingSpec& spec) {
  if (spec.kind == SettingKind::kChoice) {
    std::string out;
    for (const std::string& c : spec.choices) out += (out.empty() ? "" : " | ") + c;
    return out;
  }
  if (spec.kind == SettingKind::kQueues) return fmt::format("1..{} or unlimited", kMaxQueues);
  if (spec.kind == SettingKind::kQueueShares) return "name:share[:max],...";
  if (spec.kind == SettingKind::kText) return "text";
  if (spec.kind == SettingKind::kSwitch) return "true | false";
  const bool has_min = std::isfinite(spec.min), has_max = std::isfinite(spec.max);
  const std::string lo = (spec.min_exclusive ? "> " : ">= ") + FormatLimit(spec, spec.min);
  if (has_min && has_max) {
    return fmt::format("{}{}, {}]", spec.min_exclusive ? "(" : "[", FormatLimit(spec, spec.min),
                       FormatLimit(spec, spec.max));
  }
  if (has_min) return lo;
  if (has_max) return "<= " + FormatLimit(spec, spec.max);
  return "any";
}

Settings::Settings(const std::vector<SettingSpec>& specs,
                   const std::vector<SettingAssignment>& given, std::string_view what,
                   std::string_view field_prefix)
    : specs_(specs), values_(specs.size()) {
  for (size_t i = 0; i < specs_.size(); ++i) {
    const SettingSpec& s = specs_[i];
    try {
      values_[i].number = ParseValue(s, s.default_value, s.name, values_[i].text);
    } catch (const InputError& e) {
      throw std::logic_error(fmt::format("default of setting '{}': {}", s.name, e.what()));
    }
    values_[i].from = {s.name, s.default_value, "", 0, std::string(field_prefix) + s.name};
  }
  for (const SettingAssignment& a : given) {
    size_t i = 0;
    while (i < specs_.size() && specs_[i].name != a.key) ++i;
    if (i == specs_.size()) {
      std::string known;
      for (const SettingSpec& s : specs_) known += (known.empty() ? "" : ", ") + s.name;
      throw InputError(a.file, a.line, a.field,
                       fmt::format("unknown setting '{}' for {} (known: {})", a.key, what,
                                   known.empty() ? "none" : known));
    }
    values_[i].number = ParseSetting(specs_[i], a, values_[i].text);
    values_[i].from = a;
    values_[i].order = static_cast<int>(&a - given.data());
  }
}

Settings::Settings(const std::vector<SettingSpec>& specs,
                   const std::map<std::string, std::string>& given, std::string_view what)
    : Settings(
          specs,
          [&] {
            std::vector<SettingAssignment> list;
            for (const auto& [k, v] : given) list.push_back({k, v, "", 0, k});
            return list;
          }(),
          what) {}

size_t Settings::Index(std::string_view name) const {
  for (size_t i = 0; i < specs_.size(); ++i) {
    if (specs_[i].name == name) return i;
  }
  throw std::logic_error(fmt::format("setting '{}' is not declared", name));
}

double Settings::Number(std::string_view name) const { return values_[Index(name)].number; }

int64_t Settings::Integer(std::string_view name) const {
  return static_cast<int64_t>(values_[Index(name)].number);
}

const std::string& Settings::Text(std::string_view name) const { return values_[Index(name)].text; }

size_t Settings::ChoiceIndex(std::string_view name,
                             const std::vector<std::string_view>& words) const {
  const size_t i = Index(name);
  const SettingSpec& spec = specs_[i];
  if (spec.kind != SettingKind::kChoice) {
    throw std::logic_error(fmt::format("setting '{}' is not a choice", name));
  }
  for (size_t w = 0; w < words.size(); ++w) {
    const bool declared =
        std::find(spec.choices.begin(), spec.choices.end(), words[w]) != spec.choices.end();
    const bool repeated =
        std::find(words.begin(), words.begin() + w, words[w]) != words.begin() + w;
    if (!declared || repeated) {
      throw std::logic_error(fmt::format(
          "setting '{}' ({}): the policy reads '{}', which {}", name, SettingRange(spec), words[w],
          repeated ? "it lists twice" : "is not one of its choices"));
    }
  }
  for (const std::string& c : spec.choices) {
    if (std::find(words.begin(), words.end(), c) == words.end()) {
      throw std::logic_error(fmt::format("setting '{}' ({}): the policy does not read '{}'", name,
                                         SettingRange(spec), c));
    }
  }
  return static_cast<size_t>(std::find(words.begin(), words.end(), values_[i].text) -
                             words.begin());
}

int Settings::Queues(std::string_view name) const {
  return static_cast<int>(values_[Index(name)].number);
}

std::vector<QueueShare> Settings::QueueShares(std::string_view name) const {
  const size_t i = Index(name);
  return ParseQueueShares(values_[i].text, specs_[i].name);
}

const SettingAssignment& Settings::Source(std::string_view name) const {
  return values_[Index(name)].from;
}

std::string WhereGiven(const SettingAssignment& a) {
  if (a.file.empty()) return a.field;
  return a.line > 0 ? fmt::format("{}:{}", a.file, a.line) : a.file;
}

InputError Settings::Conflict(std::initializer_list<std::string_view> names,
                              std::string_view message) const {
  if (names.size() == 0) throw std::logic_error("Settings::Conflict names no setting");
  size_t at = Index(*names.begin());
  for (std::string_view name : names) {
    const size_t i = Index(name);
    if (values_[i].order > values_[at].order) at = i;
  }
  std::string others;
  for (std::string_view name : names) {
    const Value& v = values_[Index(name)];
    if (&v == &values_[at] || v.order < 0) continue;
    const SettingAssignment& f = v.from;
    others += fmt::format("{}{} from {}", others.empty() ? "" : ", ", name, WhereGiven(f));
  }
  const SettingAssignment& f = values_[at].from;
  return InputError(
      f.file, f.line, f.field,
      others.empty() ? std::string(message) : fmt::format("{} (with {})", message, others));
}

std::vector<std::pair<std::string, std::string>> Settings::InForce() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (size_t i = 0; i < specs_.size(); ++i) out.emplace_back(specs_[i].name, values_[i].text);
  return out;
}

}  // namespace slotflow
