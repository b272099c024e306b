#include "cli/flags.h"

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

}  // namespace slotflow
