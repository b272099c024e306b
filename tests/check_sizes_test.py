#!/usr/bin/env python3
"""Tests of check_sizes.py: a small tree within the limits passes, and each rule fails on a tree
with one deliberate violation of it, naming the file, the line and the function; braces inside
comments and literals, lambdas, member functions and constructors' initializer lists do not
confuse the scanner."""
import pathlib
import shutil
import subprocess
import sys
import tempfile
import unittest

CHECKER = pathlib.Path(__file__).resolve().parent / "check_sizes.py"


def body(lines):
    """`lines` statements of a function body."""
    return "".join(f"  x += {i};\n" for i in range(lines))


def function(name, lines, signature=None):
    """A function of exactly `lines` lines, signature and closing brace included."""
    return f"{signature or f'int {name}(int x)'} {{\n{body(lines - 3)}  return x;\n}}\n"


# Tricky but harmless text in a function: braces and quotes in comments, strings, characters
# and raw strings, digit separators, a lambda, a local class and nested blocks. Nine lines.
TRICKY = """\
  const char* open = "{ \\" {";  // a } in a comment
  const char close = '}';  /* { a
  block comment } */ const char quote = '\\'';
  const char* raw = R"x(} " ) { )x";
  auto add = [&](int y) { if (y) { return y + 1'000; } return 0; };
  struct Local { int f() { return '{'; } };
  x += open[0] + close + quote + raw[0] + add(1) + Local{}.f();
"""


def tricky(name, lines):
    """A function of exactly `lines` lines that holds TRICKY."""
    return (f"int {name}(int x) {{\n{TRICKY}{body(lines - 3 - TRICKY.count(chr(10)))}"
            f"  return x;\n}}\n")


def lambdas(name, lines):
    """A function of exactly `lines` lines made of multi-line lambdas (five lines each)."""
    count = (lines - 3) // 5
    text = "".join(f"  auto f{i} = [x](int y) {{\n    if (y > x) {{\n      return y;\n    }}\n"
                   f"    return x; }};\n" for i in range(count))
    return (f"int {name}(int x) {{\n{text}{body(lines - 3 - 5 * count)}  return x;\n}}\n")


def member(name, lines):
    """A class with a member function of exactly `lines` lines defined inside it, at line 5."""
    inner = function(name, lines, f"int {name}(int x) const").replace("\n", "\n  ")
    return f"#pragma once\n\nclass Holder {{\n public:\n  {inner.rstrip()}\n}};\n"


def padded(lines):
    """A file of exactly `lines` lines: a short function, then comments."""
    text = function("Short", 5)
    return text + "// padding\n" * (lines - text.count("\n"))


# A tree within the limits: functions and files at their limits, and the shapes the scanner
# must see through.
CLEAN = {
    "src/common/short.cc": (
        '#include "common/short.h"\n\nnamespace slotflow {\n'
        + function("AtTheLimit", 90)
        + tricky("TrickyButShort", 90)
        + lambdas("LambdasButShort", 90)
        + "}  // namespace slotflow\n"),
    "src/common/short.h": member("AtTheLimit", 90),
    "src/common/full.cc": padded(600),
    "src/common/shapes.cc": (
        "namespace slotflow {\nnamespace {\n"
        # An initializer's lambda at namespace scope is no function.
        "const auto kTable = [](int x) {\n" + body(120) + "  return x;\n};\n"
        "}  // namespace\n"
        # A constructor with braced member initializers, a template and an operator.
        "struct Pair {\n  int a, b;\n  Pair(int x) : a{x}, b(x) {\n" + body(80) + "  }\n};\n"
        "template <class T>\n" + function("Twice", 89, "T Twice(T x)")
        + "template <>\nint Twice<int>(int x) { return x; }\n"
        + function("operator==", 90, "bool operator==(const Pair& p, const Pair& q)")
        + 'extern "C" {\n' + function("Exported", 90) + "}\n"
        + "}  // namespace slotflow\n"),
    # Nor are braced initializers, one after a variable constructed with parentheses.
    "src/common/tables.cc": ("const std::vector<int> kOne(1), kMany{\n" + "  1,\n" * 120 + "};\n"
                             "const Table kTable[] = {\n" + "  {1, 2},\n" * 120 + "};\n"),
    "python/binding.cc": ("PYBIND11_MODULE(_m, m) {\n" + body(40) + "}\n"),
    "tests/long_test.cc": function("NotChecked", 200) + padded(700),
}

# One violation per case: (the exact line the checker prints, the files changed).
VIOLATIONS = {
    "a 91-line function": (
        "src/common/short.cc:4: function AtTheLimit is 91 lines (limit 90)",
        {"src/common/short.cc": ("namespace slotflow {\n\n\n" + function("AtTheLimit", 91)
                                 + "}  // namespace slotflow\n")}),
    "a 601-line file": (
        "src/common/full.cc: 601 lines (limit 600)",
        {"src/common/full.cc": padded(601)}),
    "a long member function defined inside a class": (
        "src/common/short.h:5: function AtTheLimit is 91 lines (limit 90)",
        {"src/common/short.h": member("AtTheLimit", 91)}),
    "a long function with braces inside strings and comments": (
        "src/common/short.cc:1: function Tricky is 91 lines (limit 90)",
        {"src/common/short.cc": tricky("Tricky", 91) + function("After", 10)}),
    "a long function of lambdas": (
        "src/common/short.cc:2: function Lambdas is 91 lines (limit 90)",
        {"src/common/short.cc": "\n" + lambdas("Lambdas", 91) + function("After", 10)}),
    "a long qualified member function in a source": (
        "src/common/shapes.cc:1: function Pair::Sum is 95 lines (limit 90)",
        {"src/common/shapes.cc": function("Pair::Sum", 95, "int Pair::Sum(int x) const")}),
    "a long constructor with braced member initializers": (
        "src/common/shapes.cc:5: function Pair::Pair is 91 lines (limit 90)",
        {"src/common/shapes.cc": ("struct Pair {\n  int a, b;\n  Pair(int x);\n};\n"
                                  "Pair::Pair(int x)\n    : a{x},\n      b([] { return 1; }()) {\n"
                                  + body(87) + "}\n")}),
    "a long function-try-block, its handlers included": (
        "src/common/short.cc:1: function Guarded is 91 lines (limit 90)",
        {"src/common/short.cc": ("int Guarded(int x) try {\n" + body(84) + "  return x;\n"
                                 "} catch (const std::exception&) {\n  return 0;\n"
                                 "} catch (...) {\n  return 1;\n}\n")}),
    "a long specialization of a template": (
        "src/common/shapes.cc:1: function Twice<int> is 91 lines (limit 90)",
        {"src/common/shapes.cc": "template <>\n" + function("Twice", 90, "int Twice<int>(int x)")}),
    "a long function of the Python module": (
        "python/binding.cc:1: function PYBIND11_MODULE is 92 lines (limit 90)",
        {"python/binding.cc": "PYBIND11_MODULE(_m, m) {\n" + body(90) + "}\n"}),
}


def write(root, files):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def run_checker(*args):
    return subprocess.run([sys.executable, str(CHECKER), *map(str, args)], capture_output=True,
                          text=True)


class CheckSizes(unittest.TestCase):
    def setUp(self):
        self.dir = pathlib.Path(tempfile.mkdtemp())
        write(self.dir, CLEAN)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_the_trees_shapes_are_as_their_names_say(self):
        self.assertEqual(function("F", 91).count("\n"), 91)
        self.assertEqual(tricky("F", 91).count("\n"), 91)
        self.assertEqual(lambdas("F", 91).count("\n"), 91)
        self.assertEqual(padded(601).count("\n"), 601)

    def test_a_tree_within_the_limits_passes(self):
        result = run_checker(self.dir)
        self.assertEqual(result.returncode, 0, result.stdout)
        self.assertEqual(result.stdout, "")

    def test_each_rule_fails_on_a_violation(self):
        for case, (line, changes) in VIOLATIONS.items():
            with self.subTest(case):
                root = self.dir / case.replace(" ", "-")
                write(root, CLEAN)
                write(root, changes)
                result = run_checker(root)
                self.assertEqual(result.returncode, 1, result.stdout)
                self.assertEqual(result.stdout, line + "\n")

    def test_every_violation_in_a_file_is_reported(self):
        write(self.dir, {"src/common/full.cc": padded(610) + function("Long", 95)})
        result = run_checker(self.dir)
        self.assertEqual(result.returncode, 1, result.stdout)
        self.assertEqual(result.stdout, "src/common/full.cc: 705 lines (limit 600)\n"
                                        "src/common/full.cc:611: function Long is 95 lines "
                                        "(limit 90)\n")

    def test_without_a_root_it_prints_its_usage(self):
        for args in ([], [self.dir / "no-such-folder"], [self.dir, self.dir]):
            with self.subTest(args=args):
                result = run_checker(*args)
                self.assertEqual(result.returncode, 2)
                self.assertIn("Usage", result.stderr)


if __name__ == "__main__":
    unittest.main()
