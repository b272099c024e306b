// Reading a sweep's results back (results.csv, journal.csv, merge inputs): the header, each
// row checked against it, and the shard manifest that says which runs a directory should hold.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace slotflow {

// The identity of a row: (point, variant_index, seed). Rows are written in this order.
struct SweepKey {
  size_t point = 0, variant = 0;
  uint64_t seed = 0;
  auto operator<=>(const SweepKey&) const = default;
};

// The columns of a results file.
struct SweepHeader {
  std::vector<std::string> names;
  size_t variant_index = 0, seed = 0;
  std::optional<size_t> setup_sha256;
  std::vector<bool> numeric;  // a number or empty (results and SI columns)
};

// The header line of `file`; InputError(file, 1, "header", ...) when it is not a sweep's.
SweepHeader ParseSweepHeader(std::string_view line, const std::string& file);

// What is wrong with a row: the column and the message.
struct RowProblem {
  std::string field, message;
};
// Checks `row` against the header (column count, key columns non-negative integers, numeric
// columns numbers or empty, set-up digests 64 hex digits); fills `key` when it is sound.
std::optional<RowProblem> CheckSweepRow(const SweepHeader& header, std::string_view row,
                                        SweepKey& key);
// Column `i` of a row (empty when it has fewer).
std::string_view SweepColumnOf(std::string_view row, size_t i);

// OUT/shard.json: the sweep file's digest, the shard, and the grid whose runs the shards share.
struct ShardManifest {
  std::string sweep_file, sweep_sha256;
  int shard = 1, shards = 1;
  size_t runs = 0, shard_runs = 0, points = 0;
  std::vector<std::string> variants;
  std::vector<uint64_t> seeds;
};
void WriteShardManifest(const std::filesystem::path& path, const ShardManifest& m);
// The manifest at `path`, or none when there is no file; InputError when it is unreadable.
std::optional<ShardManifest> ReadShardManifest(const std::filesystem::path& path);

}  // namespace slotflow
