#include "run/compare_stats.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <functional>

#include "api/units.h"
#include "common/output_file.h"
#include "metrics/student_t.h"
#include "run/run_outputs.h"

namespace slotflow {

MeanCi MeanAndCi(const std::vector<double>& values) {
  MeanCi m;
  if (values.empty()) return m;
  for (double v : values) m.mean += v;
  m.mean /= static_cast<double>(values.size());
  if (values.size() < 2) {
    m.ci = std::nan("");  // undefined from one value
    return m;
  }
  double ss = 0;
  for (double v : values) ss += (v - m.mean) * (v - m.mean);
  const size_t df = values.size() - 1;
  const double t = StudentT95(static_cast<double>(df));
  m.ci =
      t * std::sqrt(ss / static_cast<double>(df)) / std::sqrt(static_cast<double>(values.size()));
  return m;
}

namespace {

double Ratio(double v, double base) { return base > 0 ? v / base : std::nan(""); }

// A CSV number; empty where undefined (a ratio to zero, a CI from one seed).
std::string Csv(double v) { return std::isfinite(v) ? fmt::format("{}", v) : ""; }

// The statistics shown per entry: name and how to read it from a run and the first entry's.
struct Statistic {
  const char* name;
  std::function<double(const RunSummary&, const RunSummary&)> of;
};

const std::vector<Statistic>& Statistics() {
  static const std::vector<Statistic> stats = {
      {"mean_s", [](const RunSummary& s, const RunSummary&) { return s.mean_jct; }},
      {"p50_s", [](const RunSummary& s, const RunSummary&) { return s.p50_jct; }},
      {"p95_s", [](const RunSummary& s, const RunSummary&) { return s.p95_jct; }},
      {"p99_s", [](const RunSummary& s, const RunSummary&) { return s.p99_jct; }},
      {"max_s", [](const RunSummary& s, const RunSummary&) { return s.max_jct; }},
      {"mean/1",
       [](const RunSummary& s, const RunSummary& b) { return Ratio(s.mean_jct, b.mean_jct); }},
      {"p95/1",
       [](const RunSummary& s, const RunSummary& b) { return Ratio(s.p95_jct, b.p95_jct); }},
      {"p99/1",
       [](const RunSummary& s, const RunSummary& b) { return Ratio(s.p99_jct, b.p99_jct); }},
      {"wall_s", [](const RunSummary& s, const RunSummary&) { return s.wall_s; }}};
  return stats;
}

// Statistic `st` of entry e over its seeds, each seed against the first entry at that seed.
MeanCi Over(const Statistic& st, const std::vector<std::vector<RunResult>>& results, size_t e) {
  std::vector<double> values;
  for (size_t k = 0; k < results[e].size(); ++k) {
    values.push_back(st.of(results[e][k].summary, results.front()[k].summary));
  }
  return MeanAndCi(values);
}

}  // namespace

void PrintComparison(const std::vector<CompareEntry>& entries,
                     const std::vector<std::vector<RunResult>>& results, std::ostream& out) {
  const bool several = results.front().size() > 1;
  size_t width = 6;
  for (const auto& e : entries) width = std::max(width, e.label.size());
  const int column = several ? 19 : 10;
  fmt::print(out, "{:<{}}", "variant", width);
  for (const Statistic& st : Statistics()) fmt::print(out, "  {:>{}}", st.name, column);
  fmt::print(out, "\n");
  for (size_t e = 0; e < entries.size(); ++e) {
    fmt::print(out, "{:<{}}", entries[e].label, width);
    for (const Statistic& st : Statistics()) {
      const MeanCi m = Over(st, results, e);
      // Ratios with 3 decimals; times with digits enough for their scale (FormatTime).
      const bool ratio = std::string_view(st.name).find('/') != std::string_view::npos;
      auto shown = [&](double v) { return ratio ? fmt::format("{:.3f}", v) : FormatTime(v); };
      const std::string text =
          several ? fmt::format("{} ± {}", shown(m.mean), shown(m.ci)) : shown(m.mean);
      fmt::print(out, "  {:>{}}", text, column);
    }
    int unfinished = 0;
    for (const RunResult& r : results[e]) unfinished += r.summary.unfinished_jobs;
    if (unfinished) fmt::print(out, "  ({} unfinished)", unfinished);
    fmt::print(out, "\n");
  }
  if (several) {
    fmt::print(out, "(mean ± 95 % confidence interval over seeds 1..{}; ratios seed by seed)\n",
               results.front().size());
  }
}

void WriteComparisonCsv(const std::vector<CompareEntry>& entries,
                        const std::vector<uint64_t>& seeds,
                        const std::vector<std::vector<RunResult>>& results, std::ostream& out) {
  out << "variant,seed,jobs,mean_jct_s,p50_jct_s,p95_jct_s,p99_jct_s,max_jct_s,mean_ratio,"
         "p95_ratio,p99_ratio,unfinished_jobs,events,wall_s\n";
  for (size_t e = 0; e < entries.size(); ++e) {
    for (size_t k = 0; k < seeds.size(); ++k) {
      const RunSummary& s = results[e][k].summary;
      const RunSummary& base = results.front()[k].summary;
      fmt::print(out, "{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", entries[e].label, seeds[k],
                 s.jobs, Csv(s.mean_jct), Csv(s.p50_jct), Csv(s.p95_jct), Csv(s.p99_jct),
                 Csv(s.max_jct), Csv(Ratio(s.mean_jct, base.mean_jct)),
                 Csv(Ratio(s.p95_jct, base.p95_jct)), Csv(Ratio(s.p99_jct, base.p99_jct)),
                 s.unfinished_jobs, s.events, s.wall_s);
    }
  }
}

void WriteComparisonSummaryCsv(const std::vector<CompareEntry>& entries,
                               const std::vector<std::vector<RunResult>>& results,
                               std::ostream& out) {
  static const std::array<const char*, 8> kNames = {"mean_jct_s", "p50_jct_s", "p95_jct_s",
                                                    "p99_jct_s",  "max_jct_s", "mean_ratio",
                                                    "p95_ratio",  "p99_ratio"};
  out << "variant,seeds";
  for (const char* n : kNames) out << "," << n << "," << n << "_ci95";
  out << "\n";
  for (size_t e = 0; e < entries.size(); ++e) {
    fmt::print(out, "{},{}", entries[e].label, results[e].size());
    for (size_t i = 0; i < kNames.size(); ++i) {
      const MeanCi m = Over(Statistics()[i], results, e);
      fmt::print(out, ",{},{}", Csv(m.mean), Csv(m.ci));
    }
    out << "\n";
  }
}

void WriteComparison(const std::string& out, const std::string& out_field,
                     const std::vector<CompareEntry>& entries, const std::vector<uint64_t>& seeds,
                     const std::vector<std::vector<RunResult>>& results) {
  const std::filesystem::path dir(out);
  for (size_t e = 0; e < entries.size(); ++e) {
    for (size_t k = 0; k < seeds.size(); ++k) {
      const std::filesystem::path sub =
          seeds.size() > 1 ? dir / entries[e].label / fmt::format("seed-{}", seeds[k])
                           : dir / entries[e].label;
      WriteRunOutputs(sub.string(), results[e][k], out_field);
    }
  }
  WriteOutputFile(dir / "compare.csv", out_field,
                  [&](std::ostream& o) { WriteComparisonCsv(entries, seeds, results, o); });
  WriteOutputFile(dir / "compare_summary.csv", out_field,
                  [&](std::ostream& o) { WriteComparisonSummaryCsv(entries, results, o); });
}

}  // namespace slotflow
