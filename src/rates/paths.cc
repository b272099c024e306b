#include "rates/paths.h"

#include <algorithm>
#include <stdexcept>

namespace slotflow::rates {

PathTable::PathTable(int link_count) : link_count_(link_count) {}

uint64_t PathTable::Hash(std::span<const LinkId> links) {
  uint64_t h = links.size();
  for (LinkId l : links) h = HashMix(h, static_cast<uint64_t>(l));
  return h;
}

PathId PathTable::Intern(std::span<const LinkId> links) {
  if (links.size() >= kMaxPathLinks) throw std::logic_error("FluidSolver: path too long");
  auto& bucket = index_[Hash(links)];
  for (PathId p : bucket) {
    auto existing = Links(p);
    if (std::equal(existing.begin(), existing.end(), links.begin(), links.end())) return p;
  }
  for (LinkId l : links) {
    if (l < 0 || l >= link_count_) throw std::logic_error("FluidSolver: link id out of range");
  }
  PathId id;
  if (!free_.empty()) {
    id = free_.back();
    free_.pop_back();
  } else {
    id = static_cast<PathId>(holders_.size());
    holders_.push_back(0);
    links_.resize(links_.size() + kMaxPathLinks, LinkId{0});
  }
  LinkId* slot = &links_[static_cast<size_t>(id) * kMaxPathLinks];
  slot[0] = static_cast<LinkId>(links.size());
  std::copy(links.begin(), links.end(), slot + 1);
  bucket.push_back(id);
  return id;
}

void PathTable::Release(PathId p) {
  if (--holders_[p] > 0) return;
  const auto it = index_.find(Hash(Links(p)));
  std::erase(it->second, p);
  if (it->second.empty()) index_.erase(it);
  free_.push_back(p);
}

}  // namespace slotflow::rates
