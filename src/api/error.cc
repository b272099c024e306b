#include "api/error.h"

#include <fmt/format.h>

namespace slotflow {
namespace {
std::string Compose(const std::string& file, int line, const std::string& field,
                    const std::string& message) {
  std::string where;
  if (!file.empty()) where = line > 0 ? fmt::format("{}:{}: ", file, line) : file + ": ";
  if (!field.empty()) where += fmt::format("field '{}': ", field);
  return where + message;
}
}  // namespace

InputError::InputError(std::string file, int line, std::string field, const std::string& message)
    : std::runtime_error(Compose(file, line, field, message)),
      file_(std::move(file)),
      line_(line),
      field_(std::move(field)),
      message_(message) {}

}  // namespace slotflow
