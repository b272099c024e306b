// The one exception type for bad input: it says where (file, line) and what (field).
// Policy API (src/api/): stable, see docs/plugins.md#the-policy-api.
#pragma once

#include <stdexcept>
#include <string>

namespace slotflow {

class InputError : public std::runtime_error {
 public:
  // `file` may be empty (command-line flags); `line` is 0 when not applicable.
  InputError(std::string file, int line, std::string field, const std::string& message);
  explicit InputError(const std::string& message) : InputError("", 0, "", message) {}

  const std::string& file() const { return file_; }
  int line() const { return line_; }
  const std::string& field() const { return field_; }
  // The message without the file/line/field prefix.
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  int line_;
  std::string field_;
  std::string message_;
};

}  // namespace slotflow
