// Lines of delimited text, as the SWIM and Alibaba trace readers read them.
#pragma once

#include <string_view>
#include <vector>

namespace slotflow {

// The fields of one line split at `sep` (a trailing '\r' dropped).
inline std::vector<std::string_view> SplitFields(std::string_view line, char sep) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    const size_t at = line.find(sep, start);
    out.push_back(line.substr(start, at == std::string_view::npos ? at : at - start));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

// The first line of `text` with more than blanks on it; empty when there is none.
inline std::string_view FirstNonBlankLine(std::string_view text) {
  while (!text.empty()) {
    const size_t eol = text.find('\n');
    const std::string_view line = text.substr(0, eol);
    if (line.find_first_not_of(" \t\r") != std::string_view::npos) return line;
    if (eol == std::string_view::npos) break;
    text.remove_prefix(eol + 1);
  }
  return {};
}

}  // namespace slotflow
