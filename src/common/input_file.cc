#include "common/input_file.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "api/error.h"

namespace slotflow {

void CheckInputFile(const std::string& path, std::string_view field, uintmax_t max_bytes) {
  const std::string f(field);
  if (path.empty()) throw InputError("", 0, f, "the file name is empty");
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) {
    throw InputError(path, 0, f, "cannot open: no such file");
  }
  if (std::filesystem::is_directory(status)) {
    throw InputError(path, 0, f, "is a directory, not a file");
  }
  if (!std::filesystem::is_regular_file(status)) {
    throw InputError(path, 0, f, "is not a regular file");
  }
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec && size > max_bytes) {
    throw InputError(path, 0, f,
                     fmt::format("is {} bytes; the limit is {} bytes", size, max_bytes));
  }
}

std::string ReadInputFile(const std::string& path, std::string_view field, uintmax_t max_bytes) {
  CheckInputFile(path, field, max_bytes);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw InputError(path, 0, std::string(field),
                     fmt::format("cannot open: {}", std::strerror(errno)));
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return std::move(buffer).str();
}

std::string_view SkipByteOrderMark(std::string_view text) {
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  if (text.starts_with(kBom)) text.remove_prefix(kBom.size());
  return text;
}

}  // namespace slotflow
