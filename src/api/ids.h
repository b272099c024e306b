// Identifiers shared across layers: dense non-negative integers, -1 for "none".
// Policy API (src/api/): stable, see docs/plugins.md#the-policy-api.
#pragma once

#include <fmt/core.h>

#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <type_traits>

namespace slotflow {

// An identifier of one kind (Tag): an int32_t that converts to an integer implicitly (indexing,
// arithmetic, printing) but is built from one only explicitly, so ids of two kinds never convert
// into each other. Default-constructed, it is -1 ("none").
template <class Tag>
class Id {
 public:
  constexpr Id() = default;
  constexpr explicit Id(int32_t value) : value_(value) {}
  // Not even explicitly from an id of another kind (FlowId{link}): name its integer if meant.
  template <class Other>
  requires(!std::is_same_v<Other, Tag>) explicit Id(Id<Other>) = delete;

  constexpr operator int32_t() const { return value_; }  // NOLINT(google-explicit-constructor)

  constexpr Id& operator++() {
    ++value_;
    return *this;
  }
  constexpr Id operator++(int) {
    Id old = *this;
    ++value_;
    return old;
  }
  constexpr Id& operator--() {
    --value_;
    return *this;
  }
  constexpr Id operator--(int) {
    Id old = *this;
    --value_;
    return old;
  }

  // As its integer in JSON (found by nlohmann-json through argument-dependent lookup).
  template <class Json>
  friend void to_json(Json& j, Id id) {
    j = id.value_;
  }
  template <class Json>
  friend void from_json(const Json& j, Id& id) {
    id.value_ = j.template get<int32_t>();
  }

 private:
  int32_t value_ = -1;
};

// Ids of two different kinds do not compare: without these, both would convert to their integers
// and compare as those. An id compares with an id of its own kind and with a plain integer.
template <class A, class B>
requires(!std::is_same_v<A, B>) bool operator==(Id<A>, Id<B>) = delete;
template <class A, class B>
requires(!std::is_same_v<A, B>) std::strong_ordering operator<=>(Id<A>, Id<B>) = delete;

using ServerId = Id<struct ServerIdTag>;
using LinkId = Id<struct LinkIdTag>;
using FlowId = Id<struct FlowIdTag>;
using PathId = Id<struct PathIdTag>;
using FlowClass = int64_t;  // 0 = highest priority; any value, sparse classes are fine
using JobIndex = Id<struct JobIndexTag>;
using CoflowId = Id<struct CoflowIdTag>;
using TaskId = Id<struct TaskIdTag>;

inline constexpr ServerId kNoServer{-1};
inline constexpr FlowId kNoFlow{-1};
inline constexpr LinkId kNoLink{-1};
inline constexpr CoflowId kNoCoflow{-1};

}  // namespace slotflow

template <class Tag>
struct std::hash<slotflow::Id<Tag>> {
  size_t operator()(slotflow::Id<Tag> id) const noexcept { return std::hash<int32_t>()(id); }
};

// Formats as its integer, with the integer's format specifications.
template <class Tag>
struct fmt::formatter<slotflow::Id<Tag>> : fmt::formatter<int32_t> {
  template <class FormatContext>
  auto format(slotflow::Id<Tag> id, FormatContext& ctx) const {
    return fmt::formatter<int32_t>::format(static_cast<int32_t>(id), ctx);
  }
};
