// `slotflow policies [NAME]`: what a set-up can name, or one of them in full (run/catalogue.h).
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "run/catalogue.h"

namespace slotflow {

Subcommand AddPoliciesCommand(CLI::App& app) {
  auto name = std::make_shared<std::string>();
  CLI::App* policies = app.add_subcommand(
      "policies",
      "list the task schedulers, network policies, systems and workload generators, or describe "
      "one");
  policies->add_option("NAME", *name,
                       "a scheduler, network policy, system or workload generator to describe");
  return {policies, [name] {
            if (name->empty()) {
              ListPolicies(std::cout);
            } else {
              DescribePolicy(*name, std::cout);
            }
            return 0;
          }};
}

}  // namespace slotflow
