#include "rates/paths.h"

#include <algorithm>
#include <stdexcept>

namespace slotflow::rates {

PathTable::PathTable(int link_count) : link_count_(link_count) { begin_.push_back(0); }

PathId PathTable::Intern(std::span<const LinkId> links) {
  if (links.size() >= kMaxPathLinks) throw std::logic_error("FluidSolver: path too long");
  uint64_t h = links.size();
  for (LinkId l : links) h = HashMix(h, static_cast<uint64_t>(l));
  auto& bucket = index_[h];
  for (PathId p : bucket) {
    auto existing = Links(p);
    if (std::equal(existing.begin(), existing.end(), links.begin(), links.end())) return p;
  }
  for (LinkId l : links) {
    if (l < 0 || l >= link_count_) throw std::logic_error("FluidSolver: link id out of range");
  }
  const PathId id = static_cast<PathId>(begin_.size() - 1);
  links_.insert(links_.end(), links.begin(), links.end());
  begin_.push_back(static_cast<int32_t>(links_.size()));
  bucket.push_back(id);
  return id;
}

}  // namespace slotflow::rates
