// The hostile-input corpus: every case in cases.tsv runs the slotflow binary as a user would
// and must end with its exit code (2 for every input error) and a message that names the
// source (file:line or flag) and the field. Under the sanitizer build this also shows that no
// hostile input reaches undefined behaviour.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Case {
  std::string name, args;
  int exit_code = 0;
  std::vector<std::string> must_contain;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

std::vector<std::string> Split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, sep);) out.push_back(item);
  if (!text.empty() && text.back() == sep) out.push_back("");  // an empty last column
  return out;
}

std::string Trim(const std::string& s) {
  const size_t a = s.find_first_not_of(' '), b = s.find_last_not_of(' ');
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::vector<Case> LoadCases() {
  const std::string dir = std::string(SLOTFLOW_SOURCE_DIR) + "/tests/hostile";
  std::ifstream in(dir + "/cases.tsv");
  std::vector<Case> cases;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> cols = Split(Replace(line, "{files}", dir + "/files"), '\t');
    if (cols.size() != 4) continue;  // reported by CorpusIsWellFormed
    Case c{cols[0], cols[1], std::stoi(cols[2]), {}};
    for (const std::string& part : Split(cols[3], '|')) c.must_contain.push_back(Trim(part));
    cases.push_back(std::move(c));
  }
  return cases;
}

TEST(HostileCorpus, IsWellFormedAndLarge) {
  std::ifstream in(std::string(SLOTFLOW_SOURCE_DIR) + "/tests/hostile/cases.tsv");
  int rows = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    EXPECT_EQ(Split(line, '\t').size(), 4u) << line;
    ++rows;
  }
  EXPECT_GE(rows, 60);
  EXPECT_EQ(LoadCases().size(), static_cast<size_t>(rows));
}

class Hostile : public ::testing::TestWithParam<Case> {};

TEST_P(Hostile, ExitsWithItsCodeAndNamesTheSourceAndField) {
  const Case& c = GetParam();
  const fs::path err = fs::path(::testing::TempDir()) /
                       ("slotflow_hostile_" + std::to_string(getpid()) + "_" + c.name + ".err");
  const std::string cmd =
      std::string(SLOTFLOW_BINARY) + " " + c.args + " >/dev/null 2>" + err.string();
  const int status = std::system(cmd.c_str());
  std::ifstream f(err);
  std::stringstream text;
  text << f.rdbuf();
  fs::remove(err);
  ASSERT_TRUE(WIFEXITED(status)) << "killed: " << c.args;
  EXPECT_EQ(WEXITSTATUS(status), c.exit_code) << c.args << "\n" << text.str();
  for (const std::string& part : c.must_contain) {
    EXPECT_NE(text.str().find(part), std::string::npos)
        << "missing '" << part << "' for: " << c.args << "\n"
        << text.str();
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, Hostile, ::testing::ValuesIn(LoadCases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
