// Identifiers shared across layers: dense non-negative integers, -1 for "none".
// Policy API (src/api/): stable, see docs/plugins.md#the-policy-api.
#pragma once

#include <fmt/core.h>

#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <type_traits>

namespace slotflow {

// An identifier of one kind (Tag): an integer (Rep, int32_t unless said) that converts to an
// integer implicitly (indexing, arithmetic, printing) but is built from one only explicitly, so
// ids of two kinds never convert into each other. Default-constructed, it is -1 ("none").
template <class Tag, class Rep = int32_t>
class Id {
 public:
  constexpr Id() = default;
  constexpr explicit Id(Rep value) : value_(value) {}
  // Not even explicitly from an id of another kind (FlowId{link}): name its integer if meant.
  template <class Other, class OtherRep>
  requires(!std::is_same_v<Other, Tag>) explicit Id(Id<Other, OtherRep>) = delete;

  constexpr operator Rep() const { return value_; }  // NOLINT(google-explicit-constructor)

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
    id.value_ = j.template get<Rep>();
  }

 private:
  Rep value_ = -1;
};

// Ids of two different kinds do not compare: without these, both would convert to their integers
// and compare as those. An id compares with an id of its own kind and with a plain integer.
template <class A, class RA, class B, class RB>
requires(!std::is_same_v<A, B>) bool operator==(Id<A, RA>, Id<B, RB>) = delete;
template <class A, class RA, class B, class RB>
requires(!std::is_same_v<A, B>) std::strong_ordering operator<=>(Id<A, RA>, Id<B, RB>) = delete;

using ServerId = Id<struct ServerIdTag>;
using LinkId = Id<struct LinkIdTag>;
using FlowId = Id<struct FlowIdTag>;
using PathId = Id<struct PathIdTag>;
// A flow's priority class: 0 is the highest; any value, sparse classes are fine (a policy may
// compose one from a level and a tie key, class_key.h). A plain integer: as an Id of its own it
// cost duopoly 11 % more CPU on the FB trace (measured in pairs; the time went to cans'
// ExpectedClass), so classes are written FlowClass{...} where they are made, to read as one.
using FlowClass = int64_t;
using JobIndex = Id<struct JobIndexTag>;
using CoflowId = Id<struct CoflowIdTag>;
using TaskId = Id<struct TaskIdTag>;

inline constexpr ServerId kNoServer{-1};
inline constexpr FlowId kNoFlow{-1};
inline constexpr LinkId kNoLink{-1};
inline constexpr CoflowId kNoCoflow{-1};

}  // namespace slotflow

// An id's limits are its integer's (the primary template would give a default id, -1).
template <class Tag, class Rep>
struct std::numeric_limits<slotflow::Id<Tag, Rep>> : std::numeric_limits<Rep> {
  static constexpr slotflow::Id<Tag, Rep> min() noexcept {
    return slotflow::Id<Tag, Rep>{std::numeric_limits<Rep>::min()};
  }
  static constexpr slotflow::Id<Tag, Rep> lowest() noexcept {
    return slotflow::Id<Tag, Rep>{std::numeric_limits<Rep>::lowest()};
  }
  static constexpr slotflow::Id<Tag, Rep> max() noexcept {
    return slotflow::Id<Tag, Rep>{std::numeric_limits<Rep>::max()};
  }
};

template <class Tag, class Rep>
struct std::hash<slotflow::Id<Tag, Rep>> {
  size_t operator()(slotflow::Id<Tag, Rep> id) const noexcept { return std::hash<Rep>()(id); }
};

// Formats as its integer, with the integer's format specifications.
template <class Tag, class Rep>
struct fmt::formatter<slotflow::Id<Tag, Rep>> : fmt::formatter<Rep> {
  template <class FormatContext>
  auto format(slotflow::Id<Tag, Rep> id, FormatContext& ctx) const {
    return fmt::formatter<Rep>::format(static_cast<Rep>(id), ctx);
  }
};
