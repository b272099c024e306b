#include "workload/fb_trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "api/error.h"
#include "api/units.h"
#include "common/input_file.h"

namespace slotflow {
namespace {

// One coflow line as written in the trace; sizes still in MiB.
struct Reducer {
  int location;
  double shuffle_mib;
};

struct Coflow {
  int line = 0;
  std::string id;
  double arrival_ms;
  std::vector<int> mappers;
  std::vector<Reducer> reducers;
};

struct ParsedTrace {
  int ports = 0;
  std::vector<Coflow> coflows;
};

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// Walks the whitespace-separated tokens of one line and reports errors at that line. The
// whole file is parsed with std::from_chars on views into one buffer (no per-token streams).
class LineReader {
 public:
  LineReader(std::string_view text, const std::string& file, int line)
      : text_(text), file_(file), line_(line) {}

  // The next token, or an empty view at the end of the line.
  std::string_view Next() {
    while (pos_ < text_.size() && IsSpace(text_[pos_])) ++pos_;
    const size_t start = pos_;
    while (pos_ < text_.size() && !IsSpace(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  // The next token, which must exist; `what` describes it for the error message.
  std::string_view Require(std::string_view field, std::string_view what) {
    const std::string_view token = Next();
    if (token.empty()) Fail(field, fmt::format("the line ends where {} was expected", what));
    return token;
  }

  // The next token of a list of `count`, of which `index` came before.
  std::string_view RequireItem(std::string_view field, std::string_view what, int64_t index,
                               int64_t count) {
    const std::string_view token = Next();
    if (token.empty()) {
      Fail(field, fmt::format("the line ends after {} of the {} {}", index, count, what));
    }
    return token;
  }

  int64_t Integer(std::string_view token, std::string_view field, int64_t lo, int64_t hi) {
    int64_t value = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (ec != std::errc() || end != token.data() + token.size()) {
      Fail(field, fmt::format("expected an integer, got '{}'", token));
    }
    if (value < lo || value > hi) {
      Fail(field, fmt::format("{} is outside {}..{}", value, lo, hi));
    }
    return value;
  }

  // A finite non-negative decimal number.
  double Number(std::string_view token, std::string_view field) {
    double value = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (ec != std::errc() || end != token.data() + token.size()) {
      Fail(field, fmt::format("expected a number, got '{}'", token));
    }
    if (!std::isfinite(value)) Fail(field, fmt::format("must be finite, got '{}'", token));
    if (value < 0) Fail(field, fmt::format("must be non-negative, got '{}'", token));
    return value;
  }

  [[noreturn]] void Fail(std::string_view field, const std::string& message) const {
    throw InputError(file_, line_, std::string(field), message);
  }

  // Counts a stage of the line's coflow; fails at this line when the workload grows too big.
  void Count(WorkloadBudget& budget, int64_t tasks, int64_t parent_tasks,
             std::string_view field) const {
    budget.AddStage(tasks, parent_tasks, file_, line_, std::string(field));
  }

  int line() const { return line_; }

 private:
  std::string_view text_;
  const std::string& file_;
  int line_;
  size_t pos_ = 0;
};

constexpr int64_t kMaxCount = std::numeric_limits<int32_t>::max();
// The longest line the reader accepts: the FB trace's longest is about 5 KB; a coflow with a
// million mappers and reducers would still fit.
constexpr size_t kMaxLineBytes = size_t{64} << 20;

Coflow ParseCoflow(LineReader& r, int ports, WorkloadBudget& budget) {
  Coflow c;
  c.line = r.line();
  const std::string_view id = r.Require("id", "the coflow id");
  r.Integer(id, "id", 0, std::numeric_limits<int64_t>::max());
  c.id = std::string(id);
  c.arrival_ms = r.Number(r.Require("arrival", "the arrival time (ms)"), "arrival");

  const int64_t m =
      r.Integer(r.Require("mapper count", "the mapper count"), "mapper count", 1, kMaxCount);
  r.Count(budget, m, 0, "mapper count");
  c.mappers.reserve(static_cast<size_t>(std::min<int64_t>(m, 1024)));
  for (int64_t i = 0; i < m; ++i) {
    const std::string_view token = r.RequireItem("mapper location", "mapper locations", i, m);
    if (token.find(':') != std::string_view::npos) {
      r.Fail("mapper location", fmt::format("expected {} mapper locations, found {} before the "
                                            "reducer entry '{}'",
                                            m, i, token));
    }
    c.mappers.push_back(static_cast<int>(r.Integer(token, "mapper location", 0, ports - 1)));
  }

  const int64_t n =
      r.Integer(r.Require("reducer count", "the reducer count"), "reducer count", 1, kMaxCount);
  r.Count(budget, n, m, "reducer count");
  c.reducers.reserve(static_cast<size_t>(std::min<int64_t>(n, 1024)));
  for (int64_t i = 0; i < n; ++i) {
    const std::string_view token = r.RequireItem("reducer", "reducer entries (location:MB)", i, n);
    const size_t colon = token.find(':');
    if (colon == std::string_view::npos) {
      r.Fail("reducer", fmt::format("expected location:shuffleMB, got '{}'", token));
    }
    Reducer red;
    red.location = static_cast<int>(r.Integer(token.substr(0, colon), "reducer", 0, ports - 1));
    red.shuffle_mib = r.Number(token.substr(colon + 1), "shuffle size");
    c.reducers.push_back(red);
  }
  if (const std::string_view extra = r.Next(); !extra.empty()) {
    r.Fail("reducer count", fmt::format("extra token '{}' after the {} reducer entries", extra, n));
  }
  return c;
}

ParsedTrace Parse(std::string_view text, const std::string& file) {
  ParsedTrace trace;
  int64_t announced = -1;
  int header_line = 0;
  std::unordered_set<std::string> ids;
  WorkloadBudget budget;
  int line = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t eol = std::min(text.find('\n', pos), text.size());
    const std::string_view content = text.substr(pos, eol - pos);
    pos = eol + 1;
    ++line;
    LineReader r(content, file, line);
    if (content.size() > kMaxLineBytes) {
      r.Fail("line",
             fmt::format("is {} bytes long; the limit is {}", content.size(), kMaxLineBytes));
    }
    if (announced < 0) {
      const std::string_view first = r.Next();
      if (first.empty()) continue;  // blank lines are skipped everywhere
      header_line = line;
      trace.ports = static_cast<int>(r.Integer(first, "ports", 1, kMaxCount));
      announced = r.Integer(r.Require("coflows", "the coflow count"), "coflows", 0, kMaxCount);
      if (const std::string_view extra = r.Next(); !extra.empty()) {
        r.Fail("header",
               fmt::format("expected `<ports> <coflows>`, found extra token '{}'", extra));
      }
      continue;
    }
    if (content.find_first_not_of(" \t\r\v\f") == std::string_view::npos) continue;
    if (static_cast<int64_t>(trace.coflows.size()) == announced) {
      r.Fail("coflows", fmt::format("the header (line {}) announces {} coflows but there are more",
                                    header_line, announced));
    }
    Coflow c = ParseCoflow(r, trace.ports, budget);
    if (!ids.insert(c.id).second) r.Fail("id", fmt::format("duplicate coflow id '{}'", c.id));
    trace.coflows.push_back(std::move(c));
  }
  if (announced < 0) {
    throw InputError(file, 1, "ports", "empty trace: expected a header `<ports> <coflows>`");
  }
  if (static_cast<int64_t>(trace.coflows.size()) != announced) {
    throw InputError(file, header_line, "coflows",
                     fmt::format("the header announces {} coflows but the file has {}", announced,
                                 trace.coflows.size()));
  }
  return trace;
}

void CheckOptions(const FbTraceOptions& options, const std::string& file) {
  if (!std::isfinite(options.traffic_scale) || options.traffic_scale < 0) {
    throw InputError(file, 0, "traffic_scale", "must be a finite non-negative number");
  }
  if (options.map_input_ratio &&
      (!std::isfinite(*options.map_input_ratio) || *options.map_input_ratio < 0)) {
    throw InputError(file, 0, "map_input_ratio", "must be a finite non-negative number");
  }
}

std::string ReadAll(std::istream& in) {
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return std::move(buffer).str();
}

enum class Mode { kJobs, kCoflows };

FbTrace Build(std::string_view text, const std::string& file, const FbTraceOptions& options,
              Mode mode) {
  CheckOptions(options, file);
  const ParsedTrace parsed = Parse(text, file);
  FbTrace result;
  result.ports = parsed.ports;
  result.workload.source = file;
  result.workload.jobs.reserve(parsed.coflows.size());
  const double bytes_per_mib = kMiB * options.traffic_scale;
  for (const Coflow& c : parsed.coflows) {
    std::vector<Bytes> reduce_input;
    reduce_input.reserve(c.reducers.size());
    for (const Reducer& red : c.reducers) {
      const Bytes b = red.shuffle_mib * bytes_per_mib;
      if (!(b <= kMaxBytes)) {
        throw InputError(
            file, c.line, "shuffle size",
            fmt::format("{} MiB{} is larger than 1 EB (1e18 bytes), the most "
                        "slotflow accepts",
                        red.shuffle_mib,
                        options.traffic_scale == 1
                            ? ""
                            : fmt::format(" x traffic_scale {}", options.traffic_scale)));
      }
      reduce_input.push_back(b);
    }
    const int maps = static_cast<int>(c.mappers.size());
    const Seconds submit = CheckSeconds(c.arrival_ms / 1000.0, file, c.line, "arrival");
    if (mode == Mode::kJobs) {
      // Duopoly §6.1 (docs/readings.md): map inputs sized so the map stage is about as long as the
      // reduce stage (or by a ratio); trace locations are ignored.
      const Bytes map_input = MapInputPerTask(options.map_input_ratio, reduce_input, maps);
      if (!(map_input <= kMaxBytes)) {
        throw InputError(file, c.line, "map input",
                         fmt::format("each map would read {:g} bytes, more than 1 EB (1e18 "
                                     "bytes), the most slotflow accepts",
                                     map_input));
      }
      result.workload.jobs.push_back(MakeMapReduceJob(c.id, submit, maps, map_input, reduce_input));
    } else {
      // Pinned coflows: one server per port, no slots, no compute.
      JobSpec job = MakeMapReduceJob(c.id, submit, maps, 0, reduce_input);
      std::vector<TaskSpec>& map_tasks = job.stages[0].tasks;
      for (int i = 0; i < maps; ++i) {
        map_tasks[i].pinned = ServerId{c.mappers[i]};
        map_tasks[i].compute = 0;
      }
      std::vector<TaskSpec>& reduce_tasks = job.stages[1].tasks;
      for (size_t i = 0; i < c.reducers.size(); ++i) {
        reduce_tasks[i].pinned = ServerId{c.reducers[i].location};
        reduce_tasks[i].compute = 0;
      }
      result.workload.jobs.push_back(std::move(job));
    }
  }
  std::stable_sort(result.workload.jobs.begin(), result.workload.jobs.end(),
                   [](const JobSpec& a, const JobSpec& b) { return a.submit < b.submit; });
  return result;
}

}  // namespace

FbTrace ReadFbTraceAsJobs(const std::string& path, const FbTraceOptions& options) {
  return Build(ReadInputFile(path, "trace"), path, options, Mode::kJobs);
}

FbTrace ReadFbTraceAsJobs(std::istream& in, const std::string& name_for_messages,
                          const FbTraceOptions& options) {
  return Build(ReadAll(in), name_for_messages, options, Mode::kJobs);
}

FbTrace ReadFbTraceAsCoflows(const std::string& path, const FbTraceOptions& options) {
  return Build(ReadInputFile(path, "trace"), path, options, Mode::kCoflows);
}

FbTrace ReadFbTraceAsCoflows(std::istream& in, const std::string& name_for_messages,
                             const FbTraceOptions& options) {
  return Build(ReadAll(in), name_for_messages, options, Mode::kCoflows);
}

}  // namespace slotflow
