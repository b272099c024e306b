// PathTable: the paths flows take, each a list of links, interned so that the same list always
// gets the same id.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "common/ids.h"
#include "rates/tuning.h"

namespace slotflow::rates {

// A group keeps its path's links inline, as [n, l0, ..., l4]: paths have at most
// kMaxPathLinks - 1 links (the two-tier topology's longest have 4).
inline constexpr int kMaxPathLinks = 6;

// boost::hash_combine's step.
inline uint64_t HashMix(uint64_t h, uint64_t v) {
  h ^= v + kHashSalt + (h << 6) + (h >> 2);
  return h;
}

class PathTable {
 public:
  explicit PathTable(int link_count);

  // The id of this list of links, made if new. Throws std::logic_error for a list of
  // kMaxPathLinks links or more, or a link id out of range.
  PathId Intern(std::span<const LinkId> links);
  std::span<const LinkId> Links(PathId p) const {
    return {links_.data() + begin_[p], links_.data() + begin_[p + 1]};
  }
  int LinkCount() const { return link_count_; }

 private:
  int link_count_;
  // Every path's links, one after another: path p's are [begin_[p], begin_[p + 1]).
  std::vector<LinkId> links_;
  std::vector<int32_t> begin_;
  // Paths by the hash of their links.
  std::unordered_map<uint64_t, std::vector<PathId>> index_;
};

}  // namespace slotflow::rates
