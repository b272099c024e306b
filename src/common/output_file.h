// Writing output files so that a failure loses nothing: the text goes to a temporary file
// beside the target, is flushed and fsynced, and only then renamed over it, so a reader sees
// either the old file or the whole new one, and a full disk leaves the old one in place.
// Outputs are only ever regular files: a directory, device or pipe at the path is an error,
// never replaced or written through.
#pragma once

#include <filesystem>
#include <fstream>
#include <functional>
#include <ostream>
#include <string>

namespace slotflow {

// Creates `dir` and its parents for outputs; InputError naming `dir` and `field` (the flag
// that named it) when it cannot, or when something other than a directory is in the way.
void MakeOutputDirectory(const std::filesystem::path& dir, const std::string& field);

// InputError naming `path` and `field` when `path` exists and is not a regular file.
void CheckOutputPath(const std::filesystem::path& path, const std::string& field);

// One output file being written. Text written to stream() lands in a temporary file beside
// `path`; Commit() makes it `path` (InputError naming the path when any write failed). A file
// destroyed without Commit() leaves `path` as it was and removes the temporary.
class OutputFile {
 public:
  OutputFile(std::filesystem::path path, std::string field);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::ostream& stream() { return out_; }
  const std::filesystem::path& path() const { return path_; }
  // Flushes the text to disk; InputError naming the path when any write failed. Writing
  // several files, syncing them all before committing any lets none replace its old file
  // unless all could be written.
  void Sync();
  // Sync() if not done, then renames the temporary over `path`.
  void Commit();

 private:
  std::filesystem::path path_, tmp_;
  std::string field_;
  std::ofstream out_;
  bool synced_ = false, committed_ = false;
};

// Writes `path` atomically with `write`; InputError naming the path and `field` on failure.
void WriteOutputFile(const std::filesystem::path& path, const std::string& field,
                     const std::function<void(std::ostream&)>& write);

}  // namespace slotflow
