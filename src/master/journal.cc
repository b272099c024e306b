#include "master/journal.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include "api/error.h"
#include "common/sha256.h"

namespace slotflow {

namespace {

constexpr const char* kSchema =
    "CREATE TABLE IF NOT EXISTS completed_jobs ("
    " job_index INTEGER PRIMARY KEY, name TEXT NOT NULL, submit_s REAL, first_start_s REAL,"
    " finish_s REAL, jct_s REAL, bytes REAL, tasks INTEGER, local_fraction REAL,"
    " size_group INTEGER);"
    "CREATE TABLE IF NOT EXISTS completed_tasks ("
    " job_index INTEGER NOT NULL, stage INTEGER NOT NULL, task_index INTEGER NOT NULL,"
    " server INTEGER NOT NULL, locality INTEGER, network_bytes REAL, ready_s REAL,"
    " placed_s REAL, compute_s REAL, computed_s REAL, finish_s REAL,"
    " PRIMARY KEY (job_index, stage, task_index));"
    "CREATE TABLE IF NOT EXISTS run (key TEXT PRIMARY KEY, value TEXT NOT NULL)";
constexpr const char* kSelect =
    "SELECT job_index, name, submit_s, first_start_s, finish_s, jct_s, bytes, tasks,"
    " local_fraction, size_group FROM completed_jobs ORDER BY job_index";
constexpr const char* kInsert =
    "INSERT OR IGNORE INTO completed_jobs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
// The columns of kSelect after job_index and name, as a row's fields are named in errors.
constexpr const char* kNumberColumns[] = {"submit_s",       "first_start_s", "finish_s",
                                          "jct_s",          "bytes",         "tasks",
                                          "local_fraction", "size_group"};
constexpr const char* kSelectTasks =
    "SELECT job_index, stage, task_index, server, locality, network_bytes, ready_s, placed_s,"
    " compute_s, computed_s, finish_s FROM completed_tasks ORDER BY job_index, stage, task_index";
constexpr const char* kTaskColumns[] = {"job_index", "stage",         "task_index", "server",
                                        "locality",  "network_bytes", "ready_s",    "placed_s",
                                        "compute_s", "computed_s",    "finish_s"};
constexpr int kTaskIntegerColumns = 5;  // the first five are integers
constexpr const char* kInsertTask =
    "INSERT OR REPLACE INTO completed_tasks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
constexpr const char* kDeleteTasks = "DELETE FROM completed_tasks WHERE job_index = ?";
constexpr const char* kDeleteTask =
    "DELETE FROM completed_tasks WHERE job_index = ? AND stage = ? AND task_index = ?";

// A prepared statement, finalized when it goes.
struct Statement {
  sqlite3_stmt* s = nullptr;
  ~Statement() { sqlite3_finalize(s); }
};

}  // namespace

std::string JournalIdentity(const Workload& workload, uint64_t seed) {
  std::string jobs;
  for (const JobSpec& job : workload.jobs) {
    size_t tasks = 0;
    Bytes input = 0;
    for (const StageSpec& stage : job.stages) {
      tasks += stage.tasks.size();
      for (const TaskSpec& t : stage.tasks) input += t.input;
    }
    jobs += fmt::format("{}\t{:.17g}\t{}\t{:.17g}\t{:.17g}\n", job.name, job.submit, tasks, input,
                        job.ShuffleBytes());
  }
  return fmt::format("seed {}, workload {}", seed, Sha256Hex(jobs).substr(0, 16));
}

Journal::Journal(const std::string& path, const Workload& workload, uint64_t seed) : path_(path) {
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
      SQLITE_OK) {
    const std::string why = db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw InputError(path, 0, "--journal", "cannot open the journal: " + why);
  }
  // Someone reading the journal while the run goes on (sqlite3, a script) holds its lock for a
  // moment: a write waits for it instead of failing with "database is locked".
  sqlite3_busy_timeout(db_, 10'000);
  try {
    Exec(kSchema);
    // The statements name this version's columns: a table of the same name made otherwise
    // fails to prepare here, before anything runs. The writes are kept for Record and the rest.
    Statement select, select_tasks;
    select.s = Prepare(kSelect);
    select_tasks.s = Prepare(kSelectTasks);
    insert_ = Prepare(kInsert);
    insert_task_ = Prepare(kInsertTask);
    delete_tasks_ = Prepare(kDeleteTasks);
    delete_task_ = Prepare(kDeleteTask);
    Load(select.s, workload);
    LoadTasks(select_tasks.s, workload);
    CheckIdentity(JournalIdentity(workload, seed));
  } catch (...) {
    // The destructor does not run for a constructor that throws.
    for (sqlite3_stmt* s : {insert_, insert_task_, delete_tasks_, delete_task_}) {
      sqlite3_finalize(s);
    }
    sqlite3_close(db_);
    throw;
  }
}

Journal::~Journal() {
  for (sqlite3_stmt* s : {insert_, insert_task_, delete_tasks_, delete_task_}) {
    sqlite3_finalize(s);
  }
  sqlite3_close(db_);
}

sqlite3_stmt* Journal::Prepare(const char* sql) {
  sqlite3_stmt* out = nullptr;
  if (sqlite3_prepare_v2(db_, sql, -1, &out, nullptr) != SQLITE_OK) {
    throw InputError(path_, 0, "--journal",
                     std::string("not a journal of slotflow live: ") + sqlite3_errmsg(db_));
  }
  return out;
}

void Journal::Write(const char* sql) {
  if (sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK) WriteFailed();
}

void Journal::Step(sqlite3_stmt* statement) {
  if (sqlite3_step(statement) != SQLITE_DONE) WriteFailed();
}

void Journal::WriteFailed() const {
  throw std::runtime_error(
      fmt::format("cannot write the journal {}: {}", path_, sqlite3_errmsg(db_)));
}

void Journal::Exec(const std::string& sql) {
  char* error = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    const std::string why = error != nullptr ? error : sqlite3_errmsg(db_);
    sqlite3_free(error);
    throw InputError(path_, 0, "--journal", "not a journal of slotflow live: " + why);
  }
}

void Journal::Load(sqlite3_stmt* q, const Workload& workload) {
  int rc = SQLITE_ROW;
  while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
    if (sqlite3_column_type(q, 0) != SQLITE_INTEGER) {
      throw InputError(path_, 0, "--journal", "a row's job_index is not an integer");
    }
    const int index = sqlite3_column_int(q, 0);
    if (sqlite3_column_type(q, 1) != SQLITE_TEXT) {
      throw InputError(path_, 0, "--journal", fmt::format("job {}: name is not text", index));
    }
    for (int c = 2; c < 10; ++c) {
      const int type = sqlite3_column_type(q, c);
      if (type != SQLITE_INTEGER && type != SQLITE_FLOAT) {
        throw InputError(path_, 0, "--journal",
                         fmt::format("job {}: {} is not a number", index, kNumberColumns[c - 2]));
      }
    }
    JobResult r;
    r.name = reinterpret_cast<const char*>(sqlite3_column_text(q, 1));
    if (index < 0 || index >= static_cast<int>(workload.jobs.size()) ||
        workload.jobs[index].name != r.name) {
      throw InputError(path_, 0, "--journal",
                       fmt::format("records job {} ({}), which this workload does not have: it "
                                   "is the journal of another workload",
                                   index, r.name));
    }
    r.submit = sqlite3_column_double(q, 2);
    r.first_start = sqlite3_column_double(q, 3);
    r.finish = sqlite3_column_double(q, 4);
    r.jct = sqlite3_column_double(q, 5);
    r.bytes = sqlite3_column_double(q, 6);
    r.tasks = sqlite3_column_int(q, 7);
    r.local_fraction = sqlite3_column_double(q, 8);
    r.size_group = sqlite3_column_int(q, 9);
    completed_[index] = r;
  }
  if (rc != SQLITE_DONE) {
    throw InputError(path_, 0, "--journal", std::string("cannot read: ") + sqlite3_errmsg(db_));
  }
}

// Task rows of a job the journal records as completed are ignored (Record deletes them in the
// transaction that records the job, so only a file edited by hand has them).
void Journal::LoadTasks(sqlite3_stmt* q, const Workload& workload) {
  int rc = SQLITE_ROW;
  while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
    int v[kTaskIntegerColumns];
    for (int c = 0; c < 11; ++c) {
      const int type = sqlite3_column_type(q, c);
      const bool integer = c < kTaskIntegerColumns;
      if (type != SQLITE_INTEGER && (integer || type != SQLITE_FLOAT)) {
        throw InputError(path_, 0, "--journal",
                         fmt::format("a completed task's {} is not {}", kTaskColumns[c],
                                     integer ? "an integer" : "a number"));
      }
      if (integer) v[c] = sqlite3_column_int(q, c);
    }
    JournaledTask t{.job = v[0], .stage = v[1], .index = v[2], .done = {}};
    const auto& jobs = workload.jobs;
    if (t.job < 0 || t.job >= static_cast<int>(jobs.size()) || t.stage < 0 ||
        t.stage >= static_cast<int>(jobs[t.job].stages.size()) || t.index < 0 ||
        t.index >= static_cast<int>(jobs[t.job].stages[t.stage].tasks.size())) {
      throw InputError(path_, 0, "--journal",
                       fmt::format("records task {} of stage {} of job {}, which this workload "
                                   "does not have: it is the journal of another workload",
                                   t.index, t.stage, t.job));
    }
    const std::string where = fmt::format("task {} of stage {} of job {} ({})", t.index, t.stage,
                                          t.job, jobs[t.job].name);
    if (v[3] < 0) {
      throw InputError(path_, 0, "--journal", where + ": server is negative");
    }
    if (v[4] < 0 || v[4] > static_cast<int>(Locality::kOffRack)) {
      throw InputError(path_, 0, "--journal", where + ": locality is not 0 to 3");
    }
    t.done.server = ServerId{v[3]};
    t.done.locality = static_cast<Locality>(v[4]);
    t.done.network_bytes = sqlite3_column_double(q, 5);
    t.done.ready_at = sqlite3_column_double(q, 6);
    t.done.placed_at = sqlite3_column_double(q, 7);
    t.done.compute_at = sqlite3_column_double(q, 8);
    t.done.computed_at = sqlite3_column_double(q, 9);
    t.done.finish_at = sqlite3_column_double(q, 10);
    if (completed_.count(t.job) == 0) tasks_.push_back(t);
  }
  if (rc != SQLITE_DONE) {
    throw InputError(path_, 0, "--journal", std::string("cannot read: ") + sqlite3_errmsg(db_));
  }
}

// The run a journal belongs to is recorded when it is made; another run's journal is refused.
void Journal::CheckIdentity(const std::string& identity) {
  Statement q;
  sqlite3_prepare_v2(db_, "SELECT value FROM run WHERE key = 'identity'", -1, &q.s, nullptr);
  if (sqlite3_step(q.s) == SQLITE_ROW) {
    const unsigned char* recorded = sqlite3_column_text(q.s, 0);
    const std::string was = recorded != nullptr ? reinterpret_cast<const char*>(recorded) : "";
    if (was != identity) {
      throw InputError(
          path_, 0, "--journal",
          fmt::format("is the journal of another run ({}); this run is {}", was, identity));
    }
    return;
  }
  if (!completed_.empty() || !tasks_.empty()) {
    throw InputError(path_, 0, "--journal",
                     "records jobs but not the run they belong to (made by an older slotflow?); "
                     "remove it to start afresh");
  }
  Statement ins;
  sqlite3_prepare_v2(db_, "INSERT INTO run VALUES ('identity', ?)", -1, &ins.s, nullptr);
  sqlite3_bind_text(ins.s, 1, identity.c_str(), -1, SQLITE_TRANSIENT);
  if (sqlite3_step(ins.s) != SQLITE_DONE) {
    throw InputError(path_, 0, "--journal", std::string("cannot write: ") + sqlite3_errmsg(db_));
  }
}

void Journal::Record(int index, const JobResult& r) {
  if (completed_.count(index) != 0) return;
  Write("BEGIN");
  sqlite3_reset(insert_);
  sqlite3_bind_int(insert_, 1, index);
  sqlite3_bind_text(insert_, 2, r.name.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_double(insert_, 3, r.submit);
  sqlite3_bind_double(insert_, 4, r.first_start);
  sqlite3_bind_double(insert_, 5, r.finish);
  sqlite3_bind_double(insert_, 6, r.jct);
  sqlite3_bind_double(insert_, 7, r.bytes);
  sqlite3_bind_int(insert_, 8, r.tasks);
  sqlite3_bind_double(insert_, 9, r.local_fraction);
  sqlite3_bind_int(insert_, 10, r.size_group);
  Step(insert_);
  sqlite3_reset(delete_tasks_);
  sqlite3_bind_int(delete_tasks_, 1, index);
  Step(delete_tasks_);
  Write("COMMIT");
  completed_[index] = r;
}

void Journal::RecordTasks(const std::vector<JournaledTask>& tasks) {
  if (tasks.empty()) return;
  Write("BEGIN");
  for (const JournaledTask& t : tasks) {
    sqlite3_stmt* q = insert_task_;
    sqlite3_reset(q);
    sqlite3_bind_int(q, 1, t.job);
    sqlite3_bind_int(q, 2, t.stage);
    sqlite3_bind_int(q, 3, t.index);
    sqlite3_bind_int(q, 4, t.done.server);
    sqlite3_bind_int(q, 5, static_cast<int>(t.done.locality));
    sqlite3_bind_double(q, 6, t.done.network_bytes);
    sqlite3_bind_double(q, 7, t.done.ready_at);
    sqlite3_bind_double(q, 8, t.done.placed_at);
    sqlite3_bind_double(q, 9, t.done.compute_at);
    sqlite3_bind_double(q, 10, t.done.computed_at);
    sqlite3_bind_double(q, 11, t.done.finish_at);
    Step(q);
  }
  Write("COMMIT");
}

void Journal::ForgetTask(int job, int stage, int index) {
  sqlite3_reset(delete_task_);
  sqlite3_bind_int(delete_task_, 1, job);
  sqlite3_bind_int(delete_task_, 2, stage);
  sqlite3_bind_int(delete_task_, 3, index);
  Step(delete_task_);
}

}  // namespace slotflow
