#include "common/event_log.h"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

namespace slotflow {
namespace {

constexpr size_t kFlushBytes = 1 << 16;

void AppendNumber(std::string& out, double v) {
  if (!std::isfinite(v)) {
    out += "null";
  } else {
    fmt::format_to(std::back_inserter(out), "{}", v);  // shortest round-trip form
  }
}

void AppendString(std::string& out, std::string_view s) {
  // nlohmann's dump gives the escaping JSON requires (quotes, control characters, UTF-8 kept).
  out += nlohmann::json(std::string(s)).dump(-1, ' ', false,
                                             nlohmann::json::error_handler_t::replace);
}

}  // namespace

LogLine::~LogLine() {
  buffer_ += "}\n";
}

void LogLine::Name(std::string_view name) {
  buffer_ += ",\"";
  buffer_ += name;  // names are identifiers written in the code: nothing to escape
  buffer_ += "\":";
}

LogLine& LogLine::Num(std::string_view name, double value) {
  Name(name);
  AppendNumber(buffer_, value);
  return *this;
}

LogLine& LogLine::Int(std::string_view name, int64_t value) {
  Name(name);
  fmt::format_to(std::back_inserter(buffer_), "{}", value);
  return *this;
}

LogLine& LogLine::Text(std::string_view name, std::string_view value) {
  Name(name);
  AppendString(buffer_, value);
  return *this;
}

LogLine& LogLine::Reasons(const Why& why) {
  if (why.empty()) return *this;
  Name("why");
  buffer_ += '{';
  bool first = true;
  for (const Why::Value& v : why) {
    if (!first) buffer_ += ',';
    first = false;
    AppendString(buffer_, v.name);
    buffer_ += ':';
    if (v.text != nullptr) {
      AppendString(buffer_, v.text);
    } else {
      AppendNumber(buffer_, v.number);
    }
  }
  buffer_ += '}';
  return *this;
}

LogLine EventLog::Line(Seconds t, std::string_view event) {
  if (buffer_.size() >= kFlushBytes) Flush();
  ++lines_;
  buffer_ += "{\"t\":";
  AppendNumber(buffer_, t);
  buffer_ += ",\"event\":\"";
  buffer_ += event;
  buffer_ += '"';
  return LogLine(buffer_);
}

void EventLog::Flush() {
  out_ << buffer_;
  buffer_.clear();
}

}  // namespace slotflow
