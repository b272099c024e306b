#include "master/journal.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include "common/error.h"

namespace slotflow {

namespace {

constexpr const char* kSchema =
    "CREATE TABLE IF NOT EXISTS completed_jobs ("
    " job_index INTEGER PRIMARY KEY, name TEXT NOT NULL, submit_s REAL, first_start_s REAL,"
    " finish_s REAL, jct_s REAL, bytes REAL, tasks INTEGER, local_fraction REAL,"
    " size_group INTEGER)";

// A prepared statement, finalized when it goes.
struct Statement {
  sqlite3_stmt* s = nullptr;
  ~Statement() { sqlite3_finalize(s); }
};

}  // namespace

Journal::Journal(const std::string& path, const std::vector<std::string>& job_names) : path_(path) {
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
      SQLITE_OK) {
    const std::string why = db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw InputError(path, 0, "--journal", "cannot open the journal: " + why);
  }
  try {
    Exec(kSchema);
    Load(job_names);
  } catch (...) {
    sqlite3_close(db_);  // the destructor does not run for a constructor that throws
    throw;
  }
}

Journal::~Journal() { sqlite3_close(db_); }

void Journal::Exec(const std::string& sql) {
  char* error = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    const std::string why = error != nullptr ? error : sqlite3_errmsg(db_);
    sqlite3_free(error);
    throw InputError(path_, 0, "--journal", "not a journal of slotflow live: " + why);
  }
}

void Journal::Load(const std::vector<std::string>& job_names) {
  Statement q;
  sqlite3_prepare_v2(db_,
                     "SELECT job_index, name, submit_s, first_start_s, finish_s, jct_s, bytes,"
                     " tasks, local_fraction, size_group FROM completed_jobs",
                     -1, &q.s, nullptr);
  while (sqlite3_step(q.s) == SQLITE_ROW) {
    const int index = sqlite3_column_int(q.s, 0);
    JobResult r;
    r.name = reinterpret_cast<const char*>(sqlite3_column_text(q.s, 1));
    if (index < 0 || index >= static_cast<int>(job_names.size()) || job_names[index] != r.name) {
      throw InputError(path_, 0, "--journal",
                       fmt::format("records job {} ({}), which this workload does not have: it "
                                   "is the journal of another workload",
                                   index, r.name));
    }
    r.submit = sqlite3_column_double(q.s, 2);
    r.first_start = sqlite3_column_double(q.s, 3);
    r.finish = sqlite3_column_double(q.s, 4);
    r.jct = sqlite3_column_double(q.s, 5);
    r.bytes = sqlite3_column_double(q.s, 6);
    r.tasks = sqlite3_column_int(q.s, 7);
    r.local_fraction = sqlite3_column_double(q.s, 8);
    r.size_group = sqlite3_column_int(q.s, 9);
    completed_[index] = r;
  }
}

void Journal::Record(int index, const JobResult& r) {
  if (completed_.count(index) != 0) return;
  Statement ins;
  sqlite3_prepare_v2(db_,
                     "INSERT OR IGNORE INTO completed_jobs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     -1, &ins.s, nullptr);
  sqlite3_bind_int(ins.s, 1, index);
  sqlite3_bind_text(ins.s, 2, r.name.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_double(ins.s, 3, r.submit);
  sqlite3_bind_double(ins.s, 4, r.first_start);
  sqlite3_bind_double(ins.s, 5, r.finish);
  sqlite3_bind_double(ins.s, 6, r.jct);
  sqlite3_bind_double(ins.s, 7, r.bytes);
  sqlite3_bind_int(ins.s, 8, r.tasks);
  sqlite3_bind_double(ins.s, 9, r.local_fraction);
  sqlite3_bind_int(ins.s, 10, r.size_group);
  if (sqlite3_step(ins.s) != SQLITE_DONE) {
    throw std::runtime_error(
        fmt::format("cannot write the journal {}: {}", path_, sqlite3_errmsg(db_)));
  }
  completed_[index] = r;
}

}  // namespace slotflow
