// Config files: a TOML file's top-level seed and system and its [cluster], [workload],
// [scheduler] and [network] tables read into a RunSpec, with every value checked where it
// stands (file, line and key in the message). A set-up written by a run (setup.toml, or the
// "setup" of a summary.json) is such a file.
#pragma once

#include <toml++/toml.h>

#include <string>
#include <string_view>
#include <vector>

#include "run/run_spec.h"

namespace slotflow {

// Reads a TOML config file into `spec` (top-level seed / system, tables [cluster], [workload],
// [scheduler], [network]), or the "setup" of a summary.json (a file starting with '{');
// InputError names the file, line and key on any problem, including unknown keys.
void ApplyConfigFile(const std::string& path, RunSpec& spec);
// The same from the file's text (TOML, or a summary.json: its first non-blank character '{');
// a UTF-8 byte-order mark is skipped. `path` names it in errors.
void ApplyConfigSource(std::string_view text, const std::string& path, RunSpec& spec);
// The same from the text of a config file; `name` is used in messages. Top-level tables named
// in `skip` are left to the caller (a sweep file's [sweep]).
void ApplyConfigText(std::string_view text, const std::string& name, RunSpec& spec,
                     const std::vector<std::string_view>& skip = {});
// The same from a parsed table (a config file's, a summary.json's "setup", or one built in
// code: its nodes' lines are used in messages, 0 for nodes built in code).
void ApplyConfigTable(const toml::table& root, const std::string& name, RunSpec& spec,
                      const std::vector<std::string_view>& skip = {});
// A TOML file's text parsed; InputError at `name`:line on a syntax error.
toml::table ParseToml(std::string_view text, const std::string& name);

// A TOML scalar as the text a user would write after --set: settings parse text, so config
// files, sweep files and flags follow one rule. InputError at the node's line otherwise.
std::string SettingText(const toml::node& n, const std::string& file, const std::string& field);

}  // namespace slotflow
