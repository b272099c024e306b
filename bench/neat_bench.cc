// One NEAT decision (TaskScheduler::Next) on the prepared mid-run state of mid_run_state.h, at
// 160 servers (NEAT+'s evaluation) and 1000: its own predicted completion (objective own) and
// NEAT+'s objective (2) (objective full), with the TCF predictor, the smallest job reducing;
// from the exact flow state and from NEAT+'s compressed bins (without the exact comparison).
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "api/task_scheduler.h"
#include "mid_run_state.h"

namespace slotflow {
namespace {

void Run(benchmark::State& bs, const std::string& objective, const std::string& state = "exact") {
  const std::unique_ptr<Bench> b = MakeBench(static_cast<int>(bs.range(0)), true);
  auto neat = TaskSchedulerRegistry::Get().Make(
      "neat", {{"order", "sjf"}, {"objective", objective}, {"state", state}, {"agreement", "off"}},
      1);
  Decision d;
  for (auto _ : bs) {
    d = neat->Next(b->state);
    benchmark::DoNotOptimize(d);
  }
  bs.counters["flows"] = static_cast<double>(b->net.active_flows().size());
  bs.counters["free_slots"] = b->state.free_slots();
  bs.counters["placed_reduce"] = d && !b->state.task(d.task).root;
}

void BM_NeatNextOwn(benchmark::State& bs) { Run(bs, "own"); }
void BM_NeatNextFull(benchmark::State& bs) { Run(bs, "full"); }
void BM_NeatNextOwnCompressed(benchmark::State& bs) { Run(bs, "own", "compressed"); }
void BM_NeatNextFullCompressed(benchmark::State& bs) { Run(bs, "full", "compressed"); }
BENCHMARK(BM_NeatNextOwn)->Arg(160)->Arg(1000)->Arg(10000);
BENCHMARK(BM_NeatNextFull)->Arg(160)->Arg(1000)->Arg(10000);
BENCHMARK(BM_NeatNextOwnCompressed)->Arg(160)->Arg(1000)->Arg(10000);
BENCHMARK(BM_NeatNextFullCompressed)->Arg(160)->Arg(1000)->Arg(10000);

}  // namespace
}  // namespace slotflow
