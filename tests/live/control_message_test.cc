// The control protocol's lines: every message survives Encode → Decode, and a bad line is a
// ProtocolError naming what is wrong, never a crash.
#include "live/control_message.h"

#include <gtest/gtest.h>

#include <string>

#include "live/testbed_plan.h"

namespace slotflow {
namespace {

TEST(ControlMessage, EveryMessageSurvivesALine) {
  const Launch launch{TaskId{7}, 1000, 0.25, {Fetch{FlowId{3}, "198.18.0.2", 4000, 5000, 2}}};
  const std::string line = Encode(launch);
  ASSERT_EQ(line.back(), '\n');
  EXPECT_EQ(line.find('\n'), line.size() - 1);  // one line
  const auto back = std::get<Launch>(Decode(line));
  EXPECT_EQ(back.task, 7);
  EXPECT_EQ(back.local_bytes, 1000);
  EXPECT_DOUBLE_EQ(back.compute_s, 0.25);
  ASSERT_EQ(back.fetches.size(), 1u);
  EXPECT_EQ(back.fetches[0].flow, 3);
  EXPECT_EQ(back.fetches[0].address, "198.18.0.2");
  EXPECT_EQ(back.fetches[0].port, 4000);
  EXPECT_EQ(back.fetches[0].bytes, 5000);
  EXPECT_EQ(back.fetches[0].cls, 2);

  EXPECT_EQ(std::get<Hello>(Decode(Encode(Hello{2, 5555}))).data_port, 5555);
  EXPECT_EQ(std::get<FlowProgress>(Decode(Encode(FlowProgress{FlowId{4}, 123}))).bytes, 123);
  EXPECT_EQ(std::get<FlowDone>(Decode(Encode(FlowDone{FlowId{4}, 9}))).flow, 4);
  EXPECT_EQ(std::get<TaskDone>(Decode(Encode(TaskDone{TaskId{11}}))).task, 11);
  EXPECT_EQ(std::get<TaskDone>(Decode(Encode(TaskDone{TaskId{11}, 3}))).attempt, 3);
  EXPECT_EQ(std::get<AgentFailure>(Decode(Encode(AgentFailure{"disk \"full\"\n"}))).text,
            "disk \"full\"\n");
  EXPECT_EQ(std::get<SetClass>(Decode(Encode(SetClass{FlowId{5}, 3}))).cls, 3);
  EXPECT_TRUE(std::holds_alternative<Stop>(Decode(Encode(Stop{}))));
  EXPECT_EQ(std::get<FetchRequest>(Decode(Encode(FetchRequest{FlowId{1}, 2, 3}))).bytes, 2);
  const auto failed = std::get<FetchFailed>(Decode(Encode(FetchFailed{FlowId{4}, "reset"})));
  EXPECT_EQ(failed.flow, 4);
  EXPECT_EQ(failed.text, "reset");
  EXPECT_TRUE(std::holds_alternative<Heartbeat>(Decode(Encode(Heartbeat{}))));
  EXPECT_EQ(std::get<Cancel>(Decode(Encode(Cancel{TaskId{9}}))).task, 9);
  EXPECT_EQ(MessageType(Cancel{}), "cancel");
  EXPECT_EQ(MessageType(Decode(R"({"type":"set_class","flow":1,"class":0})")), "set_class");
}

TEST(ControlMessage, BadLinesAreProtocolErrors) {
  for (const char* line : {
           "",
           "not json",
           "[1,2]",
           R"({"flow":1})",                                               // no type
           R"({"type":"teleport"})",                                      // unknown type
           R"({"type":"task_done","task":"7"})",                          // mistyped
           R"({"type":"task_done","task":-1})",                           // out of range
           R"({"type":"hello","host":0,"data_port":70000})",              // not a port
           R"({"type":"flow_done","flow":1,"bytes":1e30})",               // not an integer
           R"({"type":"launch","task":1,"local_bytes":0,"fetches":[]})",  // no compute_s
           R"({"type":"launch","task":1,"local_bytes":0,"compute_s":-1,"fetches":[]})",
           R"({"type":"launch","task":1,"local_bytes":0,"compute_s":1,"fetches":[{}]})",
       }) {
    EXPECT_THROW(Decode(line), ProtocolError) << line;
  }
}

TEST(ControlMessage, ClassesMapToPrioritiesBelowControl) {
  EXPECT_EQ(ControlTos(), TosOfPriority(0));  // CS7: control traffic alone goes first
  EXPECT_EQ(PriorityOfClass(0), 1);
  EXPECT_EQ(TosOfClass(0), TosOfPriority(1));
  EXPECT_EQ(PriorityOfClass(5), 6);
  EXPECT_EQ(PriorityOfClass(6), 7);
  EXPECT_EQ(PriorityOfClass(1000), 7);  // lower classes share the last priority
  EXPECT_EQ(TosOfClass(6), 0);          // the last priority is unmarked traffic's
}

}  // namespace
}  // namespace slotflow
