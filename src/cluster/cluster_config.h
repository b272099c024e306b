// Reading the [cluster] table of a TOML config or job file into a ClusterSpec, and
// the small TOML helpers (typed values with units, unknown-key checks, errors that carry the
// file, line and dotted field) that the job-file reader shares.
//
// The [cluster] keys are declared once, in cluster/cluster_keys.h (each with its kind, default,
// range and meaning; `slotflow run --help` lists them as flags). All are optional; a missing key
// leaves the spec's value unchanged. Besides them:
//   [[cluster.class]] heterogeneous clusters: each entry has `count` (int >= 1, required) and
//                     optional name and the server keys (slots, cpu_speed, nic, disk, memory).
//                     The list replaces the spec's classes; server ids are assigned class by
//                     class in list order. A server key given at the top level of [cluster] is
//                     then the default for every class that omits it, and `servers` is an
//                     error (each class gives its own count).
// Without [[cluster.class]], per-server keys apply to every existing class; `servers` is
// accepted only when the spec has a single class.
#pragma once

#include <toml++/toml.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "api/cluster.h"
#include "api/units.h"

namespace slotflow {

// Applies the keys of `cluster_table` (the [cluster] table of `file`) to `spec`. Throws
// InputError with file, line and field ("cluster.nic", "cluster.class[1].count", ...) on
// unknown keys, wrong types and out-of-range values. Does not call spec.Validate().
void ApplyClusterToml(const toml::table& cluster_table, const std::string& file, ClusterSpec& spec);

// "big-switch" or "two-tier"; anything else throws InputError naming `field`.
TopologyKind ParseTopology(std::string_view text, std::string_view field);
std::string_view TopologyName(TopologyKind t);
// "network" or "compute-only"; anything else throws InputError naming `field`.
MapReads ParseMapReads(std::string_view text, std::string_view field);
std::string_view MapReadsName(MapReads m);

// Typed access to TOML values for slotflow's input readers. Every function throws InputError
// carrying `file`, the node's line and `field` when the value has the wrong type or range.
namespace toml_input {

int Line(const toml::node& node);
int Line(const toml::key& key);

// Throws InputError(file, line, field, message).
[[noreturn]] void Fail(const std::string& file, int line, std::string_view field,
                       std::string_view message);

// Throws for the first key of `table` not in `allowed` (typos must not pass silently);
// the field named is `prefix` + "." + key (or just the key when `prefix` is empty).
void CheckKeys(const toml::table& table, const std::string& file, std::string_view prefix,
               std::initializer_list<std::string_view> allowed);

// Joins a prefix and a key into a dotted field name.
std::string Field(std::string_view prefix, std::string_view key);

// A size: a non-negative number of bytes or a string with a unit ("64MiB").
Bytes GetBytes(const toml::node& node, const std::string& file, std::string_view field);
// A duration: a non-negative number of seconds or a string with a unit ("100ms").
Seconds GetSeconds(const toml::node& node, const std::string& file, std::string_view field);
// A rate: a non-negative number of bytes/second or a string with a unit ("1Gbps").
BytesPerSecond GetRate(const toml::node& node, const std::string& file, std::string_view field);
// A finite number (TOML integer or float).
double GetNumber(const toml::node& node, const std::string& file, std::string_view field);
// A TOML integer in [lo, hi].
int64_t GetInt(const toml::node& node, const std::string& file, std::string_view field, int64_t lo,
               int64_t hi);
std::string GetString(const toml::node& node, const std::string& file, std::string_view field);
const toml::array& GetArray(const toml::node& node, const std::string& file,
                            std::string_view field);
// An array of tables written with `[[header]]`; a single `[header]` table gets a hint.
const toml::array& GetTableArray(const toml::node& node, const std::string& file,
                                 std::string_view field, std::string_view header);
const toml::table& GetTable(const toml::node& node, const std::string& file,
                            std::string_view field);

}  // namespace toml_input
}  // namespace slotflow
