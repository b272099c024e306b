// JSON read from a user's file (JSON Lines job files, a saved summary.json, sweep shard
// manifests), with the checks a TOML file gets from its parser: nesting is bounded, a key given
// twice in one object is an error rather than one value silently kept, and every error names the
// line it is on.
#pragma once

#include <toml++/toml.h>

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace slotflow::json_input {

// The deepest nesting of objects and arrays accepted; toml++ stops at 256, and no slotflow
// input needs more than six.
inline constexpr int kMaxDepth = 128;

// Parses one JSON document. `first_line` is the line of the text's first character in `file`
// (a JSON Lines reader passes the line it reads). InputError(file, line, field) for a syntax
// error, a number no double holds, nesting deeper than kMaxDepth, or a key given twice in one
// object; `field` is the path of the value at fault ("job[0].stage[1].zz"), under `prefix`.
nlohmann::json Parse(std::string_view text, const std::string& file, int first_line = 1,
                     const std::string& prefix = "");

// A JSON object as a TOML table (arrays as arrays, numbers as TOML integers or floats as
// written), so that the TOML readers check it. InputError(file, line, field) for a null or an
// integer past int64; `field` is the value's path under `prefix`.
toml::table ToToml(const nlohmann::json& object, const std::string& file, int line,
                   const std::string& prefix);

}  // namespace slotflow::json_input
