// slotflow's Python extension (_slotflow): the run layer (run/execute.h, run/compare.h,
// run/sweep.h) behind the functions of python/slotflow/__init__.py. A set-up arrives as a dict
// in a config file's shape (seed, system, cluster, workload, scheduler, network), is read by the
// same code as a config file, and runs with the GIL released; results come back as the text of
// the files the command line writes (jobs.csv, tasks.csv, utilisation.csv, summary.json), so
// pandas reads them exactly as it reads those files. Bad input raises slotflow.InputError with
// the source, field and message of the command line's exit-2 errors.
#include <fmt/format.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <toml++/toml.h>

#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "api/error.h"
#include "common/output_file.h"
#include "live/testbed_plan.h"
#include "metrics/report.h"
#include "policies.h"
#include "run/compare.h"
#include "run/compare_stats.h"
#include "run/config_file.h"
#include "run/execute.h"
#include "run/live.h"
#include "run/plugins.h"
#include "run/prepare.h"
#include "run/run_outputs.h"
#include "run/run_spec.h"
#include "run/sweep.h"
#include "run/sweep_plan.h"

namespace py = pybind11;

namespace slotflow {
namespace {

toml::table TableOf(py::handle dict, const std::string& source, const std::string& field);
toml::array ArrayOf(py::handle list, const std::string& source, const std::string& field);

// A Python value as the TOML value a config file would hold, given to `sink`; InputError naming
// `field` (the dotted key) for a value no config file can hold.
template <typename Sink>
void Put(Sink&& sink, py::handle value, const std::string& source, const std::string& field) {
  if (py::isinstance<py::bool_>(value)) {
    sink(value.cast<bool>());
  } else if (py::isinstance<py::int_>(value)) {
    int64_t v = 0;
    try {
      v = value.cast<int64_t>();
    } catch (const py::cast_error&) {
      throw InputError(source, 0, field, "integer out of range");
    }
    sink(v);
  } else if (py::isinstance<py::float_>(value)) {
    sink(value.cast<double>());
  } else if (py::isinstance<py::str>(value)) {
    sink(value.cast<std::string>());
  } else if (py::isinstance<py::dict>(value)) {
    sink(TableOf(value, source, field));
  } else if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    sink(ArrayOf(value, source, field));
  } else {
    throw InputError(source, 0, field,
                     "expected a bool, number, string, dict or list, not " +
                         py::str(value.get_type().attr("__name__")).cast<std::string>());
  }
}

toml::table TableOf(py::handle dict, const std::string& source, const std::string& field) {
  toml::table table;
  for (auto [k, v] : py::reinterpret_borrow<py::dict>(dict)) {
    if (!py::isinstance<py::str>(k)) {
      throw InputError(source, 0, field,
                       "keys must be strings, not " +
                           py::str(k.get_type().attr("__name__")).cast<std::string>());
    }
    const std::string key = k.cast<std::string>();
    Put([&](auto&& x) { table.insert_or_assign(key, std::forward<decltype(x)>(x)); }, v, source,
        field.empty() ? key : field + "." + key);
  }
  return table;
}

toml::array ArrayOf(py::handle list, const std::string& source, const std::string& field) {
  toml::array array;
  for (py::handle item : list) {
    Put([&](auto&& x) { array.push_back(std::forward<decltype(x)>(x)); }, item, source, field);
  }
  return array;
}

toml::table TableOf(const py::dict& dict, const std::string& source) {
  return TableOf(dict, source, "");
}

// The set-up a dict describes, over the config file `config` if one is named.
RunSpec SpecOf(const py::dict& setup, const std::string& config, const std::string& source,
               const std::string& command_line) {
  RunSpec spec;
  spec.command_line = command_line;
  if (!config.empty()) ApplyConfigFile(config, spec);
  ApplyConfigTable(TableOf(setup, source), source, spec);
  return spec;
}

// What one run returns to Python: its files' text.
py::dict FilesOf(const RunResult& result, const std::string& log) {
  std::ostringstream jobs, tasks, utilisation, summary;
  WriteJobsCsv(result.jobs, jobs);
  WriteTasksCsv(result.tasks, tasks);
  WriteUtilisationCsv(result.utilisation, utilisation);
  WriteSummaryJson(result.summary, summary);
  py::dict out;
  out["jobs"] = jobs.str();
  out["tasks"] = tasks.str();
  out["utilisation"] = utilisation.str();
  out["summary"] = summary.str();
  out["log"] = log;
  out["unfinished_jobs"] = result.summary.unfinished_jobs;
  return out;
}

// Prepares `spec` and runs it with `execute` (spec, prepared run → RunResult), Python's lock
// released; keeps the decision log when `log` and writes the run's files into `out` if given.
template <class Execute>
py::dict RunCollected(RunSpec& spec, bool log, const std::string& out, Execute execute) {
  std::ostringstream log_text;
  RunResult result;
  {
    py::gil_scoped_release release;
    const PreparedRun run = Prepare(spec);
    result = RunWithSinks(spec, run, {out, "out", "", "log", log ? &log_text : nullptr}, execute);
  }
  return FilesOf(result, log_text.str());
}

py::dict Run(const py::dict& setup, const std::string& config, const std::string& source,
             const std::string& command_line, bool log, bool utilisation, const std::string& out) {
  RunSpec spec = SpecOf(setup, config, source, command_line);
  spec.simulation.collect_tasks = true;
  spec.simulation.collect_utilisation = utilisation;
  return RunCollected(spec, log, out,
                      [](const RunSpec& s, const PreparedRun& run) { return Execute(s, run); });
}

// The same on live mode's testbed (run/live.h); `live` holds its settings by keyword.
py::dict Live(const py::dict& setup, const std::string& config, const std::string& source,
              const std::string& command_line, bool log, const std::string& out,
              const py::dict& live) {
  LiveSettings settings;
  for (auto [k, v] : live) {
    const std::string key = k.cast<std::string>();
    if (v.is_none()) continue;
    std::string text;
    if (py::isinstance<py::bool_>(v)) {
      text = v.cast<bool>() ? "true" : "false";
    } else if (py::isinstance<py::int_>(v) || py::isinstance<py::float_>(v) ||
               py::isinstance<py::str>(v)) {
      text = py::str(v).cast<std::string>();
    } else {
      throw InputError(
          source, 0, key,
          "wrong type: " + py::str(py::type::of(v).attr("__name__")).cast<std::string>());
    }
    SetLiveSetting(settings, {key, text, source, 0, key});
  }
  RunSpec spec = SpecOf(setup, config, source, command_line);
  spec.simulation.collect_tasks = true;
  ApplyLiveCluster(settings, spec);
  return RunCollected(spec, log, out, [&settings](const RunSpec& s, const PreparedRun& run) {
    return RunLive(s, run, settings);
  });
}

// entries: (label, dict) pairs, each applied over the base set-up; a dict's "system" replaces
// the base's policies, as an entry of `compare --system` does.
py::dict Compare(const py::dict& base, const std::string& config, const std::string& source,
                 const std::string& command_line,
                 const std::vector<std::pair<std::string, py::dict>>& entries,
                 const std::vector<uint64_t>& seeds, int threads, const std::string& out) {
  const RunSpec spec = SpecOf(base, config, source, command_line);
  std::vector<CompareEntry> list;
  for (const auto& [label, dict] : entries) {
    CompareEntry e{label, spec};
    const std::string where = source + " entry '" + label + "'";
    py::dict rest;
    for (auto [k, v] : dict) {
      if (k.cast<std::string>() == "system") {
        try {
          ApplySystem(e.spec, v.cast<std::string>(), "system", /*replace_policies=*/true);
        } catch (const InputError& err) {
          throw InputError(where, 0, err.field(), err.message());
        }
      } else {
        rest[k] = v;
      }
    }
    ApplyConfigTable(TableOf(rest, where), where, e.spec);
    list.push_back(std::move(e));
  }
  FitSettings(list);
  std::ostringstream csv, summary;
  {
    py::gil_scoped_release release;
    Comparison c = PrepareComparison(spec, std::move(list), seeds);
    if (!out.empty()) MakeOutputDirectory(out, "out");
    RunComparison(c, threads, /*quiet=*/true);
    WriteComparisonCsv(c.entries, c.seeds, c.results, csv);
    WriteComparisonSummaryCsv(c.entries, c.results, summary);
    if (!out.empty()) WriteComparison(out, "out", c.entries, c.seeds, c.results);
  }
  py::dict result;
  result["runs"] = csv.str();
  result["summary"] = summary.str();
  return result;
}

// A dict as TOML text: a sweep file (a config file with a [sweep] table), or a job file.
std::string TomlText(const py::dict& dict, const std::string& source) {
  std::ostringstream out;
  out << TableOf(dict, source);
  return out.str();
}

int Sweep(const std::string& file, const std::string& out, const std::string& trace, int threads,
          int shard, int shards) {
  SweepOptions options;
  options.file = file;
  options.out = out;
  options.trace = trace;
  options.threads = threads;
  options.shard = shard;
  options.shards = shards;
  options.progress = false;
  py::gil_scoped_release release;
  return RunSweep(options);
}

// The sweep's run count, its file read and checked as a sweep reads it.
size_t SweepRuns(const std::string& file, const std::string& trace) {
  return ReadSweepPlan(file, trace).Runs();
}

void Merge(const std::vector<std::string>& inputs, const std::string& out,
           const std::string& sweep) {
  MergeOptions options;
  options.inputs = inputs;
  options.out = out;
  options.sweep = sweep;
  py::gil_scoped_release release;
  MergeSweepResults(options);
}

}  // namespace
}  // namespace slotflow

PYBIND11_MODULE(_slotflow, m) {
  using namespace slotflow;
  m.doc() = "slotflow's run layer (see the slotflow package)";
  // slotflow.InputError (a ValueError) with the error's file, line, field and message.
  static py::exception<InputError> input_error(m, "InputError", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      py::object err = py::reinterpret_borrow<py::object>(input_error)(e.what());
      err.attr("file") = e.file();
      err.attr("line") = e.line();
      err.attr("field") = e.field();
      err.attr("message") = e.message();
      PyErr_SetObject(input_error.ptr(), err.ptr());
    }
  });
  BindTaskSchedulers(m);
  BindNetworkPolicies(m);
  m.def("_unregister_all", &UnregisterPythonPolicies);
  // As `slotflow --version` prints it: live() checks that its agents are this build.
  m.def("version", [] { return "slotflow " + SlotflowBuildId(); });
  m.def(
      "load_plugin", [](const std::string& path) { LoadPlugin(path, "plugin"); }, py::arg("path"));
  m.def("run", &Run, py::arg("setup"), py::arg("config"), py::arg("source"),
        py::arg("command_line"), py::arg("log"), py::arg("utilisation"), py::arg("out"));
  m.def("live", &Live, py::arg("setup"), py::arg("config"), py::arg("source"),
        py::arg("command_line"), py::arg("log"), py::arg("out"), py::arg("live"));
  m.def("compare", &Compare, py::arg("base"), py::arg("config"), py::arg("source"),
        py::arg("command_line"), py::arg("entries"), py::arg("seeds"), py::arg("threads"),
        py::arg("out"));
  m.def("toml_text", &TomlText, py::arg("dict"), py::arg("source"));
  // The settings of live runs as declared (run/live.h): live()'s keywords are these.
  m.def("live_settings", [] {
    std::vector<std::string> names;
    for (const LiveSetting& s : LiveSettingTable()) names.push_back(s.setting.name);
    return names;
  });
  m.def("sweep_runs", &SweepRuns, py::arg("file"), py::arg("trace"));
  m.def("merge", &Merge, py::arg("inputs"), py::arg("out"), py::arg("sweep"));
  m.def("sweep", &Sweep, py::arg("file"), py::arg("out"), py::arg("trace"), py::arg("threads"),
        py::arg("shard"), py::arg("shards"));
}
