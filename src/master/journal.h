// Journal: live mode's record of completed work in an SQLite file, so that a master that was
// killed can be started again on the same workload and run only what it had not finished. A
// job is recorded when it completes, with the results jobs.csv gives for it, measured on the
// clock of the run that completed it; a task of a job not yet complete is recorded when it
// completes, with the server holding its output, and its record goes when its job's comes (or
// when a lost server takes its output). Each record is its own committed transaction.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "api/job.h"
#include "api/state.h"
#include "metrics/report.h"

struct sqlite3;
struct sqlite3_stmt;

namespace slotflow {

// What a journal records of the run it belongs to: the seed and a digest of the workload's jobs
// (names, submit times, sizes), so a journal of another seed or workload is refused.
std::string JournalIdentity(const Workload& workload, uint64_t seed);

// A task the journal records as completed: its place in the workload and what it left.
struct JournaledTask {
  int job = 0, stage = 0, index = 0;  // job index, stage index, index within the stage
  FinishedTask done;
};

class Journal {
 public:
  // Opens the journal of the run of `workload` under `seed`, creating the file and its tables
  // if needed. InputError naming --journal if it cannot be opened, is not a journal (other
  // tables, a row with a missing or non-numeric value), records a job of another workload (a
  // name that differs at its index, a task its job does not have), or belongs to another run
  // (JournalIdentity).
  Journal(const std::string& path, const Workload& workload, uint64_t seed);
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  // The jobs recorded as completed, by job index.
  const std::map<int, JobResult>& completed() const { return completed_; }
  // The tasks the journal recorded as completed when it was opened, of jobs it did not record
  // as completed then, in workload order (what a master starting again restores).
  const std::vector<JournaledTask>& completed_tasks() const { return tasks_; }
  // Records job `index` as completed with result r (a job already recorded is left as it was),
  // and forgets its tasks' records.
  void Record(int index, const JobResult& r);
  // Records these tasks as completed (one transaction; a task already recorded is replaced).
  void RecordTasks(const std::vector<JournaledTask>& tasks);
  // The task's output is gone (its server was lost): it is no longer recorded as completed.
  void ForgetTask(int job, int stage, int index);

 private:
  void Exec(const std::string& sql);
  void Load(sqlite3_stmt* select, const Workload& workload);
  void LoadTasks(sqlite3_stmt* select, const Workload& workload);
  sqlite3_stmt* Prepare(const char* sql);
  // Run a prepared write, or a statement (BEGIN, COMMIT); std::runtime_error if it fails.
  void Step(sqlite3_stmt* statement);
  void Write(const char* sql);
  [[noreturn]] void WriteFailed() const;
  void CheckIdentity(const std::string& identity);

  std::string path_;
  sqlite3* db_ = nullptr;
  // Prepared once, reused by Record, RecordTasks and ForgetTask.
  sqlite3_stmt* insert_ = nullptr;
  sqlite3_stmt* insert_task_ = nullptr;
  sqlite3_stmt* delete_tasks_ = nullptr;  // of a job
  sqlite3_stmt* delete_task_ = nullptr;
  std::map<int, JobResult> completed_;
  std::vector<JournaledTask> tasks_;  // as opened
};

}  // namespace slotflow
