// Why: the few named values a policy attaches to a decision so the decision log can say why it
// was taken ("mode" = "insufficient", "branch" = "alg3-map", "predicted_s" = 2.5). It holds at
// most kCapacity values and never allocates, so filling one costs a few stores whether or not
// a log is written. Names and texts are not copied: pass string literals (or strings that
// outlive the run).
// Policy API (src/api/): stable, see docs/plugins.md#the-policy-api.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

namespace slotflow {

class Why {
 public:
  static constexpr int kCapacity = 8;
  struct Value {
    const char* name;
    const char* text;  // nullptr: the value is `number`
    double number;
  };

  Why() {}  // leaves the values unset (no zero-filling: most Whys are never read)

  // Values beyond kCapacity are dropped (a policy should say a few things, not everything).
  template <class T>
  requires std::is_arithmetic_v<T> Why& Add(const char* name, T number) {
    if (size_ < kCapacity) values_[size_++] = Value{name, nullptr, static_cast<double>(number)};
    return *this;
  }
  Why& Add(const char* name, const char* text) {
    if (size_ < kCapacity) values_[size_++] = Value{name, text, 0};
    return *this;
  }
  // Adds `other`'s values after these.
  Why& Append(const Why& other) {
    for (const Value& v : other) {
      if (size_ < kCapacity) values_[size_++] = v;
    }
    return *this;
  }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Value& operator[](int i) const { return values_[i]; }
  const Value* begin() const { return values_.data(); }
  const Value* end() const { return values_.data() + size_; }

 private:
  std::array<Value, kCapacity> values_;  // only the first size_ are set
  int32_t size_ = 0;
};

}  // namespace slotflow
