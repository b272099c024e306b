#include "common/json_input.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <utility>
#include <vector>

#include "api/error.h"

namespace slotflow::json_input {
namespace {

using nlohmann::json;

// Reads the text as the parser asks for it, counting the newlines read so far: the line of a
// key or a bracket is known when the parser reports it.
class LineCountingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  LineCountingIterator(const char* at, int* newlines) : at_(at), newlines_(newlines) {}
  reference operator*() const { return *at_; }
  LineCountingIterator& operator++() {
    if (*at_ == '\n') ++*newlines_;
    ++at_;
    return *this;
  }
  LineCountingIterator operator++(int) {
    LineCountingIterator before = *this;
    ++*this;
    return before;
  }
  bool operator==(const LineCountingIterator& other) const { return at_ == other.at_; }

 private:
  const char* at_;
  int* newlines_;
};

// Builds the document as nlohmann's own DOM parser does, refusing what it would accept
// silently: a key given twice (it keeps the last value) and unbounded nesting.
class Builder : public nlohmann::json_sax<json> {
 public:
  Builder(std::string_view text, const std::string& file, int first_line, const std::string& prefix,
          const int& newlines)
      : text_(text), file_(file), first_line_(first_line), prefix_(prefix), newlines_(newlines) {}

  json Take() { return std::move(root_); }

  bool null() override { return Put(nullptr); }
  bool boolean(bool v) override { return Put(v); }
  bool number_integer(number_integer_t v) override { return Put(v); }
  bool number_unsigned(number_unsigned_t v) override { return Put(v); }
  bool number_float(number_float_t v, const string_t&) override { return Put(v); }
  bool string(string_t& v) override { return Put(std::move(v)); }
  bool binary(binary_t& v) override { return Put(std::move(v)); }
  bool start_object(std::size_t) override { return Open(json::object()); }
  bool start_array(std::size_t) override { return Open(json::array()); }
  bool end_object() override { return Close(); }
  bool end_array() override { return Close(); }

  bool key(string_t& k) override {
    Frame& top = stack_.back();
    top.key = k;
    if (top.value->contains(k)) {
      Fail(fmt::format("the key \"{}\" is given twice in one object", k));
    }
    slot_ = &(*top.value)[k];
    return true;
  }

  bool parse_error(std::size_t byte, const std::string&,
                   const nlohmann::detail::exception& e) override {
    // The byte after the one at fault: its line, counted in the text itself.
    const std::string_view upto = text_.substr(0, std::min(byte > 0 ? byte - 1 : 0, text_.size()));
    const int line = first_line_ + static_cast<int>(std::count(upto.begin(), upto.end(), '\n'));
    const bool range = dynamic_cast<const nlohmann::json::out_of_range*>(&e) != nullptr;
    throw InputError(
        file_, line, prefix_.empty() ? "json" : prefix_,
        fmt::format("{}: {}", range ? "a number out of range" : "not valid JSON", e.what()));
  }

 private:
  struct Frame {
    json* value;      // an object or an array being filled
    std::string key;  // an object's latest key
  };

  [[noreturn]] void Fail(const std::string& message) const {
    throw InputError(file_, first_line_ + newlines_, Path(), message);
  }

  // The path of the value about to be placed: an open array's next index, an open object's
  // latest key.
  std::string Path() const {
    std::string path = prefix_;
    // Past a few levels the path says how deep it goes rather than every index.
    constexpr size_t kShown = 6;
    for (size_t i = 0; i < stack_.size(); ++i) {
      if (i == kShown && stack_.size() > kShown + 1) {
        path += fmt::format("...({} levels)", stack_.size() - kShown);
        break;
      }
      const json& v = *stack_[i].value;
      if (v.is_array()) {
        path += fmt::format("[{}]", i + 1 < stack_.size() ? v.size() - 1 : v.size());
      } else if (!stack_[i].key.empty()) {
        path += (path.empty() ? "" : ".") + stack_[i].key;
      }
    }
    return path.empty() ? "json" : path;
  }

  json* Place(json&& v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    json& top = *stack_.back().value;
    if (top.is_array()) {
      top.push_back(std::move(v));
      return &top.back();
    }
    *slot_ = std::move(v);
    return slot_;
  }

  template <class V>
  bool Put(V&& v) {
    Place(json(std::forward<V>(v)));
    return true;
  }

  bool Open(json&& v) {
    if (stack_.size() >= static_cast<size_t>(kMaxDepth)) {
      Fail(fmt::format("objects and arrays nested deeper than {}", kMaxDepth));
    }
    // A value inside an open array or object stays where it is until that one closes.
    json* at = Place(std::move(v));
    stack_.push_back({at, {}});
    return true;
  }

  bool Close() {
    stack_.pop_back();
    return true;
  }

  std::string_view text_;
  const std::string& file_;
  int first_line_;
  const std::string& prefix_;
  const int& newlines_;
  json root_;
  std::vector<Frame> stack_;
  json* slot_ = nullptr;  // where an object's value after its key goes
};

void Insert(toml::table& into, const std::string& key, const json& v, const std::string& file,
            int line, const std::string& field);

toml::array ToTomlArray(const json& v, const std::string& file, int line,
                        const std::string& field) {
  toml::array out;
  for (size_t i = 0; i < v.size(); ++i) {
    // Each element through a one-key table, so that one function converts every kind.
    toml::table holder;
    Insert(holder, "v", v[i], file, line, fmt::format("{}[{}]", field, i));
    out.push_back(std::move(*holder.get("v")));
  }
  return out;
}

void Insert(toml::table& into, const std::string& key, const json& v, const std::string& file,
            int line, const std::string& field) {
  switch (v.type()) {
    case json::value_t::object:
      into.insert(key, ToToml(v, file, line, field));
      return;
    case json::value_t::array:
      into.insert(key, ToTomlArray(v, file, line, field));
      return;
    case json::value_t::string:
      into.insert(key, v.get<std::string>());
      return;
    case json::value_t::boolean:
      into.insert(key, v.get<bool>());
      return;
    case json::value_t::number_integer:
      into.insert(key, v.get<int64_t>());
      return;
    case json::value_t::number_unsigned:
      if (v.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        throw InputError(file, line, field, "integer too large");
      }
      into.insert(key, static_cast<int64_t>(v.get<uint64_t>()));
      return;
    case json::value_t::number_float:
      into.insert(key, v.get<double>());
      return;
    default:
      throw InputError(file, line, field, "null is not a value: leave the key out");
  }
}

}  // namespace

json Parse(std::string_view text, const std::string& file, int first_line,
           const std::string& prefix) {
  int newlines = 0;
  Builder builder(text, file, first_line, prefix, newlines);
  json::sax_parse(LineCountingIterator(text.data(), &newlines),
                  LineCountingIterator(text.data() + text.size(), &newlines), &builder);
  return builder.Take();
}

toml::table ToToml(const json& object, const std::string& file, int line,
                   const std::string& prefix) {
  toml::table out;
  for (const auto& [key, value] : object.items()) {
    Insert(out, key, value, file, line, prefix.empty() ? key : prefix + "." + key);
  }
  return out;
}

}  // namespace slotflow::json_input
