// EventLog: the decision log, one JSON object per line (JSON Lines) in the order things
// happened: {"t":2,"event":"place","task":5,...}. Each line starts with the simulated time and
// the event's name; the writer of the line adds named fields, then the line ends when the
// LogLine goes out of scope. Numbers are written in the shortest form that reads back
// exactly (non-finite ones as null), so the same run gives the identical file. The events and
// their fields are listed in docs/decision-log.md.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

#include "api/units.h"
#include "api/why.h"

namespace slotflow {

class EventLog;

class LogLine {
 public:
  LogLine(const LogLine&) = delete;
  LogLine& operator=(const LogLine&) = delete;
  ~LogLine();

  LogLine& Num(std::string_view name, double value);
  LogLine& Int(std::string_view name, int64_t value);
  LogLine& Text(std::string_view name, std::string_view value);  // escaped as JSON needs
  // The policy's reasons as an object: "why":{"mode":"insufficient","rank":0}; nothing if empty.
  LogLine& Reasons(const Why& why);

 private:
  friend class EventLog;
  explicit LogLine(std::string& buffer) : buffer_(buffer) {}
  void Name(std::string_view name);
  std::string& buffer_;
};

class EventLog {
 public:
  // Writes to `out`, which must outlive the log.
  explicit EventLog(std::ostream& out) : out_(out) {}
  ~EventLog() { Flush(); }

  LogLine Line(Seconds t, std::string_view event);
  void Flush();
  int64_t lines() const { return lines_; }

 private:
  std::ostream& out_;
  std::string buffer_;  // lines not yet handed to out_
  int64_t lines_ = 0;
};

}  // namespace slotflow
