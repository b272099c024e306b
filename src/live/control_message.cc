#include "live/control_message.h"

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>

#include "live/testbed_plan.h"

namespace slotflow {

using nlohmann::json;

namespace {

template <class... F>
struct Overload : F... {
  using F::operator()...;
};
template <class... F>
Overload(F...) -> Overload<F...>;

json ToJson(const ControlMessage& m) {
  return std::visit(
      Overload{
          [](const Hello& h) {
            return json{{"type", "hello"}, {"host", h.host}, {"data_port", h.data_port}};
          },
          [](const FlowProgress& p) {
            return json{{"type", "flow_progress"}, {"flow", p.flow}, {"bytes", p.bytes}};
          },
          [](const FlowDone& d) {
            return json{{"type", "flow_done"}, {"flow", d.flow}, {"bytes", d.bytes}};
          },
          [](const TaskDone& d) {
            return json{{"type", "task_done"}, {"task", d.task}, {"attempt", d.attempt}};
          },
          [](const AgentFailure& f) {
            return json{{"type", "failure"}, {"text", f.text}};
          },
          [](const Launch& l) {
            json fetches = json::array();
            for (const Fetch& f : l.fetches) {
              fetches.push_back({{"flow", f.flow},
                                 {"address", f.address},
                                 {"port", f.port},
                                 {"bytes", f.bytes},
                                 {"class", f.cls}});
            }
            return json{{"type", "launch"},         {"task", l.task},
                        {"attempt", l.attempt},     {"local_bytes", l.local_bytes},
                        {"compute_s", l.compute_s}, {"fetches", std::move(fetches)}};
          },
          [](const SetClass& s) {
            return json{{"type", "set_class"}, {"flow", s.flow}, {"class", s.cls}};
          },
          [](const Stop&) {
            return json{{"type", "stop"}};
          },
          [](const FetchRequest& r) {
            return json{{"type", "fetch"}, {"flow", r.flow}, {"bytes", r.bytes}, {"class", r.cls}};
          },
          [](const FetchFailed& f) {
            return json{{"type", "fetch_failed"}, {"flow", f.flow}, {"text", f.text}};
          },
          [](const Heartbeat&) {
            return json{{"type", "heartbeat"}};
          },
          [](const Cancel& c) {
            return json{{"type", "cancel"}, {"task", c.task}};
          },
      },
      m);
}

// Field `key` of `j` as an integer in [lo, hi].
int64_t Int(const json& j, const char* key, int64_t lo, int64_t hi) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number_integer()) {
    throw ProtocolError(std::string("field '") + key + "' is missing or not an integer");
  }
  const int64_t v = it->get<int64_t>();
  if (v < lo || v > hi) throw ProtocolError(std::string("field '") + key + "' is out of range");
  return v;
}

constexpr int64_t kMaxId = std::numeric_limits<int32_t>::max();
constexpr int64_t kMaxBytes = int64_t{1} << 50;

// Field `key` of `j` as an id's integer (named so it does not hide the Id template).
int32_t IdField(const json& j, const char* key) {
  return static_cast<int32_t>(Int(j, key, 0, kMaxId));
}
// Its "flow" and "task" fields as ids.
FlowId FlowOf(const json& j) { return FlowId{IdField(j, "flow")}; }
TaskId TaskOf(const json& j) { return TaskId{IdField(j, "task")}; }

std::string Text(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_string()) {
    throw ProtocolError(std::string("field '") + key + "' is missing or not a string");
  }
  return it->get<std::string>();
}

Fetch FetchFromJson(const json& j) {
  if (!j.is_object()) throw ProtocolError("a fetch is not an object");
  return Fetch{FlowOf(j), Text(j, "address"), static_cast<uint16_t>(Int(j, "port", 1, 65535)),
               Int(j, "bytes", 0, kMaxBytes), static_cast<int>(Int(j, "class", 0, kMaxId))};
}

Launch LaunchFromJson(const json& j) {
  Launch l{TaskOf(j),
           Int(j, "local_bytes", 0, kMaxBytes),
           0,
           {},
           static_cast<int>(Int(j, "attempt", 0, kMaxId))};
  const auto c = j.find("compute_s");
  if (c == j.end() || !c->is_number() || !(c->get<double>() >= 0) || c->get<double>() > 1e9) {
    throw ProtocolError("field 'compute_s' is missing or not a number of seconds");
  }
  l.compute_s = c->get<double>();
  const auto f = j.find("fetches");
  if (f == j.end() || !f->is_array()) throw ProtocolError("field 'fetches' is not a list");
  for (const json& one : *f) l.fetches.push_back(FetchFromJson(one));
  return l;
}

ControlMessage FromJson(const json& j) {
  const std::string type = Text(j, "type");
  if (type == "hello") {
    return Hello{IdField(j, "host"), static_cast<uint16_t>(Int(j, "data_port", 1, 65535))};
  }
  if (type == "flow_progress") return FlowProgress{FlowOf(j), Int(j, "bytes", 0, kMaxBytes)};
  if (type == "flow_done") return FlowDone{FlowOf(j), Int(j, "bytes", 0, kMaxBytes)};
  if (type == "task_done") {
    return TaskDone{TaskOf(j), static_cast<int>(Int(j, "attempt", 0, kMaxId))};
  }
  if (type == "failure") return AgentFailure{Text(j, "text")};
  if (type == "launch") return LaunchFromJson(j);
  if (type == "set_class") {
    return SetClass{FlowOf(j), static_cast<int>(Int(j, "class", 0, kMaxId))};
  }
  if (type == "stop") return Stop{};
  if (type == "fetch") {
    return FetchRequest{FlowOf(j), Int(j, "bytes", 0, kMaxBytes),
                        static_cast<int>(Int(j, "class", 0, kMaxId))};
  }
  if (type == "fetch_failed") return FetchFailed{FlowOf(j), Text(j, "text")};
  if (type == "heartbeat") return Heartbeat{};
  if (type == "cancel") return Cancel{TaskOf(j)};
  throw ProtocolError("unknown message type '" + type + "'");
}

}  // namespace

std::string Encode(const ControlMessage& m) { return ToJson(m).dump() + "\n"; }

ControlMessage Decode(std::string_view line) {
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  const json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) throw ProtocolError("not a JSON line");
  if (!j.is_object()) throw ProtocolError("not a JSON object");
  return FromJson(j);
}

std::string_view MessageType(const ControlMessage& m) {
  static constexpr std::string_view kNames[] = {
      "hello",     "flow_progress", "flow_done", "task_done",    "failure",   "launch",
      "set_class", "stop",          "fetch",     "fetch_failed", "heartbeat", "cancel"};
  return kNames[m.index()];
}

int PriorityOfClass(int64_t cls) {
  return static_cast<int>(std::clamp<int64_t>(cls, 0, kPriorityClasses - 2) + 1);
}
int TosOfClass(int64_t cls) { return TosOfPriority(PriorityOfClass(cls)); }
int ControlTos() { return TosOfPriority(0); }

}  // namespace slotflow
