#include "common/json_input.h"

#include <gtest/gtest.h>

#include <string>

#include "api/error.h"
#include "common/input_file.h"

namespace slotflow {
namespace {

// The InputError Parse throws on `text`, as "line field | message"; "" when it throws none.
std::string ErrorOf(const std::string& text, int first_line = 1, const std::string& prefix = "") {
  try {
    json_input::Parse(text, "f.json", first_line, prefix);
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "f.json");
    return std::to_string(e.line()) + " " + e.field() + " | " + e.message();
  }
  return "";
}

std::string Nested(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

TEST(JsonInput, ParsesWhatTheLibraryParses) {
  const nlohmann::json j =
      json_input::Parse(R"({"a": [1, 2.5, "x", true, null, {"b": -3}], "c": {}})", "f.json");
  EXPECT_EQ(j, nlohmann::json::parse(R"({"a": [1, 2.5, "x", true, null, {"b": -3}], "c": {}})"));
}

TEST(JsonInput, NestingStopsAtItsBound) {
  EXPECT_EQ(ErrorOf(Nested(json_input::kMaxDepth)), "");
  EXPECT_EQ(ErrorOf(Nested(json_input::kMaxDepth + 1)),
            "1 [0][0][0][0][0][0]...(122 levels) | objects and arrays nested deeper than 128");
  // Far deeper than any stack holds: refused at the bound, never recursed into.
  EXPECT_NE(ErrorOf(Nested(1'000'000)).find("nested deeper than 128"), std::string::npos);
}

TEST(JsonInput, NestingErrorNamesThePathAndLine) {
  const std::string text = "{\"job\": 1,\n \"x\": {\"y\": " + Nested(200) + "}}";
  EXPECT_EQ(ErrorOf(text, 1, "job[3]"),
            "2 job[3].x.y[0][0][0][0]...(122 levels) | objects and arrays nested deeper than 128");
}

TEST(JsonInput, AKeyGivenTwiceIsRefusedAtItsLine) {
  EXPECT_EQ(ErrorOf("{\n \"a\": 1,\n \"b\": {\"c\": 1},\n \"a\": 2}"),
            "4 a | the key \"a\" is given twice in one object");
  EXPECT_EQ(ErrorOf("{\"s\": [{\"t\": 1}, {\"t\": 1, \"t\": 2}]}", 7, "job[2]"),
            "7 job[2].s[1].t | the key \"t\" is given twice in one object");
  // The same key in two objects is no duplicate.
  EXPECT_EQ(ErrorOf(R"({"a": {"k": 1}, "b": {"k": 1}, "k": [{"k": 1}, {"k": 2}]})"), "");
}

TEST(JsonInput, SyntaxErrorsAndHugeNumbersNameTheirLine) {
  EXPECT_EQ(ErrorOf("{\"a\": 1,\n\n \"b\": }").substr(0, 20), "3 json | not valid J");
  EXPECT_EQ(ErrorOf("{\"a\": 1e999}", 5, "job[4]").substr(0, 32),
            "5 job[4] | a number out of range");
  EXPECT_EQ(ErrorOf("").substr(0, 20), "1 json | not valid J");
}

TEST(JsonInput, ToTomlConvertsEveryKindAndRefusesNull) {
  const toml::table t = json_input::ToToml(
      nlohmann::json::parse(
          R"({"i": 3, "f": 2.5, "s": "x", "b": true, "a": [1, [2]], "o": {"k": 1}})"),
      "f.json", 2, "job[0]");
  EXPECT_EQ(t["i"].value<int64_t>(), 3);
  EXPECT_EQ(t["f"].value<double>(), 2.5);
  EXPECT_EQ(t["s"].value<std::string>(), "x");
  EXPECT_EQ(t["b"].value<bool>(), true);
  EXPECT_EQ(t["a"][1][0].value<int64_t>(), 2);
  EXPECT_EQ(t["o"]["k"].value<int64_t>(), 1);
  try {
    json_input::ToToml(nlohmann::json::parse(R"({"o": {"k": [1, null]}})"), "f.json", 2, "job[0]");
    FAIL() << "null taken";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.field(), "job[0].o.k[1]");
  }
  try {
    json_input::ToToml(nlohmann::json::parse(R"({"n": 18446744073709551615})"), "f.json", 1, "");
    FAIL() << "2^64 - 1 taken";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "n");
  }
}

TEST(InputFile, SkipsAByteOrderMarkOnlyAtTheStart) {
  EXPECT_EQ(SkipByteOrderMark("\xEF\xBB\xBF{\"a\": 1}"), "{\"a\": 1}");
  EXPECT_EQ(SkipByteOrderMark("{\"a\": 1}"), "{\"a\": 1}");
  EXPECT_EQ(SkipByteOrderMark("x\xEF\xBB\xBF"), "x\xEF\xBB\xBF");
  EXPECT_EQ(SkipByteOrderMark("\xEF\xBB"), "\xEF\xBB");
}

}  // namespace
}  // namespace slotflow
