#include "cli/flags.h"

#include <algorithm>
#include <string>

namespace slotflow {

const CLI::Validator& NonEmptyFile() {
  static const CLI::Validator check(
      [](std::string& s) { return s.empty() ? std::string("the file name is empty") : ""; },
      "FILE");
  return check;
}

void RefuseEmptyValues(CLI::App& app) {
  static const CLI::Validator non_empty(
      [](std::string& s) { return s.empty() ? std::string("the value is empty") : ""; }, "");
  for (CLI::App* cmd : app.get_subcommands([](CLI::App*) { return true; })) {
    for (CLI::Option* o : cmd->get_options([](CLI::Option* o) { return o->get_type_size() > 0; })) {
      o->check(non_empty);
    }
  }
}

std::string FlagName(std::string_view key) {
  std::string flag = "--" + std::string(key);
  std::replace(flag.begin(), flag.end(), '_', '-');
  return flag;
}

}  // namespace slotflow
