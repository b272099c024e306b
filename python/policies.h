// Policies written in Python (python/slotflow/__init__.py's TaskScheduler): the read-only view
// they are given and their registration by name.
#pragma once

#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace slotflow {

void BindPolicies(py::module_& m);

}  // namespace slotflow
