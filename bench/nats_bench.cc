// One nats decision (TaskScheduler::Next) on a prepared mid-run state (mid_run_state.h) of N
// servers × 4 slots. Two cases: L0 (the smallest job) in its map stage (SelectTaskServerPair) and
// in its reduce stage (SelectServerForTask).
#include <benchmark/benchmark.h>

#include <memory>

#include "api/task_scheduler.h"
#include "mid_run_state.h"

namespace slotflow {
namespace {

void Run(benchmark::State& bs, bool l0_reducing) {
  const std::unique_ptr<Bench> b = MakeBench(static_cast<int>(bs.range(0)), l0_reducing);
  auto nats = TaskSchedulerRegistry::Get().Make("nats", {{"order", "sjf"}}, 1);
  nats->OnTick(b->state);
  Decision p;
  for (auto _ : bs) {
    p = nats->Next(b->state);
    benchmark::DoNotOptimize(p);
  }
  int receiving = 0;
  for (ServerId s{0}; s < b->cluster.size(); ++s) receiving += b->state.server(s).receiving > 0;
  bs.counters["flows"] = static_cast<double>(b->net.active_flows().size());
  bs.counters["ready"] = b->state.ready_tasks();
  bs.counters["free_slots"] = b->state.free_slots();
  bs.counters["receiving_servers"] = receiving;
  bs.counters["placed_reduce"] = p && !b->state.task(p.task).root;
}

void BM_NatsNextL0Mapping(benchmark::State& bs) { Run(bs, false); }
void BM_NatsNextL0Reducing(benchmark::State& bs) { Run(bs, true); }
BENCHMARK(BM_NatsNextL0Mapping)->Arg(160)->Arg(1000)->Arg(10000);
BENCHMARK(BM_NatsNextL0Reducing)->Arg(160)->Arg(1000)->Arg(10000);

}  // namespace
}  // namespace slotflow
