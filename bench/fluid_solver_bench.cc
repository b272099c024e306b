// Micro-benchmarks of the rate allocator: one Solve() of a big-switch network carrying many
// flows, in one class (fair) and in many classes (strict priorities), and a full
// advance/complete/re-solve cycle.
#include <benchmark/benchmark.h>

#include <limits>

#include "api/random.h"
#include "rates/fluid_solver.h"

namespace slotflow {
namespace {

// `servers` ports with 1 Gbps links; `flows` flows between random distinct ports.
FluidSolver MakeBigSwitch(int servers, int flows, int classes, uint64_t seed) {
  FluidSolver s(std::vector<BytesPerSecond>(2 * servers, 1.25e8));
  Rng rng(seed);
  for (FlowId f{0}; f < flows; ++f) {
    const auto src = static_cast<int32_t>(rng.UniformInt(servers));
    auto dst = static_cast<int32_t>(rng.UniformInt(servers - 1));
    if (dst >= src) ++dst;
    const LinkId path[] = {LinkId{2 * src}, LinkId{2 * dst + 1}};
    s.Add(f, s.InternPath(path), 1e6 + rng.Uniform() * 1e9,
          FlowClass{classes > 1 ? static_cast<int64_t>(rng.UniformInt(classes)) : 0});
  }
  return s;
}

// Moves one flow to another class and back, so class 0 is dirty, and re-solves.
void Resolve(benchmark::State& state, FluidSolver& s) {
  for (auto _ : state) {
    s.SetClass(FlowId{0}, FlowClass{1});
    s.SetClass(FlowId{0}, FlowClass{0});
    s.Solve();
    benchmark::DoNotOptimize(s.NextCompletionIn());
  }
  state.counters["groups"] = s.ActiveGroupCount();
}

void BM_SolveFair(benchmark::State& state) {
  FluidSolver s = MakeBigSwitch(150, static_cast<int>(state.range(0)), 1, 1);
  Resolve(state, s);
}
BENCHMARK(BM_SolveFair)->Arg(100)->Arg(1000)->Arg(10000)->Arg(21000);

// The same with local fills off: every solve fills the class whole.
void BM_SolveFairWhole(benchmark::State& state) {
  FluidSolver s = MakeBigSwitch(150, static_cast<int>(state.range(0)), 1, 1);
  s.SetLocalFillMinLinks(std::numeric_limits<size_t>::max());
  Resolve(state, s);
}
BENCHMARK(BM_SolveFairWhole)->Arg(10000)->Arg(21000);

void BM_SolvePriorities(benchmark::State& state) {
  FluidSolver s = MakeBigSwitch(150, static_cast<int>(state.range(0)), 8, 2);
  Resolve(state, s);
}
BENCHMARK(BM_SolvePriorities)->Arg(1000)->Arg(21000);

// Advance to the next completion, pop it, re-solve: the simulator's inner loop.
void BM_CompletionCycle(benchmark::State& state) {
  const int flows = static_cast<int>(state.range(0));
  FluidSolver s = MakeBigSwitch(150, flows, 1, 3);
  s.Solve();
  std::vector<FlowId> done;
  FlowId next_id{flows};
  Rng rng(4);
  for (auto _ : state) {
    s.Advance(s.NextCompletionIn());
    done.clear();
    s.PopCompleted(done);
    for (size_t i = 0; i < done.size(); ++i) {  // keep the population constant
      const auto src = static_cast<int32_t>(rng.UniformInt(149));
      const LinkId path[] = {LinkId{2 * src}, LinkId{2 * (src + 1) + 1}};
      s.Add(next_id++, s.InternPath(path), 1e6 + rng.Uniform() * 1e9, FlowClass{0});
    }
    s.Solve();
  }
}
BENCHMARK(BM_CompletionCycle)->Arg(1000)->Arg(10000);

}  // namespace
}  // namespace slotflow
