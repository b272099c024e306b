// Journal: live mode's record of completed jobs in an SQLite file, so that a master that was
// killed can be started again on the same workload and run only the jobs it had not finished.
// A job is recorded when it completes (each record is its own committed transaction), with the
// results jobs.csv gives for it, measured on the clock of the run that completed it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "metrics/report.h"
#include "workload/job.h"

struct sqlite3;
struct sqlite3_stmt;

namespace slotflow {

// What a journal records of the run it belongs to: the seed and a digest of the workload's jobs
// (names, submit times, sizes), so a journal of another seed or workload is refused.
std::string JournalIdentity(const Workload& workload, uint64_t seed);

class Journal {
 public:
  // Opens the journal of the run of `workload` under `seed`, creating the file and its tables
  // if needed. InputError naming --journal if it cannot be opened, is not a journal (other
  // tables, a row with a missing or non-numeric value), records a job of another workload (a
  // name that differs at its index), or belongs to another run (JournalIdentity).
  Journal(const std::string& path, const Workload& workload, uint64_t seed);
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  // The jobs recorded as completed, by job index.
  const std::map<int, JobResult>& completed() const { return completed_; }
  // Records job `index` as completed with result r (a job already recorded is left as it was).
  void Record(int index, const JobResult& r);

 private:
  void Exec(const std::string& sql);
  void Load(sqlite3_stmt* select, const Workload& workload);
  void CheckIdentity(const std::string& identity);

  std::string path_;
  sqlite3* db_ = nullptr;
  sqlite3_stmt* insert_ = nullptr;  // prepared once, reused by Record
  std::map<int, JobResult> completed_;
};

}  // namespace slotflow
