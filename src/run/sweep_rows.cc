#include "run/sweep_rows.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <system_error>

#include "api/error.h"
#include "common/input_file.h"
#include "common/json_input.h"
#include "common/output_file.h"
#include "run/sweep_plan.h"

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
  WriteOutputFile(path, "out", [&](std::ostream& out) { out << j.dump(2) << "\n"; });
}

namespace {

// The manifest's integer `key`, in [lo, hi] (lo >= 0). The parser reads every whole number
// from 0 up as unsigned: anything else (a negative, a fraction, a string) is refused.
int64_t ManifestCount(const nlohmann::json& j, const std::string& file, const char* key, int64_t lo,
                      int64_t hi) {
  const auto it = j.find(key);
  if (it == j.end()) throw InputError(file, 0, key, "missing: not a shard manifest");
  if (!it->is_number_unsigned() || it->get<uint64_t>() < static_cast<uint64_t>(lo) ||
      it->get<uint64_t>() > static_cast<uint64_t>(hi)) {
    throw InputError(file, 0, key,
                     fmt::format("expected a whole number in {}..{}, got {}", lo, hi, it->dump()));
  }
  return it->get<int64_t>();
}

}  // namespace

std::optional<ShardManifest> ReadShardManifest(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::nullopt;
  const std::string file = path.string();
  const nlohmann::json j = json_input::Parse(ReadInputFile(file, "manifest"), file);
  if (!j.is_object()) throw InputError(file, 1, "manifest", "not a shard manifest (a JSON object)");
  ShardManifest m;
  try {
    j.at("sweep_file").get_to(m.sweep_file);
    j.at("sweep_sha256").get_to(m.sweep_sha256);
    j.at("variants").get_to(m.variants);
    j.at("seeds").get_to(m.seeds);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(file, 0, "manifest", std::string("not a shard manifest: ") + e.what());
  }
  // The bounds a sweep file has (sweep_plan.cc): a manifest past them was not written by one.
  m.shards = static_cast<int>(ManifestCount(j, file, "shards", 1, kMaxSweepRuns));
  m.shard = static_cast<int>(ManifestCount(j, file, "shard", 1, m.shards));
  m.points = static_cast<size_t>(ManifestCount(j, file, "points", 1, kMaxSweepPoints));
  m.runs = static_cast<size_t>(ManifestCount(j, file, "runs", 1, kMaxSweepRuns));
  m.shard_runs = static_cast<size_t>(ManifestCount(j, file, "shard_runs", 0, kMaxSweepRuns));
  if (m.seeds.empty() || m.seeds.size() > kMaxSweepSeeds) {
    throw InputError(file, 0, "seeds", fmt::format("expected 1..{} seeds", kMaxSweepSeeds));
  }
  if (m.variants.empty()) throw InputError(file, 0, "variants", "expected at least one variant");
  // (The product stays far below 2^64: 10^6 points x 10^3 seeds x the variants a 1 GiB file
  // lists.)
  if (m.shard_runs > m.runs || m.runs != m.points * m.variants.size() * m.seeds.size()) {
    throw InputError(
        file, 0, "runs",
        fmt::format("{} runs, {} of them in this shard, are not {} points x {} "
                    "variants x {} seeds",
                    m.runs, m.shard_runs, m.points, m.variants.size(), m.seeds.size()));
  }
  return m;
}

}  // namespace slotflow
