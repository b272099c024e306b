#include "run/sweep_rows.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <system_error>

#include "common/error.h"
#include "common/input_file.h"
#include "common/output_file.h"

namespace slotflow {
namespace {

std::vector<std::string_view> SplitCommas(std::string_view line) {
  std::vector<std::string_view> out;
  for (size_t start = 0;;) {
    const size_t comma = line.find(',', start);
    out.push_back(line.substr(start, comma - start));
    if (comma == std::string_view::npos) return out;
    start = comma + 1;
  }
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() > suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// A parameter's column in SI units follows the parameter's own column.
bool IsSiColumn(const std::vector<std::string>& names, size_t i) {
  if (i == 0) return false;
  for (std::string_view suffix : {"_s", "_bytes", "_bps"}) {
    if (EndsWith(names[i], suffix) && names[i - 1] + std::string(suffix) == names[i]) return true;
  }
  return false;
}

std::optional<uint64_t> Unsigned(std::string_view s) {
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

bool NumberOrEmpty(std::string_view s) {
  if (s.empty()) return true;
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size() && std::isfinite(v);
}

bool IsHexDigest(std::string_view s) {
  return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

}  // namespace

SweepHeader ParseSweepHeader(std::string_view line, const std::string& file) {
  SweepHeader h;
  for (std::string_view name : SplitCommas(line)) h.names.emplace_back(name);
  const auto at = std::find(h.names.begin(), h.names.end(), "variant_index");
  if (h.names.front() != "point" || at == h.names.end() || h.names.end() - at < 3 ||
      at[1] != "variant" || at[2] != "seed") {
    throw InputError(file, 1, "header",
                     "not a sweep's results (expected point, the parameters, variant_index, "
                     "variant, seed, then the results)");
  }
  h.variant_index = static_cast<size_t>(at - h.names.begin());
  h.seed = h.variant_index + 2;
  h.numeric.assign(h.names.size(), false);
  for (size_t i = 1; i < h.variant_index; ++i) h.numeric[i] = IsSiColumn(h.names, i);
  for (size_t i = h.seed + 1; i < h.names.size(); ++i) {
    if (h.names[i] == "setup_sha256") {
      h.setup_sha256 = i;
    } else {
      h.numeric[i] = true;
    }
  }
  return h;
}

std::optional<RowProblem> CheckSweepRow(const SweepHeader& header, std::string_view row,
                                        SweepKey& key) {
  const std::vector<std::string_view> cols = SplitCommas(row);
  if (cols.size() != header.names.size()) {
    return RowProblem{
        "row", fmt::format("{} columns where the header has {}", cols.size(), header.names.size())};
  }
  const size_t key_columns[] = {0, header.variant_index, header.seed};
  uint64_t values[3] = {0, 0, 0};
  for (int k = 0; k < 3; ++k) {
    const auto v = Unsigned(cols[key_columns[k]]);
    if (!v) {
      return RowProblem{
          header.names[key_columns[k]],
          fmt::format("expected a non-negative integer, got '{}'", cols[key_columns[k]])};
    }
    values[k] = *v;
  }
  for (size_t i = 0; i < cols.size(); ++i) {
    if (header.numeric[i] && !NumberOrEmpty(cols[i])) {
      return RowProblem{header.names[i],
                        fmt::format("expected a number or nothing, got '{}'", cols[i])};
    }
  }
  if (header.setup_sha256 && !IsHexDigest(cols[*header.setup_sha256])) {
    return RowProblem{"setup_sha256", "expected 64 hex digits"};
  }
  key = SweepKey{values[0], values[1], values[2]};
  return std::nullopt;
}

std::string_view SweepColumnOf(std::string_view row, size_t i) {
  const std::vector<std::string_view> cols = SplitCommas(row);
  return i < cols.size() ? cols[i] : std::string_view();
}

void WriteShardManifest(const std::filesystem::path& path, const ShardManifest& m) {
  const nlohmann::json j = {{"sweep_file", m.sweep_file},
                            {"sweep_sha256", m.sweep_sha256},
                            {"shard", m.shard},
                            {"shards", m.shards},
                            {"runs", m.runs},
                            {"shard_runs", m.shard_runs},
                            {"points", m.points},
                            {"variants", m.variants},
                            {"seeds", m.seeds}};
  WriteOutputFile(path, "--out", [&](std::ostream& out) { out << j.dump(2) << "\n"; });
}

std::optional<ShardManifest> ReadShardManifest(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::nullopt;
  try {
    const nlohmann::json j = nlohmann::json::parse(ReadInputFile(path.string(), "manifest"));
    ShardManifest m;
    j.at("sweep_file").get_to(m.sweep_file);
    j.at("sweep_sha256").get_to(m.sweep_sha256);
    j.at("shard").get_to(m.shard);
    j.at("shards").get_to(m.shards);
    j.at("runs").get_to(m.runs);
    j.at("shard_runs").get_to(m.shard_runs);
    j.at("points").get_to(m.points);
    j.at("variants").get_to(m.variants);
    j.at("seeds").get_to(m.seeds);
    if (m.shards < 1 || m.shard < 1 || m.shard > m.shards || m.seeds.empty() ||
        m.variants.empty() || m.runs != m.points * m.variants.size() * m.seeds.size()) {
      throw InputError(path.string(), 0, "manifest", "its shard or run counts do not add up");
    }
    return m;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path.string(), 0, "manifest",
                     std::string("not a shard manifest: ") + e.what());
  }
}

}  // namespace slotflow
