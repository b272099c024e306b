// PathTable: the paths flows take, each a list of links, interned so that the same list always
// gets the same id.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "api/ids.h"
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
    const LinkId* slot = &links_[static_cast<size_t>(p) * kMaxPathLinks];
    return {slot + 1, static_cast<size_t>(slot[0])};
  }
  int LinkCount() const { return link_count_; }

  // Flows hold their path: a path that some flow held once and none holds now is forgotten,
  // and its id used again, so a long run keeps the paths in use, not every one it has seen
  // (on 10,000 servers the pairs of servers that ever exchanged a flow run to tens of
  // millions). A path interned but never held is kept.
  void Hold(PathId p) { ++holders_[p]; }
  void Release(PathId p);
  size_t size() const { return holders_.size() - free_.size(); }

 private:
  static uint64_t Hash(std::span<const LinkId> links);

  int link_count_;
  // kMaxPathLinks per path id: [n, l0, ..., l4].
  std::vector<LinkId> links_;
  std::vector<int32_t> holders_;  // per path id: flows holding it
  std::vector<PathId> free_;      // ids forgotten, used again last in, first out
  // Paths by the hash of their links.
  std::unordered_map<uint64_t, std::vector<PathId>> index_;
};

}  // namespace slotflow::rates
