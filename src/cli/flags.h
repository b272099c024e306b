// What the flags of every command share: a file name or a value given on the command line
// must not be empty.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <string_view>

namespace slotflow {

// A file name given on the command line must not be empty (an empty --trace would otherwise
// silently run the embedded workload).
const CLI::Validator& NonEmptyFile();

// The flag of a declared key: "--" and the key with dashes for underscores ("--slot-rate").
std::string FlagName(std::string_view key);

// An empty value would leave the default in force (`--generator ''` silently ran the synthetic
// workload): every option of every command of `app` that takes a value refuses it.
void RefuseEmptyValues(CLI::App& app);

}  // namespace slotflow
