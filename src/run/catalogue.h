// What a set-up can name: the task schedulers, network policies, systems and workload
// generators, each with its description, and one of them in full (a policy's or generator's
// declared settings, a system's preset).
// `slotflow policies [NAME]` prints these.
#pragma once

#include <ostream>
#include <string>

namespace slotflow {

// Every name, by kind.
void ListPolicies(std::ostream& out);
// Every kind of thing called `name` (a scheduler and a generator may share a name) with its
// settings or preset. InputError naming NAME when nothing has that name.
void DescribePolicy(const std::string& name, std::ostream& out);

}  // namespace slotflow
