// tcds — task-class delay scheduling (TCDS §2): delay scheduling whose locality waits depend on
// each task's length class. Readings the paper leaves open: docs/readings.md.
//  - §2.1 Definitions 2-3, eq. (1): β = task input / block size (block_size, 64 MiB as HDFS);
//    very short if β < k1, short if k1 ≤ β < k2, long otherwise. The paper says only
//    "k1 ≤ 0.01" and that k2 is set "according to the actual situation": k1 = 0.01 and
//    k2 = 0.5 are ours.
//  - §2.1 Definition 4, eqs. (2)-(3) (scheduling/tcds_waits.h): very short tasks wait 0 at the
//    node level and TW2·(1−β)/l at the rack level; short and long ones TW_j·(1−β); TW1 = TW2 =
//    5 s as the paper takes them, l = 5 as in its example.
//  - §2.2 Alg. 2: Alg. 1's walk (fair order; node-local at once; non-local once the job's wait
//    reaches the task's threshold T_t, else skip), but a very short task that is not local
//    launches at once (Alg. 2 lines 11-12). The paper leaves open how that squares with eq. (2)'s
//    rack-level wait; setting very_short: eq2 (default) reads "at once" as eq. (2)'s zero
//    node-level wait, so a very short task launches rack-locally at once and off-rack after
//    TW2·(1−β)/l, as the §2.1 example (at most 0.99 s of waiting) describes; at-once launches it
//    anywhere at once, Alg. 2 read literally.
// The walk itself is scheduling/delay_walk.h.
#include <fmt/format.h>

#include "api/error.h"
#include "scheduling/delay_walk.h"
#include "scheduling/tcds_waits.h"

namespace slotflow {
namespace {

SettingSpec WaitSetting(const char* name, const char* meaning) {
  return {.name = name,
          .kind = SettingKind::kSeconds,
          .default_value = "5s",
          .meaning = meaning,
          .min = 0,
          .max = 1e6};
}

std::vector<SettingSpec> TcdsSettings() {
  SettingSpec order = JobOrderSetting();
  order.default_value = "fair";  // Alg. 2 line 2: the fair-sharing order
  return {HeartbeatSetting(),
          order,
          {.name = "block_size",
           .kind = SettingKind::kBytes,
           .default_value = "64MiB",
           .meaning = "F_b, the block size β is measured against (TCDS §2.1, Definition 2)",
           .min = 0,
           .max = 1e15,
           .min_exclusive = true},
          {.name = "k1",
           .kind = SettingKind::kNumber,
           .default_value = "0.01",
           .meaning = "very short iff β < k1 (TCDS eq. (1); the paper: k1 <= 0.01)",
           .min = 0,
           .max = 1},
          {.name = "k2",
           .kind = SettingKind::kNumber,
           .default_value = "0.5",
           .meaning = "long iff β >= k2 (TCDS eq. (1); ours, the paper leaves it open)",
           .min = 0,
           .max = 1},
          WaitSetting("tw1", "TW_1, the node-level wait of a task with β = 0 (TCDS eqs. (2)-(3))"),
          WaitSetting("tw2", "TW_2, the rack-level wait of a task with β = 0 (TCDS eqs. (2)-(3))"),
          {.name = "l",
           .kind = SettingKind::kInteger,
           .default_value = "5",
           .meaning = "TCDS eq. (2)'s divisor of very short tasks' rack-level wait",
           .min = 1,
           .max = 1e6},
          {.name = "very_short",
           .kind = SettingKind::kChoice,
           .default_value = "eq2",
           .meaning = "a very short non-local task: eq2 (rack-local at once, off-rack after "
                      "eq. (2)'s wait) or at-once (anywhere at once, TCDS Alg. 2 literally)",
           .choices = {"eq2", "at-once"}}};
}

TcdsParams ParamsOf(const Settings& s) {
  if (s.Number("k1") > s.Number("k2")) {
    throw s.Conflict({"k1", "k2"},
                     fmt::format("k1 ({}) must not exceed k2 ({}): TCDS eq. (1) needs k1 <= k2",
                                 s.Number("k1"), s.Number("k2")));
  }
  TcdsParams p;
  p.block_size = s.Number("block_size");
  p.k1 = s.Number("k1");
  p.k2 = s.Number("k2");
  p.tw1 = s.Number("tw1");
  p.tw2 = s.Number("tw2");
  p.l = static_cast<int>(s.Integer("l"));
  return p;
}

std::unique_ptr<TaskScheduler> MakeTcds(const PolicyArgs& args) {
  auto waits = [p = ParamsOf(args.settings),
                at_once = args.settings.Choice<bool>(
                    "very_short", {{"eq2", false}, {"at-once", true}})](const TaskRuntime& t) {
    const double beta = LengthCoefficient(t.spec->input, p);
    const TaskClass c = ClassOf(beta, p);
    LevelWaits w = WaitsOf(c, beta, p);
    if (at_once && c == TaskClass::kVeryShort) w = {0, 0};  // Alg. 2 lines 11-12
    return TaskWaits{w.node, w.rack, TaskClassName(c), beta};
  };
  return std::make_unique<WalkScheduler>(args.settings.Number("heartbeat"),
                                         DelayWalk(JobOrderOf(args.settings), waits));
}

}  // namespace

SLOTFLOW_REGISTER_TASK_SCHEDULER_WITH(
    "tcds", "task-class delay scheduling (TCDS): DS with waits by each task's length class",
    TcdsSettings(), MakeTcds);

}  // namespace slotflow
