#include "common/output_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include "api/error.h"

namespace slotflow {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void Fail(const fs::path& path, const std::string& field, const std::string& what) {
  throw InputError(path.string(), 0, field, what);
}

// fsync applies to the file, whichever descriptor names it: the stream's own is not reachable.
bool SyncPath(const fs::path& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::fsync(fd) == 0 || errno == EINVAL;  // EINVAL: a file system without fsync
  ::close(fd);
  return ok;
}

}  // namespace

void MakeOutputDirectory(const fs::path& dir, const std::string& field) {
  std::error_code ec;
  const fs::file_status st = fs::status(dir, ec);
  if (fs::exists(st)) {
    if (!fs::is_directory(st)) Fail(dir, field, "is not a directory");
    return;
  }
  fs::create_directories(dir, ec);
  if (ec) Fail(dir, field, "cannot create the directory: " + ec.message());
}

void CheckOutputPath(const fs::path& path, const std::string& field) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (!fs::exists(st) || fs::is_regular_file(st)) return;
  Fail(path, field,
       fs::is_directory(st) ? "is a directory; outputs are written only as regular files"
                            : "is not a regular file (a device or a pipe); outputs are written "
                              "only as regular files");
}

OutputFile::OutputFile(fs::path path, std::string field)
    : path_(std::move(path)), field_(std::move(field)) {
  CheckOutputPath(path_, field_);
  if (path_.has_parent_path()) MakeOutputDirectory(path_.parent_path(), field_);
  tmp_ = path_;
  static std::atomic<uint64_t> serial{0};  // threads of one process write side by side
  tmp_ += fmt::format(".tmp-{}-{}", ::getpid(), serial++);
  out_.open(tmp_, std::ios::binary | std::ios::trunc);
  if (!out_) Fail(path_, field_, fmt::format("cannot write the file: {}", std::strerror(errno)));
}

OutputFile::~OutputFile() {
  if (committed_) return;
  out_.close();
  std::error_code ec;
  fs::remove(tmp_, ec);
}

void OutputFile::Sync() {
  if (synced_) return;
  errno = 0;
  out_.close();  // flushes
  const int write_errno = errno;
  if (!out_ || !SyncPath(tmp_, O_RDONLY)) {
    Fail(path_, field_,
         fmt::format("could not write the whole file ({}); nothing was replaced",
                     write_errno != 0 ? std::strerror(write_errno) : "write error"));
  }
  synced_ = true;
}

void OutputFile::Commit() {
  Sync();
  CheckOutputPath(path_, field_);  // something may have appeared there meanwhile
  std::error_code ec;
  fs::rename(tmp_, path_, ec);
  if (ec) Fail(path_, field_, "cannot replace the file: " + ec.message());
  committed_ = true;
  const fs::path dir = path_.has_parent_path() ? path_.parent_path() : fs::path(".");
  SyncPath(dir, O_RDONLY | O_DIRECTORY);  // the rename itself; best effort
}

void WriteOutputFile(const fs::path& path, const std::string& field,
                     const std::function<void(std::ostream&)>& write) {
  OutputFile file(path, field);
  write(file.stream());
  file.Commit();
}

}  // namespace slotflow
