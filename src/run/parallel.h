// ParallelFor: the worker pool of `compare` and `sweep`. Calls fn(i) for every i in [0, n) on
// `threads` threads (<= 0: one per core), the calling thread among them, handing out indices
// in increasing order. After a call throws no new index is started; once the started calls have
// returned, the exception of the lowest index that threw is rethrown.
#pragma once

#include <cstddef>
#include <functional>

namespace slotflow {

void ParallelFor(size_t n, int threads, const std::function<void(size_t)>& fn);

}  // namespace slotflow
