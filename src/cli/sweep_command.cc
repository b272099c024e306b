// `slotflow sweep FILE`: a grid of runs described in a TOML file (run/sweep.h).
#include <memory>

#include "cli/commands.h"
#include "cli/flags.h"
#include "run/sweep.h"

namespace slotflow {

Subcommand AddSweepCommand(CLI::App& app) {
  struct Flags {
    SweepOptions options;
    std::string shard;
  };
  auto f = std::make_shared<Flags>();
  CLI::App* sweep = app.add_subcommand(
      "sweep", "run a grid of set-ups x systems x seeds described in a TOML file (resumable)");
  f->options.named = {FlagName};
  sweep->add_option("FILE", f->options.file, "the sweep file (see docs/sweeps.md)")
      ->required()
      ->check(NonEmptyFile());
  sweep->add_option("--out", f->options.out, "directory for results.csv")
      ->required()
      ->check(NonEmptyFile());
  sweep->add_option("--shard", f->shard,
                    "I/N: run only every N-th run in grid order, starting with the I-th");
  sweep->add_option("--threads", f->options.threads, "parallel runs (default: one per core)");
  sweep->add_option("--trace", f->options.trace, "use this trace instead of the file's")
      ->check(NonEmptyFile());
  sweep->add_flag(
      "--quiet", [f](int64_t) { f->options.progress = false; }, "no progress");
  return {sweep, [f] {
            if (!f->shard.empty())
              ParseShard(f->shard, "--shard", f->options.shard, f->options.shards);
            return RunSweep(f->options);
          }};
}

}  // namespace slotflow
