#include "api/chunked_records.h"

#include <gtest/gtest.h>

namespace slotflow::testing {
namespace {

TEST(ChunkedRecords, AChunkIsFreedOnceFullAndAllOfItRetired) {
  ChunkedRecords<int, 2> r;  // chunks of 4
  for (int i = 0; i < 10; ++i) r.push_back(i * 10);
  EXPECT_EQ(r.size(), 10u);
  EXPECT_EQ(r.ChunksKept(), 3u);
  EXPECT_EQ(r[7], 70);
  // Three of the first chunk's four retired: still kept and readable.
  for (int i : {0, 1, 3}) r.Retire(static_cast<size_t>(i));
  EXPECT_EQ(r.ChunksKept(), 3u);
  EXPECT_TRUE(r.Readable(0));
  EXPECT_EQ(r[2], 20);
  r.Retire(2);
  EXPECT_EQ(r.ChunksKept(), 2u);
  EXPECT_FALSE(r.Readable(0));
  EXPECT_FALSE(r.Readable(3));
  EXPECT_TRUE(r.Readable(4));
  // The last chunk (8, 9) is not full: retiring all it holds keeps it, for the records to come.
  r.Retire(8);
  r.Retire(9);
  EXPECT_EQ(r.ChunksKept(), 2u);
  r.push_back(100);
  r.push_back(110);
  EXPECT_EQ(r[11], 110);
  r.Retire(10);
  r.Retire(11);
  EXPECT_EQ(r.ChunksKept(), 1u);
  EXPECT_FALSE(r.Readable(12));  // not added yet
  EXPECT_EQ(r.size(), 12u);
}

TEST(ChunkedRecords, GrowAddsDefaultRecords) {
  ChunkedRecords<double, 1> r;
  r.Grow(5);
  EXPECT_EQ(r.size(), 5u);
  EXPECT_EQ(r[4], 0.0);
  r.Grow(3);  // never shrinks
  EXPECT_EQ(r.size(), 5u);
}

}  // namespace
}  // namespace slotflow::testing
