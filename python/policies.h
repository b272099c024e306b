// Policies written in Python: what task schedulers (task_scheduler.cc) and network policies
// (network_policy.cc) share — the state they read, valid only during a call; the reasons they
// give; their settings, declared in Python and checked like a built-in policy's; and their
// registration by name, undone before the interpreter exits.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <vector>

#include "api/settings.h"
#include "api/why.h"

namespace py = pybind11;

namespace slotflow {

void BindTaskSchedulers(py::module_& m);
void BindNetworkPolicies(py::module_& m);
// Drops every policy registered from Python from the C++ registries (at exit).
void UnregisterPythonPolicies();

// A policy's registration: its declared settings, read from Python's Setting dicts and checked
// (a bad declaration or default raises now, not in a run).
std::vector<SettingSpec> DeclaredSettings(const std::vector<py::dict>& settings,
                                          const std::string& policy);
// The values in force of `specs` as Python values: choices as words, integers as int, the
// rest as float (bytes, seconds and rates in their base units).
py::dict SettingValues(const Settings& settings, const std::vector<SettingSpec>& specs);
// Records that `name` of registry `kind` ("scheduler", "network") came from Python; a built-in
// name is refused (ValueError) before anything is registered.
void ClaimPythonName(const std::string& kind, const std::string& name, bool registered);

// What a simulator object looks like to Python during one call: a pointer that the call's end
// clears, so a view kept past its call raises instead of reading freed memory.
template <class T>
class CallScoped {
 public:
  explicit CallScoped(const T& object) : object_(&object) {}
  void Close() { object_ = nullptr; }
  const T& get() const {
    if (object_ == nullptr) {
      throw std::runtime_error(
          "a slotflow view is valid only during the call it was given to; keep what you need "
          "from it, not the view");
    }
    return *object_;
  }

 private:
  const T* object_;
};

// Calls `call` with a Python handle on a fresh Scoped built from `args`, closed when the call
// returns.
template <class Scoped, class Call, class... Args>
py::object WithScoped(Call&& call, Args&&... args) {
  auto owned = std::make_unique<Scoped>(std::forward<Args>(args)...);
  Scoped* raw = owned.get();
  py::object handle = py::cast(std::move(owned));
  struct Closer {
    Scoped* scoped;
    ~Closer() { scoped->Close(); }
  } closer{raw};
  return call(handle);
}

// A policy's reasons from a Python dict into a Why, whose names and texts must outlive the run:
// kept here, one copy of each word.
class ReasonWords {
 public:
  // InputError naming `source` and the field for anything but a flat dict of names to numbers
  // or words.
  void Add(py::handle reasons, Why& why, const std::string& source);

 private:
  const char* Intern(const std::string& text) { return words_.insert(text).first->c_str(); }
  std::unordered_set<std::string> words_;
};

// An object a view hands out (a task, job, stage, server, flow, link): the view's Python object,
// kept alive, and the object's id. Every read goes through the view, so an object kept past its
// call raises as the view does, instead of reading memory the simulator has freed.
template <class Scoped, class Tag>
struct Ref {
  py::object owner;  // the Python object of *scoped
  const Scoped* scoped;
  int32_t id;
  int32_t sub = -1;  // a stage's index within job `id`
  const auto& get() const { return scoped->get(); }
};

// A new Ref to object `id` of the view `owner` wraps.
template <class R, class Scoped>
R MakeRef(py::handle owner, int32_t id, int32_t sub = -1) {
  return R{py::reinterpret_borrow<py::object>(owner), &owner.cast<const Scoped&>(), id, sub};
}

// A numpy array of n values, filled by `fill(i)`.
template <class T, class Fill>
py::array_t<T> NumpyOf(size_t n, Fill&& fill) {
  py::array_t<T> out(static_cast<py::ssize_t>(n));
  T* data = out.mutable_data();
  for (size_t i = 0; i < n; ++i) data[i] = static_cast<T>(fill(i));
  return out;
}

template <class Range>
py::list IntList(const Range& ids) {
  py::list out(std::size(ids));
  size_t i = 0;
  for (const auto& id : ids) out[i++] = static_cast<int64_t>(id);
  return out;
}

// The name of a Python value's type, for messages.
std::string TypeName(py::handle value);
// A Python int or numpy integer (not a bool, not an array).
bool IsInteger(py::handle value);

// An id from Python, checked against [0, size); IndexError naming `what` otherwise.
template <class Id>
Id Checked(int64_t value, int64_t size, const char* what) {
  if (value < 0 || value >= size) {
    throw py::index_error(std::string(what) + " " + std::to_string(value) + " out of range [0, " +
                          std::to_string(size) + ")");
  }
  return Id{static_cast<int32_t>(value)};
}

}  // namespace slotflow
