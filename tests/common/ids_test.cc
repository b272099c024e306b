#include "api/ids.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <type_traits>
#include <unordered_set>

#include "api/flow.h"
#include "api/flow_view.h"
#include "rates/fluid_solver.h"
#include "sim/lifecycle.h"

namespace slotflow {
namespace {

// Ids of different kinds do not convert into each other, and an integer becomes an id only
// explicitly; an id reads as its integer.
static_assert(!std::is_convertible_v<ServerId, TaskId>);
static_assert(!std::is_convertible_v<TaskId, ServerId>);
static_assert(!std::is_convertible_v<int32_t, ServerId>);
static_assert(!std::is_convertible_v<int32_t, TaskId>);
static_assert(!std::is_convertible_v<int32_t, JobIndex>);
static_assert(!std::is_convertible_v<JobIndex, TaskId>);
static_assert(!std::is_convertible_v<int32_t, FlowId>);
static_assert(!std::is_convertible_v<FlowId, TaskId>);
static_assert(!std::is_convertible_v<TaskId, FlowId>);
static_assert(!std::is_convertible_v<FlowId, ServerId>);
static_assert(!std::is_convertible_v<int32_t, LinkId>);
static_assert(!std::is_convertible_v<FlowId, LinkId>);
static_assert(!std::is_convertible_v<LinkId, FlowId>);
static_assert(!std::is_convertible_v<ServerId, LinkId>);
static_assert(!std::is_convertible_v<int32_t, CoflowId>);
static_assert(!std::is_convertible_v<FlowId, CoflowId>);
static_assert(!std::is_convertible_v<CoflowId, FlowId>);
static_assert(!std::is_convertible_v<CoflowId, JobIndex>);
static_assert(!std::is_convertible_v<int32_t, PathId>);
static_assert(!std::is_convertible_v<FlowId, PathId>);
static_assert(!std::is_convertible_v<LinkId, PathId>);
static_assert(std::is_convertible_v<ServerId, int32_t>);
static_assert(std::is_convertible_v<TaskId, int32_t>);
static_assert(std::is_convertible_v<FlowId, int32_t>);
static_assert(std::is_convertible_v<LinkId, int32_t>);
static_assert(std::is_convertible_v<CoflowId, int32_t>);
static_assert(std::is_constructible_v<FlowId, int32_t>);
static_assert(std::is_constructible_v<LinkId, int32_t>);
static_assert(std::is_constructible_v<CoflowId, int32_t>);
// Nor explicitly from an id of another kind: FlowId{link} does not compile.
static_assert(!std::is_constructible_v<FlowId, LinkId>);
static_assert(!std::is_constructible_v<LinkId, FlowId>);
static_assert(!std::is_constructible_v<CoflowId, FlowId>);
static_assert(!std::is_constructible_v<TaskId, FlowId>);
static_assert(!std::is_constructible_v<ServerId, TaskId>);
static_assert(!std::is_constructible_v<PathId, LinkId>);
static_assert(std::is_constructible_v<FlowId, FlowId>);

// An id compares with its own kind and with a plain integer, never with an id of another kind.
template <class A, class B>
concept Comparable = requires(A a, B b) {
  a == b;
  a != b;
  a < b;
  a <= b;
  a > b;
  a >= b;
};
template <class A, class B>
concept ComparableAtAll = requires(A a, B b) {
  a == b;
}
|| requires(A a, B b) { a != b; }
|| requires(A a, B b) { a < b; }
|| requires(A a, B b) { a <= b; }
|| requires(A a, B b) { a > b; }
|| requires(A a, B b) { a >= b; }
|| requires(A a, B b) { a <=> b; };
static_assert(Comparable<ServerId, ServerId>);
static_assert(Comparable<TaskId, TaskId>);
static_assert(Comparable<JobIndex, JobIndex>);
static_assert(Comparable<ServerId, int32_t>);
static_assert(Comparable<int32_t, TaskId>);
static_assert(Comparable<JobIndex, int>);
static_assert(Comparable<FlowId, FlowId>);
static_assert(Comparable<FlowId, int32_t>);
static_assert(Comparable<LinkId, LinkId>);
static_assert(Comparable<int, LinkId>);
static_assert(Comparable<CoflowId, CoflowId>);
static_assert(Comparable<CoflowId, int>);
static_assert(!ComparableAtAll<ServerId, TaskId>);
static_assert(!ComparableAtAll<TaskId, ServerId>);
static_assert(!ComparableAtAll<JobIndex, TaskId>);
static_assert(!ComparableAtAll<ServerId, JobIndex>);
static_assert(!ComparableAtAll<FlowId, TaskId>);
static_assert(!ComparableAtAll<ServerId, FlowId>);
static_assert(!ComparableAtAll<FlowId, LinkId>);
static_assert(!ComparableAtAll<LinkId, FlowId>);
static_assert(!ComparableAtAll<LinkId, ServerId>);
static_assert(!ComparableAtAll<CoflowId, FlowId>);
static_assert(!ComparableAtAll<JobIndex, CoflowId>);

// Placing a task on a server compiles only with the arguments in their order.
template <class A, class B>
concept Placeable = requires(TaskLifecycle& life, A a, B b) {
  life.Place(a, b);
};
static_assert(Placeable<TaskId, ServerId>);
static_assert(!Placeable<ServerId, TaskId>);
static_assert(!Placeable<int32_t, int32_t>);

// A flow id is not a task's: the life cycle's flow callback takes only a flow.
template <class A>
concept FlowDoneTakes = requires(TaskLifecycle& life, A a) {
  life.OnFlowDone(a);
};
static_assert(FlowDoneTakes<FlowId>);
static_assert(!FlowDoneTakes<TaskId>);
static_assert(!FlowDoneTakes<int32_t>);

// A flow and a link of the network are not each other: the view's per-flow and per-link reads
// take only their own kind, and a function of (flow, link) rejects them swapped.
template <class A>
concept RateOf = requires(const FlowView& v, A a) {
  v.Rate(a);
};
template <class A>
concept LinkLoadOf = requires(const FlowView& v, A a) {
  v.LinkLoad(a);
};
static_assert(RateOf<FlowId> && !RateOf<LinkId> && !RateOf<int32_t>);
static_assert(LinkLoadOf<LinkId> && !LinkLoadOf<FlowId> && !LinkLoadOf<int32_t>);
[[maybe_unused]] void OnLink(FlowId, LinkId) {}
template <class A, class B>
concept OnLinkTakes = requires(A a, B b) {
  OnLink(a, b);
};
static_assert(OnLinkTakes<FlowId, LinkId>);
static_assert(!OnLinkTakes<LinkId, FlowId>);

// A coflow is looked up by its own id only, never by a flow's or a job's.
template <class A>
concept CoflowOf = requires(const FlowView& v, A a) {
  v.coflow(a);
};
template <class A>
concept FlowOf = requires(const FlowView& v, A a) {
  v.flow(a);
};
static_assert(CoflowOf<CoflowId> && !CoflowOf<FlowId> && !CoflowOf<JobIndex>);
static_assert(FlowOf<FlowId> && !FlowOf<CoflowId> && !FlowOf<int32_t>);

// The solver's Add takes a flow, then a path: neither swapped nor a flow for the path.
template <class A, class B>
concept SolverAdds = requires(FluidSolver& s, A a, B b) {
  s.Add(a, b, 1.0, FlowClass{0});
};
static_assert(SolverAdds<FlowId, PathId>);
static_assert(!SolverAdds<PathId, FlowId>);
static_assert(!SolverAdds<FlowId, FlowId>);
static_assert(!SolverAdds<FlowId, LinkId>);

TEST(Ids, NoneByDefaultCountsAndIndexes) {
  EXPECT_EQ(ServerId(), kNoServer);
  EXPECT_EQ(FlowId(), kNoFlow);
  EXPECT_EQ(LinkId(), kNoLink);
  EXPECT_EQ(CoflowId(), kNoCoflow);
  EXPECT_EQ(static_cast<int32_t>(TaskId()), -1);
  int sum = 0;
  for (ServerId s{0}; s < 4; ++s) sum += s;
  EXPECT_EQ(sum, 6);
  const int values[] = {10, 11, 12};
  EXPECT_EQ(values[TaskId{2}], 12);
}

TEST(Ids, HashFormatAndJsonAsTheirInteger) {
  const std::unordered_set<TaskId> tasks = {TaskId{3}, TaskId{5}, TaskId{3}};
  EXPECT_EQ(tasks.size(), 2u);
  EXPECT_EQ(fmt::format("{} {:>3}", ServerId{7}, TaskId{42}), "7  42");
  const nlohmann::json j = {{"server", ServerId{9}}};
  EXPECT_EQ(j.dump(), R"({"server":9})");
  EXPECT_EQ(j.at("server").get<ServerId>(), ServerId{9});
}

// A flow's macroflow is the task it feeds, as a task id.
static_assert(std::is_same_v<decltype(FlowSpec::macroflow), TaskId>);

// An id's limits are its integer's, whatever its integer type.
using WideId = Id<struct WideIdTag, int64_t>;
static_assert(!std::is_constructible_v<WideId, TaskId> && std::is_constructible_v<WideId, int64_t>);

TEST(Ids, AnIdsLimitsAreItsIntegersAndAMacroflowIsATask) {
  EXPECT_EQ(std::numeric_limits<WideId>::max(), WideId{INT64_MAX});
  EXPECT_EQ(std::numeric_limits<WideId>::min(), WideId{INT64_MIN});
  EXPECT_EQ(std::numeric_limits<TaskId>::max(), TaskId{INT32_MAX});
  EXPECT_EQ(fmt::format("{}", WideId{int64_t{1} << 40}), "1099511627776");
  EXPECT_EQ(FlowSpec{}.macroflow, TaskId{-1});
}

}  // namespace
}  // namespace slotflow
