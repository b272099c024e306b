// `slotflow merge`: the shards' rows checked and joined in grid order.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <map>
#include <optional>

#include "api/error.h"
#include "common/input_file.h"
#include "common/output_file.h"
#include "run/sweep.h"
#include "run/sweep_plan.h"
#include "run/sweep_rows.h"

namespace slotflow {
namespace {

namespace fs = std::filesystem;

struct MergedRow {
  std::string text;
  size_t input = 0;
  int line = 0;
};

std::string Describe(const SweepKey& k) {
  return fmt::format("point {}, variant {}, seed {}", k.point, k.variant, k.seed);
}

// Reads one input's rows into `rows`; its header must be `header`, or becomes it when empty.
void ReadInput(const MergeOptions& o, size_t i, std::string& header_line,
               std::map<SweepKey, MergedRow>& rows) {
  const std::string& in = o.inputs[i];
  const std::string text = ReadInputFile(in, "INPUT");
  size_t at = text.find('\n');
  const std::string first = text.substr(0, at);
  const SweepHeader header = ParseSweepHeader(first, in);
  if (header_line.empty()) header_line = first;
  if (first != header_line) {
    throw InputError(in, 1, "header", "its columns differ from those of " + o.inputs.front());
  }
  int n = 1, count = 0;
  while (at != std::string::npos && at + 1 < text.size()) {
    const size_t end = text.find('\n', at + 1);
    const std::string row = text.substr(at + 1, end == std::string::npos ? end : end - at - 1);
    at = end;
    ++n;
    if (row.empty()) continue;
    SweepKey key;
    if (auto problem = CheckSweepRow(header, row, key)) {
      throw InputError(in, n, problem->field, problem->message);
    }
    if (auto it = rows.find(key); it != rows.end()) {
      throw InputError(in, n, "row",
                       fmt::format("run ({}) is also in {}:{}", Describe(key),
                                   o.inputs[it->second.input], it->second.line));
    }
    rows[key] = MergedRow{row, i, n};
    ++count;
  }
  if (count == 0) throw InputError(in, 1, "rows", "holds a header but no rows");
}

// The runs the merge should hold, from the sweep file or the inputs' manifests (shard.json in
// their directories); none when neither says.
struct Expected {
  std::string source;  // the file that says so
  size_t points = 0;
  std::vector<std::string> variants;
  std::vector<uint64_t> seeds;
};

std::optional<Expected> ExpectedFromManifests(const MergeOptions& o) {
  std::optional<ShardManifest> first;
  std::string first_path;
  for (const std::string& in : o.inputs) {
    const fs::path path = fs::path(in).parent_path() / "shard.json";
    const std::optional<ShardManifest> m = ReadShardManifest(path);
    if (!m) return std::nullopt;
    if (!first) {
      first = m;
      first_path = path.string();
    } else if (m->sweep_sha256 != first->sweep_sha256 || m->shards != first->shards ||
               m->runs != first->runs) {
      throw InputError(
          path.string(), 0, "sweep_sha256",
          fmt::format("this shard is of another sweep or sharding than {} ({} of "
                      "{}, not {} of {})",
                      first_path, m->sweep_file, m->shards, first->sweep_file, first->shards));
    }
  }
  return Expected{first_path, first->points, first->variants, first->seeds};
}

std::optional<Expected> ExpectedRuns(const MergeOptions& o, const std::string& header) {
  if (o.sweep.empty()) return ExpectedFromManifests(o);
  const SweepPlan plan = ReadSweepPlan(o.sweep, "");
  if (SweepHeaderLine(plan) != header) {
    throw InputError(o.inputs.front(), 1, "header",
                     "its columns are not those of the sweep in " + o.sweep);
  }
  // Shards that say which sweep they ran must have run this one, not an older text of it.
  for (const std::string& in : o.inputs) {
    const fs::path path = fs::path(in).parent_path() / "shard.json";
    const std::optional<ShardManifest> m = ReadShardManifest(path);
    if (m && m->sweep_sha256 != plan.file_sha256) {
      throw InputError(path.string(), 0, "sweep_sha256",
                       fmt::format("this shard ran {} with other contents than {} has now; "
                                   "run the shard again, or merge without --sweep",
                                   m->sweep_file, o.sweep));
    }
  }
  Expected e{o.sweep, plan.points, {}, plan.seeds};
  for (const SweepVariant& v : plan.variants) e.variants.push_back(v.name);
  return e;
}

// Every row a run of the sweep with its variant's name; InputError for missing runs unless
// `partial`.
void CheckComplete(const MergeOptions& o, const Expected& e, const SweepHeader& header,
                   const std::map<SweepKey, MergedRow>& rows) {
  for (const auto& [key, row] : rows) {
    const bool known = key.point < e.points && key.variant < e.variants.size() &&
                       std::find(e.seeds.begin(), e.seeds.end(), key.seed) != e.seeds.end();
    if (!known) {
      throw InputError(o.inputs[row.input], row.line, "row",
                       fmt::format("run ({}) is not in the sweep of {}", Describe(key), e.source));
    }
    if (SweepColumnOf(row.text, header.variant_index + 1) != e.variants[key.variant]) {
      throw InputError(
          o.inputs[row.input], row.line, header.names[header.variant_index + 1],
          fmt::format("variant {} is '{}' in {}", key.variant, e.variants[key.variant], e.source));
    }
  }
  // Every run present is a distinct run of the sweep (checked above), so the missing ones are
  // counted without walking the grid; the first three are named.
  const size_t total = e.points * e.variants.size() * e.seeds.size();
  if (rows.size() >= total) return;
  const size_t missing = total - rows.size();
  std::vector<std::string> named;
  for (size_t p = 0; p < e.points && named.size() < 3; ++p) {
    for (size_t v = 0; v < e.variants.size() && named.size() < 3; ++v) {
      for (uint64_t s : e.seeds) {
        if (named.size() < 3 && !rows.count({p, v, s})) named.push_back(Describe({p, v, s}));
      }
    }
  }
  const std::string what = fmt::format("{} of {} runs are missing from the inputs ({}{})", missing,
                                       total, fmt::join(named, "; "), missing > 3 ? "; ..." : "");
  if (!o.partial) {
    throw InputError(e.source, 0, "runs", what + "; merge every shard, or pass --partial");
  }
  fmt::print(stderr, "merge: warning: {}\n", what);
}

}  // namespace

void MergeSweepResults(const MergeOptions& o) {
  if (o.inputs.empty()) throw InputError("", 0, "merge", "give at least one results file");
  CheckOutputPath(o.out, o.named("out"));
  std::map<SweepKey, MergedRow> rows;
  std::string header;
  for (size_t i = 0; i < o.inputs.size(); ++i) ReadInput(o, i, header, rows);
  if (const std::optional<Expected> e = ExpectedRuns(o, header)) {
    CheckComplete(o, *e, ParseSweepHeader(header, o.inputs.front()), rows);
  } else {
    fmt::print(stderr,
               "merge: note: no sweep file and no shard.json beside every input, so missing runs "
               "cannot be told\n");
  }
  WriteOutputFile(o.out, o.named("out"), [&](std::ostream& out) {
    out << header << "\n";
    for (const auto& [key, row] : rows) out << row.text << "\n";
  });
}

}  // namespace slotflow
