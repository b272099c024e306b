#include "master/journal.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include "common/error.h"
#include "common/sha256.h"

namespace slotflow {

namespace {

constexpr const char* kSchema =
    "CREATE TABLE IF NOT EXISTS completed_jobs ("
    " job_index INTEGER PRIMARY KEY, name TEXT NOT NULL, submit_s REAL, first_start_s REAL,"
    " finish_s REAL, jct_s REAL, bytes REAL, tasks INTEGER, local_fraction REAL,"
    " size_group INTEGER);"
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
  try {
    Exec(kSchema);
    // Both statements name this version's columns: a table of the same name made otherwise
    // fails to prepare here, before anything runs. The insert is kept for Record.
    auto prepare = [this](const char* sql, sqlite3_stmt** out) {
      if (sqlite3_prepare_v2(db_, sql, -1, out, nullptr) != SQLITE_OK) {
        throw InputError(path_, 0, "--journal",
                         std::string("not a journal of slotflow live: ") + sqlite3_errmsg(db_));
      }
    };
    Statement select;
    prepare(kSelect, &select.s);
    prepare(kInsert, &insert_);
    Load(select.s, workload);
    CheckIdentity(JournalIdentity(workload, seed));
  } catch (...) {
    // The destructor does not run for a constructor that throws.
    sqlite3_finalize(insert_);
    sqlite3_close(db_);
    throw;
  }
}

Journal::~Journal() {
  sqlite3_finalize(insert_);
  sqlite3_close(db_);
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
  if (!completed_.empty()) {
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
  if (sqlite3_step(insert_) != SQLITE_DONE) {
    throw std::runtime_error(
        fmt::format("cannot write the journal {}: {}", path_, sqlite3_errmsg(db_)));
  }
  completed_[index] = r;
}

}  // namespace slotflow
