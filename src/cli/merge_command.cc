// `slotflow merge`: the results of a sweep's shards joined into one file (run/sweep.h).
#include <memory>

#include "cli/commands.h"
#include "cli/flags.h"
#include "run/sweep.h"

namespace slotflow {

Subcommand AddMergeCommand(CLI::App& app) {
  auto options = std::make_shared<MergeOptions>();
  CLI::App* merge = app.add_subcommand(
      "merge", "join the results.csv of several sweep shards into one, in grid order");
  options->named = {FlagName};
  merge->add_option("INPUT", options->inputs, "results.csv (or journal.csv) files of shards")
      ->required()
      ->check(NonEmptyFile());
  merge->add_option("--out", options->out, "the merged file")->required()->check(NonEmptyFile());
  merge
      ->add_option("--sweep", options->sweep,
                   "the sweep file: refuse the merge when runs are missing (default: the "
                   "shard.json beside each input)")
      ->check(NonEmptyFile());
  merge->add_flag("--partial", options->partial, "write the merge even when runs are missing");
  return {merge, [options] {
            MergeSweepResults(*options);
            return 0;
          }};
}

}  // namespace slotflow
