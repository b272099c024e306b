// Typed policy settings: one rule for every source, errors that name the source and the key.
#include "api/settings.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "api/error.h"
#include "api/units.h"

namespace slotflow {
namespace {

enum class Order { kFifo, kSjf };

Order OrderOf(const Settings& s) {
  return s.Choice<Order>("order", {{"fifo", Order::kFifo}, {"sjf", Order::kSjf}});
}

std::vector<SettingSpec> Specs() {
  return {{.name = "queues", .kind = SettingKind::kQueues, .default_value = "8", .meaning = "q"},
          {.name = "threshold",
           .kind = SettingKind::kBytes,
           .default_value = "10MiB",
           .meaning = "t",
           .min = 0,
           .min_exclusive = true},
          {.name = "interval",
           .kind = SettingKind::kSeconds,
           .default_value = "100ms",
           .meaning = "i",
           .min = 1e-3,
           .max = 10},
          {.name = "weight",
           .kind = SettingKind::kNumber,
           .default_value = "0.5",
           .meaning = "w",
           .min = 0,
           .max = 1},
          {.name = "count",
           .kind = SettingKind::kInteger,
           .default_value = "3",
           .meaning = "c",
           .min = 1,
           .max = 100},
          {.name = "order",
           .kind = SettingKind::kChoice,
           .default_value = "fifo",
           .meaning = "o",
           .choices = {"fifo", "sjf"}}};
}

// The InputError a set of assignments raises (empty when none).
std::string ErrorOf(const std::vector<SettingAssignment>& given) {
  try {
    Settings(Specs(), given, "policy 'p'");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Settings, DefaultsAreParsedWithTheirUnits) {
  const Settings s(Specs(), std::vector<SettingAssignment>{}, "p");
  EXPECT_EQ(s.Queues("queues"), 8);
  EXPECT_DOUBLE_EQ(s.Number("threshold"), 10 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(s.Number("interval"), 0.1);
  EXPECT_DOUBLE_EQ(s.Number("weight"), 0.5);
  EXPECT_EQ(s.Integer("count"), 3);
  EXPECT_EQ(OrderOf(s), Order::kFifo);
}

TEST(Settings, LaterAssignmentsWin) {
  const Settings s(Specs(),
                   std::vector<SettingAssignment>{{"queues", "4", "", 0, "--set q"},
                                                  {"queues", "unlimited", "", 0, "--set q"},
                                                  {"threshold", "1MB", "", 0, "--set t"},
                                                  {"order", "sjf", "", 0, "--set o"}},
                   "p");
  EXPECT_EQ(s.Queues("queues"), 0);  // unlimited
  EXPECT_DOUBLE_EQ(s.Number("threshold"), 1e6);
  EXPECT_EQ(OrderOf(s), Order::kSjf);
  const auto in_force = s.InForce();
  ASSERT_EQ(in_force.size(), 6u);
  EXPECT_EQ(in_force[0], (std::pair<std::string, std::string>{"queues", "unlimited"}));
  EXPECT_EQ(in_force[5], (std::pair<std::string, std::string>{"order", "sjf"}));
}

// A choice is read through a table of every word the setting declares: a table that misses
// one, adds one (a typo) or repeats one is refused whatever the word in force.
TEST(Settings, AChoiceTableMustGiveExactlyTheDeclaredWords) {
  const Settings s(Specs(), std::vector<SettingAssignment>{}, "p");
  EXPECT_EQ(s.Choice<int>("order", {{"sjf", 2}, {"fifo", 1}}), 1);  // any order
  EXPECT_THROW(s.Choice<int>("order", {{"fifo", 1}}), std::logic_error);
  EXPECT_THROW(s.Choice<int>("order", {{"fifo", 1}, {"sjf", 2}, {"ljf", 3}}), std::logic_error);
  EXPECT_THROW(s.Choice<int>("order", {{"fifo", 1}, {"sfj", 2}}), std::logic_error);
  EXPECT_THROW(s.Choice<int>("order", {{"fifo", 1}, {"sjf", 2}, {"sjf", 3}}), std::logic_error);
  EXPECT_THROW(s.Choice<int>("weight", {{"fifo", 1}, {"sjf", 2}}), std::logic_error);
  EXPECT_THROW(s.Choice<int>("ordr", {{"fifo", 1}, {"sjf", 2}}), std::logic_error);
  try {
    s.Choice<int>("order", {{"fifo", 1}, {"sjf ", 2}});
    ADD_FAILURE() << "a misspelt word accepted";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("'sjf '"), std::string::npos) << e.what();
  }
}

// Settings that contradict each other are reported where the last of them was given, with
// where the others given came from; defaults are named by their field.
TEST(Settings, AConflictIsReportedWhereTheLastOfItsSettingsWasGiven) {
  const Settings s(
      Specs(),
      std::vector<SettingAssignment>{{"count", "5", "a.toml", 4, "scheduler.count"},
                                     {"weight", "0.9", "a.toml", 3, "scheduler.weight"},
                                     {"count", "7", "", 0, "--set scheduler.count"}},
      "p", "scheduler.");
  EXPECT_EQ(s.Source("weight").line, 3);
  EXPECT_EQ(s.Source("count").field, "--set scheduler.count");
  EXPECT_EQ(s.Source("threshold").field, "scheduler.threshold");
  EXPECT_TRUE(s.Source("threshold").file.empty());

  const InputError flag = s.Conflict({"weight", "count", "threshold"}, "too much");
  EXPECT_EQ(flag.file(), "");
  EXPECT_EQ(flag.field(), "--set scheduler.count");
  EXPECT_EQ(flag.message(), "too much (with weight from a.toml:3)");

  const InputError file = s.Conflict({"threshold", "weight"}, "too much");
  EXPECT_EQ(std::string(file.what()), "a.toml:3: field 'scheduler.weight': too much");

  const InputError defaults = s.Conflict({"threshold", "interval"}, "too much");
  EXPECT_EQ(std::string(defaults.what()), "field 'scheduler.threshold': too much");
}

TEST(Settings, UnknownKeyNamesTheSourceAndListsTheKnownOnes) {
  const std::string e = ErrorOf({{"queus", "3", "my.toml", 7, "network.queus"}});
  EXPECT_NE(e.find("my.toml:7"), std::string::npos) << e;
  EXPECT_NE(e.find("network.queus"), std::string::npos) << e;
  EXPECT_NE(e.find("policy 'p'"), std::string::npos) << e;
  EXPECT_NE(e.find("queues, threshold"), std::string::npos) << e;
}

TEST(Settings, OutOfRangeAndMalformedValuesAreErrors) {
  for (const auto& [key, value] :
       std::vector<std::pair<std::string, std::string>>{{"queues", "0"},
                                                        {"queues", "-2"},
                                                        {"queues", "4294967297"},
                                                        {"queues", "2.5"},
                                                        {"threshold", "0"},
                                                        {"threshold", "-1MB"},
                                                        {"threshold", "inf"},
                                                        {"interval", "0s"},
                                                        {"interval", "11s"},
                                                        {"weight", "nan"},
                                                        {"weight", "1.5"},
                                                        {"weight", "0.5x"},
                                                        {"count", "0"},
                                                        {"count", "3.0"},
                                                        {"count", "99999999999999999999"},
                                                        {"order", "lifo"}}) {
    const std::string e = ErrorOf({{key, value, "", 0, "--set x." + key}});
    EXPECT_NE(e.find("--set x." + key), std::string::npos) << key << "=" << value << ": " << e;
  }
}

TEST(Settings, RangeIsDescribedForListings) {
  const auto specs = Specs();
  EXPECT_EQ(SettingRange(specs[3]), "[0, 1]");
  EXPECT_EQ(SettingRange(specs[5]), "fifo | sjf");
  EXPECT_EQ(SettingUnit(specs[1].kind), "bytes");
}

}  // namespace
}  // namespace slotflow

namespace slotflow {
namespace {

TEST(FormatTime, KeepsThreeSignificantDigitsBelowOneSecond) {
  EXPECT_EQ(FormatTime(12.3456), "12.346");
  EXPECT_EQ(FormatTime(1), "1.000");
  EXPECT_EQ(FormatTime(0), "0.000");
  EXPECT_EQ(FormatTime(0.0234), "0.0234");
  EXPECT_EQ(FormatTime(0.000234), "0.000234");
}

}  // namespace
}  // namespace slotflow
