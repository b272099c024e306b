// The job orders every task scheduler shares: sjf by map input plus shuffle, sjf-shuffle by
// shuffle alone, and a job file's size estimate standing for both.
#include "api/job_order.h"

#include <gtest/gtest.h>

#include <vector>

#include "bed.h"

namespace slotflow::testing {
namespace {

// Job a reads 100 bytes and shuffles 1; job b reads 1 and shuffles 50. `estimate` < 0: none
// given, so each order measures the job.
std::vector<JobIndex> Ordered(JobOrder order, double estimate_a = -1) {
  Bed bed(2, 2);
  auto job = [](Bytes read, Bytes shuffle) {
    return Job(
        "j", 0,
        {StageSpec{"map", {}, {Task(read, 0)}}, StageSpec{"reduce", {0}, {Task(shuffle, 0)}}});
  };
  bed.Submit(job(100, 1), estimate_a);
  bed.Submit(job(1, 50), -1);
  std::vector<JobIndex> out;
  OrderJobs(bed.state(), order, out);
  return out;
}

TEST(JobOrder, SjfCountsMapInputAndShuffleSjfShuffleOnlyTheShuffle) {
  EXPECT_EQ(Ordered(JobOrder::kFifo), (std::vector<JobIndex>{JobIndex{0}, JobIndex{1}}));
  EXPECT_EQ(Ordered(JobOrder::kSjf),
            (std::vector<JobIndex>{JobIndex{1}, JobIndex{0}}));  // 51 < 101
  EXPECT_EQ(Ordered(JobOrder::kSjfShuffle),
            (std::vector<JobIndex>{JobIndex{0}, JobIndex{1}}));  // 1 < 50
}

TEST(JobOrder, AGivenSizeEstimateStandsForBothMeasures) {
  EXPECT_EQ(Ordered(JobOrder::kSjf, 60),
            (std::vector<JobIndex>{JobIndex{1}, JobIndex{0}}));  // 51 < 60
  EXPECT_EQ(Ordered(JobOrder::kSjfShuffle, 60),
            (std::vector<JobIndex>{JobIndex{1}, JobIndex{0}}));  // 50 < 60
}

TEST(JobOrder, EveryOrderIsAChoiceOfTheOrderSetting) {
  const SettingSpec spec = JobOrderSetting();
  EXPECT_EQ(spec.choices, (std::vector<std::string>{"fifo", "sjf", "sjf-shuffle", "fair"}));
}

}  // namespace
}  // namespace slotflow::testing
