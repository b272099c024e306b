#include "run/sweep.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>

#include "api/error.h"
#include "common/input_file.h"
#include "common/output_file.h"
#include "common/sha256.h"
#include "run/execute.h"
#include "run/parallel.h"
#include "run/policies.h"
#include "run/prepare.h"
#include "run/progress.h"
#include "run/run_spec.h"
#include "run/setup.h"
#include "run/sweep_plan.h"
#include "run/sweep_rows.h"

namespace slotflow {
namespace {

namespace fs = std::filesystem;

std::string Num(double v) { return std::isfinite(v) ? fmt::format("{}", v) : ""; }

double Stat(const RunSummary& s, const std::string& name) {
  for (const auto& [k, v] : s.scheduler_stats) {
    if (k == name) return v;
  }
  return std::nan("");
}

// The results of one run, after its key columns and set-up digest (the columns of
// SweepHeaderLine); a statistic the run's scheduler does not keep is left empty.
std::string StatsText(const RunSummary& s, const std::vector<std::string>& stats) {
  std::string row = fmt::format("{},{},{},{},{},{},{}", s.jobs, s.unfinished_jobs, Num(s.mean_jct),
                                Num(s.p50_jct), Num(s.p95_jct), Num(s.p99_jct), Num(s.max_jct));
  for (int g = 0; g < 7; ++g) {
    row += ',';
    if (g < static_cast<int>(s.mean_jct_by_group.size())) row += Num(s.mean_jct_by_group[g]);
  }
  row += fmt::format(",{},{},{},{},{},{},{},{},{}", Num(s.slot_utilisation),
                     Num(s.downlink_utilisation), Num(s.locality), s.reservations,
                     Num(Stat(s, "insufficient_share")), Num(Stat(s, "congested_share")),
                     Num(Stat(s, "mode_switches")), s.events, Num(s.wall_s));
  for (const std::string& name : stats) row += ',' + Num(Stat(s, name));
  return row;
}

// A run of this shard, with the columns its row starts with (key columns and set-up digest).
struct PlannedRun {
  SweepRun run;
  std::string prefix;  // the row's key columns and its set-up's digest
  std::string digest;
};

struct ShardPlan {
  std::vector<PlannedRun> runs;  // in grid order
  std::map<SweepKey, size_t> index;
  // Per point, when the workload does not depend on the seed (a trace or a job file).
  std::map<size_t, std::shared_ptr<const PreparedRun>> prepared;
};

// This shard's runs, each checked (policies resolved, workload and cluster prepared) and
// given its set-up digest before anything runs.
ShardPlan PlanShard(const SweepPlan& plan, const SweepOptions& o) {
  const bool per_seed = WorkloadDependsOnSeed(plan.base);
  ShardPlan shard;
  std::map<uint64_t, std::shared_ptr<const PreparedRun>> by_seed;  // this point's, per seed
  size_t point = SIZE_MAX;
  for (size_t r = static_cast<size_t>(o.shard - 1); r < plan.Runs();
       r += static_cast<size_t>(o.shards)) {
    const SweepRun run = plan.RunAt(r);
    if (run.point != point) by_seed.clear();
    point = run.point;
    const RunSpec spec = SweepSpecFor(plan, run);
    ResolvePolicies(spec);
    const uint64_t seed_key = per_seed ? run.seed : 0;
    auto [it, added] = by_seed.try_emplace(seed_key);
    if (added) it->second = std::make_shared<const PreparedRun>(Prepare(spec));
    if (!per_seed) shard.prepared[run.point] = it->second;
    shard.index[{run.point, run.variant, run.seed}] = shard.runs.size();
    std::string digest = SetupDigest(spec, *it->second);
    shard.runs.push_back(PlannedRun{run, SweepKeyText(plan, run) + "," + digest, digest});
  }
  return shard;
}

// Holds an flock on OUT/sweep.lock while it lives: one sweep per --out at a time.
class OutLock {
 public:
  explicit OutLock(const fs::path& dir) {
    const fs::path path = dir / "sweep.lock";
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) {
      throw InputError(path.string(), 0, "out",
                       fmt::format("cannot open the lock file: {}", std::strerror(errno)));
    }
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd_);
      throw InputError(dir.string(), 0, "out",
                       "another slotflow sweep is writing to this directory (it holds "
                       "sweep.lock); wait for it to end or use another directory");
    }
  }
  ~OutLock() { ::close(fd_); }
  OutLock(const OutLock&) = delete;
  OutLock& operator=(const OutLock&) = delete;

 private:
  int fd_ = -1;
};

// OUT/journal.csv, opened for appending rows; a row that cannot be written whole is taken back,
// so the journal holds only whole rows.
class Journal {
 public:
  explicit Journal(fs::path path) : path_(std::move(path)) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd_ < 0) Fail("cannot open the journal");
  }
  ~Journal() { ::close(fd_); }
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  void Append(const std::string& row) {
    const off_t size = ::lseek(fd_, 0, SEEK_END);
    const std::string line = row + "\n";
    for (size_t done = 0; done < line.size();) {
      const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        const int err = errno;
        const bool taken_back = size >= 0 && ::ftruncate(fd_, size) == 0;
        errno = err;
        Fail(taken_back ? "cannot append a run's row (the rows before it are kept)"
                        : "cannot append a run's row (the rows before it are kept; a resume "
                          "drops the part written)");
      }
      done += static_cast<size_t>(n);
    }
  }

 private:
  [[noreturn]] void Fail(const std::string& what) {
    throw InputError(path_.string(), 0, "out",
                     fmt::format("{}: {}", what, errno != 0 ? std::strerror(errno) : "error"));
  }
  fs::path path_;
  int fd_ = -1;
};

// What a resume found in OUT, beyond the rows it keeps.
struct ResumeNotes {
  size_t changed = 0, outside = 0, unreadable = 0, truncated = 0;
};

// The first column where two headers differ, for the message that refuses a directory.
std::string FirstDifference(const std::string& theirs, const std::string& ours) {
  const SweepHeader a = ParseSweepHeader(theirs, ""), b = ParseSweepHeader(ours, "");
  for (size_t i = 0; i < std::max(a.names.size(), b.names.size()); ++i) {
    const std::string x = i < a.names.size() ? a.names[i] : "(none)";
    const std::string y = i < b.names.size() ? b.names[i] : "(none)";
    if (x != y) return fmt::format("column {} is '{}' there, '{}' in this sweep", i + 1, x, y);
  }
  return "";
}

// Checks the first line of `text` (results.csv or journal.csv); returns where the rows begin.
size_t SkipHeader(const std::string& text, const std::string& header, const fs::path& path) {
  const size_t end = text.find('\n');
  if (end == std::string::npos) return text.size();  // no whole line: nothing to keep
  const std::string first = text.substr(0, end);
  if (first == header) return end + 1;
  if (first.rfind("point,", 0) != 0) return 0;  // no header: a crash before it was written
  std::string why;
  try {
    why = FirstDifference(first, header);
  } catch (const InputError&) {
    why = "its header is not a sweep's";
  }
  throw InputError(path.string(), 1, "out",
                   fmt::format("holds the rows of a sweep with other columns ({}); use another "
                               "directory, or remove journal.csv and results.csv from it to run "
                               "this sweep afresh",
                               why));
}

// The rows of `path` that this shard's runs would write as they are; the rest are counted.
void LoadRows(const fs::path& path, const std::string& header, const ShardPlan& shard,
              std::map<SweepKey, std::string>& rows, ResumeNotes& notes) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return;
  const std::string text = ReadInputFile(path.string(), "out");
  const SweepHeader columns = ParseSweepHeader(header, path.string());
  for (size_t at = SkipHeader(text, header, path); at < text.size();) {
    const size_t end = text.find('\n', at);
    if (end == std::string::npos) {  // a crash while the last row was written
      ++notes.truncated;
      break;
    }
    const std::string row = text.substr(at, end - at);
    at = end + 1;
    SweepKey key;
    if (row.empty()) continue;
    if (CheckSweepRow(columns, row, key)) {
      ++notes.unreadable;
    } else if (!shard.index.count(key)) {
      ++notes.outside;
    } else if (row.rfind(shard.runs[shard.index.at(key)].prefix + ",", 0) != 0) {
      ++notes.changed;
    } else {
      rows[key] = row;
    }
  }
}

void PrintResumeNotes(const ResumeNotes& n, const fs::path& journal) {
  if (n.changed > 0) {
    fmt::print(stderr, "sweep: {} runs re-run: their set-up changed since they ran\n", n.changed);
  }
  if (n.outside > 0) {
    fmt::print(stderr,
               "sweep: {} rows dropped: their runs are no longer in the sweep (or this shard)\n",
               n.outside);
  }
  if (n.unreadable > 0) {
    fmt::print(stderr, "sweep: {} unreadable rows dropped; their runs are re-run\n", n.unreadable);
  }
  if (n.truncated > 0) {
    fmt::print(stderr, "sweep: an unfinished last line of {} dropped (a run cut short)\n",
               journal.string());
  }
}

// Runs the missing runs on the thread pool; each row goes to the journal as soon as it is done.
int RunMissing(const SweepPlan& plan, const SweepOptions& o, const ShardPlan& shard,
               const std::vector<size_t>& missing, Journal& journal,
               std::map<SweepKey, std::string>& rows) {
  std::mutex mutex;
  int unfinished = 0;
  RunProgress progress("sweep", missing.size(), o.progress);
  ParallelFor(missing.size(), o.threads, [&](size_t i) {
    const PlannedRun& planned = shard.runs[missing[i]];
    const SweepRun& run = planned.run;
    const RunSpec spec = SweepSpecFor(plan, run);
    const auto it = shard.prepared.find(run.point);
    const RunResult r =
        it != shard.prepared.end() ? Execute(spec, *it->second) : Execute(spec, Prepare(spec));
    const std::string row = planned.prefix + "," + StatsText(r.summary, plan.stats);
    std::lock_guard<std::mutex> lock(mutex);
    // The row's set-up, whole, before the row that names it.
    const fs::path setup = fs::path(o.out) / "setups" / (planned.digest + ".toml");
    std::error_code ec;
    if (!fs::exists(setup, ec)) {
      WriteOutputFile(setup, "out",
                      [&](std::ostream& out) { out << SetupTomlFromJson(r.summary.setup); });
    }
    journal.Append(row);
    rows[{run.point, run.variant, run.seed}] = row;
    unfinished += r.summary.unfinished_jobs > 0;
    progress.Done();
  });
  return unfinished;
}

void WriteRows(const fs::path& path, const std::string& field, const std::string& header,
               const std::map<SweepKey, std::string>& rows) {
  WriteOutputFile(path, field, [&](std::ostream& out) {
    out << header << "\n";
    for (const auto& [key, row] : rows) out << row << "\n";
  });
}

ShardManifest ManifestOf(const SweepPlan& plan, const SweepOptions& o, size_t shard_runs) {
  ShardManifest m{plan.file,  plan.file_sha256, o.shard, o.shards,  plan.Runs(),
                  shard_runs, plan.points,      {},      plan.seeds};
  for (const SweepVariant& v : plan.variants) m.variants.push_back(v.name);
  return m;
}

}  // namespace

void ParseShard(const std::string& text, const std::string& field, int& shard, int& shards) {
  const size_t slash = text.find('/');
  auto parse = [](std::string_view s, int& v) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && ec == std::errc() && end == s.data() + s.size();
  };
  int i = 0, n = 0;
  if (slash == std::string::npos || !parse(std::string_view(text).substr(0, slash), i) ||
      !parse(std::string_view(text).substr(slash + 1), n) || n < 1 || i < 1 || i > n) {
    throw InputError(
        "", 0, field,
        fmt::format("expected I/N with integers 1 <= I <= N <= {}, got '{}'", INT_MAX, text));
  }
  shard = i;
  shards = n;
}

namespace {

int RunSweepIn(const SweepOptions& o) {
  const SweepPlan plan = ReadSweepPlan(o.file, o.trace, o.named("trace"));
  if (static_cast<size_t>(o.shards) > plan.Runs()) {
    throw InputError("", 0, o.named("shard"),
                     fmt::format("{} shards, but the sweep has only {} runs: some shards would "
                                 "have none; use at most {} shards",
                                 o.shards, plan.Runs(), plan.Runs()));
  }
  const ShardPlan shard = PlanShard(plan, o);
  const fs::path out(o.out), results = out / "results.csv", journal_path = out / "journal.csv";
  MakeOutputDirectory(out, "out");
  const OutLock lock(out);
  CheckOutputPath(results, "out");
  CheckOutputPath(journal_path, "out");
  const std::string header = SweepHeaderLine(plan);
  std::map<SweepKey, std::string> rows, journal_rows;
  ResumeNotes notes;
  LoadRows(results, header, shard, rows, notes);
  LoadRows(journal_path, header, shard, journal_rows, notes);
  rows.insert(journal_rows.begin(), journal_rows.end());
  PrintResumeNotes(notes, journal_path);
  std::vector<size_t> missing;
  for (size_t i = 0; i < shard.runs.size(); ++i) {
    const SweepRun& r = shard.runs[i].run;
    if (!rows.count({r.point, r.variant, r.seed})) missing.push_back(i);
  }
  if (o.progress && !rows.empty()) {
    fmt::print(stderr, "sweep: resuming, {} runs already done\n", rows.size());
  }
  WriteShardManifest(out / "shard.json", ManifestOf(plan, o, shard.runs.size()));
  WriteRows(journal_path, "out", header, journal_rows);  // whole rows only, from here on
  Journal journal(journal_path);
  const int unfinished = missing.empty() ? 0 : RunMissing(plan, o, shard, missing, journal, rows);
  WriteRows(results, "out", header, rows);
  std::error_code ec;
  fs::remove(journal_path, ec);  // only now: results.csv holds every row
  if (unfinished > 0) {
    fmt::print(stderr,
               "slotflow: error: {} runs of the sweep left jobs unfinished (see "
               "unfinished_jobs in {})\n",
               unfinished, results.string());
    return 2;
  }
  return 0;
}

}  // namespace

int RunSweep(const SweepOptions& o) {
  try {
    return RunSweepIn(o);
  } catch (const InputError& e) {
    // The output directory's errors name it as the front end took it.
    if (e.field() != "out") throw;
    throw InputError(e.file(), e.line(), o.named("out"), e.message());
  }
}

}  // namespace slotflow
