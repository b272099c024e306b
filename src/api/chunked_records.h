// ChunkedRecords: records numbered 0, 1, 2, ... as they are added, kept in fixed-size chunks
// that are freed once every record in them has been retired. A simulation adds millions of
// flows and needs each one's record only while it is in flight, so memory follows the flows
// in flight (and the chunks a long-lived one keeps), not every flow of the run; and growing
// never copies the records nor needs twice their memory, as a vector's doubling does.
// Policy API (src/api/): stable, see docs/plugins.md#the-policy-api.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace slotflow {

// 4096 records a chunk; 2 under the sanitizers (SLOTFLOW_TINY_CHUNKS), so that tests free chunks.
#ifdef SLOTFLOW_TINY_CHUNKS
inline constexpr int kRecordChunkBits = 1;
#else
inline constexpr int kRecordChunkBits = 12;
#endif

template <class T, int kChunkBits = kRecordChunkBits>
class ChunkedRecords {
 public:
  static constexpr size_t kChunk = size_t{1} << kChunkBits;

  // Adds record number size(), which stays readable until it is retired.
  void push_back(const T& value) {
    if ((size_ & (kChunk - 1)) == 0) {
      chunks_.push_back(std::make_unique<T[]>(kChunk));
      unretired_.push_back(0);
    }
    chunks_.back()[size_ & (kChunk - 1)] = value;
    ++unretired_.back();
    ++size_;
  }
  // Adds default records up to n records in all.
  void Grow(size_t n) {
    while (size_ < n) push_back(T{});
  }
  // Records ever added (retired ones included).
  size_t size() const { return size_; }

  // Record i; it must be readable (Readable(i)).
  T& operator[](size_t i) {
    assert(Readable(i));
    return chunks_[i >> kChunkBits][i & (kChunk - 1)];
  }
  const T& operator[](size_t i) const {
    assert(Readable(i));
    return chunks_[i >> kChunkBits][i & (kChunk - 1)];
  }
  // Whether record i was added and its chunk is still kept: true from push_back until every
  // record of its chunk has been added and retired.
  bool Readable(size_t i) const { return i < size_ && chunks_[i >> kChunkBits] != nullptr; }

  // Record i will not be read again (each record at most once); frees its chunk when that was
  // the chunk's last unretired record and the chunk is full.
  void Retire(size_t i) {
    const size_t c = i >> kChunkBits;
    assert(Readable(i) && unretired_[c] > 0);
    if (--unretired_[c] == 0 && (c + 1) * kChunk <= size_) chunks_[c].reset();
  }

  // The chunks in memory, for tests and memory accounting.
  size_t ChunksKept() const {
    size_t n = 0;
    for (const auto& c : chunks_) n += c != nullptr;
    return n;
  }

 private:
  std::vector<std::unique_ptr<T[]>> chunks_;
  std::vector<int32_t> unretired_;  // per chunk: records added and not retired
  size_t size_ = 0;
};

}  // namespace slotflow
