#include "cli/compare.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

namespace slotflow {

std::vector<RunResult> RunComparison(const std::vector<CompareEntry>& entries,
                                     const PreparedRun& run, int threads) {
  std::vector<RunResult> results(entries.size());
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  threads = std::min<int>(threads, static_cast<int>(entries.size()));
  std::atomic<size_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto worker = [&] {
    for (size_t i = next++; i < entries.size(); i = next++) {
      try {
        results[i] = Execute(entries[i].spec, run);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
  return results;
}

namespace {
double Ratio(double v, double base) { return base > 0 ? v / base : 0; }
}  // namespace

void PrintComparison(const std::vector<CompareEntry>& entries,
                     const std::vector<RunResult>& results, std::ostream& out) {
  size_t width = 6;
  for (const auto& e : entries) width = std::max(width, e.label.size());
  fmt::print(out, "{:<{}}  {:>10}  {:>10}  {:>10}  {:>10}  {:>10}  {:>7}  {:>7}  {:>7}  {:>8}\n",
             "policy", width, "mean_s", "p50_s", "p95_s", "p99_s", "max_s", "mean/1", "p95/1",
             "p99/1", "wall_s");
  const RunSummary& base = results.front().summary;
  for (size_t i = 0; i < entries.size(); ++i) {
    const RunSummary& s = results[i].summary;
    fmt::print(out,
               "{:<{}}  {:>10.3f}  {:>10.3f}  {:>10.3f}  {:>10.3f}  {:>10.3f}  {:>7.3f}  {:>7.3f}  "
               "{:>7.3f}  {:>8.2f}{}\n",
               entries[i].label, width, s.mean_jct, s.p50_jct, s.p95_jct, s.p99_jct, s.max_jct,
               Ratio(s.mean_jct, base.mean_jct), Ratio(s.p95_jct, base.p95_jct),
               Ratio(s.p99_jct, base.p99_jct), s.wall_s,
               s.unfinished_jobs ? fmt::format("  ({} unfinished)", s.unfinished_jobs) : "");
  }
}

void WriteComparisonCsv(const std::vector<CompareEntry>& entries,
                        const std::vector<RunResult>& results, std::ostream& out) {
  out << "policy,jobs,mean_jct_s,p50_jct_s,p95_jct_s,p99_jct_s,max_jct_s,mean_ratio,p95_ratio,"
         "p99_ratio,unfinished_jobs,events,wall_s\n";
  const RunSummary& base = results.front().summary;
  for (size_t i = 0; i < entries.size(); ++i) {
    const RunSummary& s = results[i].summary;
    fmt::print(out, "{},{},{},{},{},{},{},{},{},{},{},{},{}\n", entries[i].label, s.jobs,
               s.mean_jct, s.p50_jct, s.p95_jct, s.p99_jct, s.max_jct,
               Ratio(s.mean_jct, base.mean_jct), Ratio(s.p95_jct, base.p95_jct),
               Ratio(s.p99_jct, base.p99_jct), s.unfinished_jobs, s.events, s.wall_s);
  }
}

}  // namespace slotflow
