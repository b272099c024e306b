#!/usr/bin/env python3
"""Checks the sizes of slotflow's C++ sources.

Usage: check_sizes.py ROOT, where ROOT holds src/ and python/. Prints every function and every
file over its limit and exits 1 if there is any (2 on a usage error).

The rules, over the .cc and .h files of src/ and python/:

  functions    No function is over FUNCTION_LIMIT lines, counted from the line its signature
               starts (a template header included) to its closing brace, inclusive. Lambdas,
               local classes and nested blocks count toward the function around them.
               Reported as `path:line: function NAME is N lines (limit 90)`.
  files        No file is over FILE_LIMIT lines. Reported as `path: N lines (limit 600)`.

Functions are found by a small scanner, not a compiler: comments, string and character
literals (raw strings too) and preprocessor lines are blanked out, braces are tracked, and a
`{` at namespace or class scope opens a function body when the declaration before it has a
parameter list -- a name, then `(` ... `)` -- followed only by qualifiers, a trailing return
type or a constructor's initializer list, and is not a namespace, class, struct, union or enum,
nor an initializer (`= {`). Braces that preprocessor branches leave unbalanced would confuse
it; the sources have none.
"""
import pathlib
import re
import sys

FUNCTION_LIMIT = 90
FILE_LIMIT = 600
TREES = ("src", "python")
SUFFIXES = (".cc", ".h")


def strip(text):
    """The text with comments, literals and preprocessor lines blanked out, lines kept.

    A string or character literal becomes an empty one ("" or ''), so that it stays one token;
    a comment becomes a space."""
    out = []
    i, n = 0, len(text)
    line_start = True  # only whitespace since the last newline
    while i < n:
        c = text[i]
        if c == "\n":
            out.append(c)
            line_start = True
            i += 1
            continue
        if line_start and c == "#":
            # A directive, to its last unescaped newline.
            while i < n and not (text[i] == "\n" and text[i - 1] != "\\"):
                out.append("\n" if text[i] == "\n" else " ")
                i += 1
            continue
        if c in " \t\r\f\v":
            out.append(c)
            i += 1
            continue
        line_start = False
        if text.startswith("//", i):
            while i < n and not (text[i] == "\n" and text[i - 1] != "\\"):
                out.append("\n" if text[i] == "\n" else " ")
                i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        if c == '"':
            prefix = re.search(r"[A-Za-z_0-9]*$", text[max(0, i - 3):i]).group()
            if prefix in ("R", "u8R", "uR", "UR", "LR"):
                match = re.match(r'"([^()\\\s]{0,16})\(', text[i:])
                if match:
                    end = text.find(")" + match.group(1) + '"', i + len(match.group()))
                    end = n if end < 0 else end + len(match.group(1)) + 2
                    out.append('""' + re.sub(r"[^\n]", "", text[i:end]))
                    i = end
                    continue
            i = skip_quoted(text, i, '"', out)
            continue
        if c == "'":
            # A digit separator (1'000) when the token before it is a number.
            token = re.search(r"[A-Za-z_0-9.']*$", text[max(0, i - 64):i]).group()
            if token[:1].isdigit() or (token[:1] == "." and token[1:2].isdigit()):
                out.append(c)
                i += 1
                continue
            i = skip_quoted(text, i, "'", out)
            continue
        out.append(c)
        i += 1
    return "".join(out)


def skip_quoted(text, i, quote, out):
    """Blanks a literal opened by `quote` at i; returns the index after it."""
    j, n = i + 1, len(text)
    while j < n and text[j] != quote and text[j] != "\n":
        j += 2 if text[j] == "\\" else 1
    j = min(j + 1, n)
    out.append(quote * 2 + "\n" * text.count("\n", i, j))
    return j


TOKEN = re.compile(r"[A-Za-z_][A-Za-z_0-9]*|\.?\d[\w.']*|\"\"|''|::|->|\.\.\.|==|!=|<=|>=|&&"
                   r"|\|\||\S")
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z_0-9]*$")
CLASS_KEYS = {"class", "struct", "union", "enum"}
ACCESS = {"public", "private", "protected"}
# Names whose parentheses are not a parameter list.
NOT_A_NAME = {"alignas", "alignof", "decltype", "noexcept", "requires", "sizeof", "static_assert",
              "throw", "typeid", "__attribute__", "__declspec", "explicit"}
# What may follow a function's parameter list before its body.
QUALIFIERS = {"const", "volatile", "noexcept", "override", "final", "mutable", "try", "throw",
              "&", "&&", "constexpr", "consteval"}


def tokens(stripped):
    """(token, line) for each token of stripped text."""
    result = []
    for number, line in enumerate(stripped.split("\n"), 1):
        result += [(token, number) for token in TOKEN.findall(line)]
    return result


def skip_template_headers(decl):
    """decl without its leading `template <...>` headers."""
    while len(decl) > 1 and decl[0] == "template" and decl[1] == "<":
        depth, i = 0, 1
        while i < len(decl):
            if decl[i] == "<":
                depth += 1
            elif decl[i] == ">":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        decl = decl[i + 1:]
    return decl


def fold_operators(decl):
    """decl with each operator's name one token: `operator()`, `operator<<`, `operator bool`."""
    result, i = [], 0
    while i < len(decl):
        if decl[i] != "operator":
            result.append(decl[i])
            i += 1
            continue
        j = i + 1
        if decl[j:j + 2] in (["(", ")"], ["[", "]"]):
            j += 2
        while j < len(decl) and decl[j] != "(":
            j += 1
        words = decl[i + 1:j]
        result.append("operator" + (" " if words and IDENTIFIER.match(words[0]) else "")
                      + "".join(words))
        i = j
    return result


def is_name(token):
    if token.startswith("operator"):
        return True
    return bool(IDENTIFIER.match(token)) and token not in NOT_A_NAME


def top_level(decl):
    """For each token of decl, whether it lies outside every (), [] and template <>."""
    result = []
    parens = brackets = angles = 0
    for i, token in enumerate(decl):
        if token == "(":
            parens += 1
        elif token == ")":
            parens -= 1
        elif token == "[":
            brackets += 1
        elif token == "]":
            brackets -= 1
        elif token == "<" and parens == 0 and brackets == 0 and i > 0 and (
                IDENTIFIER.match(decl[i - 1]) or decl[i - 1] == ">"):
            angles += 1
        elif token == ">" and parens == 0 and brackets == 0 and angles > 0:
            angles -= 1
        outside = parens == 0 and brackets == 0 and angles == 0
        result.append(outside and token not in ("(", "[", "<"))
        if token == "(" and parens == 1 and brackets == 0 and angles == 0:
            result[-1] = True  # the opening of a top-level pair is itself top-level
    return result


def parameter_list(decl, outside):
    """(index of the `(` of decl's parameter list, function name) or None."""
    for i, token in enumerate(decl):
        if token != "(" or not outside[i] or i == 0:
            continue
        start = i - 1
        if decl[start] == ">":
            # A specialization's name, Name<Args>(...): back to its `<`.
            depth = 0
            while start > 0:
                depth += {">": 1, "<": -1}.get(decl[start], 0)
                if depth == 0:
                    break
                start -= 1
            start -= 1
        if start < 0 or not is_name(decl[start]):
            continue
        if start > 0 and decl[start - 1] == "~":
            start -= 1
        return i, qualified_name(decl, start, i)
    return None


def qualified_name(decl, start, end):
    """The name decl[start:end], with the `A::B::` before it."""
    while start >= 2 and decl[start - 1] == "::" and IDENTIFIER.match(decl[start - 2]):
        start -= 2
    return "".join(decl[start:end])


def matching(decl, open_index):
    depth = 0
    for i in range(open_index, len(decl)):
        depth += {"(": 1, ")": -1}.get(decl[i], 0)
        if depth == 0:
            return i
    return None


def classify(decl):
    """What a `{` after the declaration tokens decl opens: ("function", name), or (kind, None)
    for a namespace, a class, a member's braced initializer in a constructor ("init"), braces
    inside the parentheses of a declaration that goes on ("inner") or anything else ("other",
    which ends the declaration)."""
    decl = fold_operators(skip_template_headers(decl))
    if not decl:
        return "other", None
    if "namespace" in decl[:3] or decl == ["extern", '""']:
        return "namespace", None
    if decl.count("(") != decl.count(")") or decl.count("[") != decl.count("]"):
        return "inner", None  # a braced argument or lambda inside parentheses
    outside = top_level(decl)
    if any(token == "=" and outside[i] for i, token in enumerate(decl)):
        return "other", None  # an initializer: `= {...}` or `= [...](...) {...}`
    found = parameter_list(decl, outside)
    if found is None:
        if any(token in CLASS_KEYS and outside[i] for i, token in enumerate(decl)):
            return "class", None
        return "other", None
    open_index, name = found
    close = matching(decl, open_index)
    tail = decl[close + 1:]
    if ":" in tail:
        # A constructor's initializer list: a `{` right after a member's name is its braced
        # initializer, any other opens the body.
        last = tail[-1]
        if IDENTIFIER.match(last) or last == ">":
            return "init", None
        return "function", name
    i = 0
    while i < len(tail):
        token = tail[i]
        if token in ("->", "requires"):
            return "function", name  # a trailing return type or constraint, to the body
        if token in ("noexcept", "throw") and i + 1 < len(tail) and tail[i + 1] == "(":
            i = matching(tail, i + 1) + 1
            continue
        if token == "[" and tail[i + 1:i + 2] == ["["]:
            while i < len(tail) and tail[i] != "]":
                i += 1
            i += 2
            continue
        if token not in QUALIFIERS:
            return "other", None
        i += 1
    return "function", name


def functions(text):
    """(name, first line, last line) of each function defined in C++ text."""
    found = []
    scopes = []  # "block" for braces inside a function, else what classify() says
    decl, decl_lines = [], []
    open_function = None  # (name, first line) of the function whose body is open
    for token, line in tokens(strip(text)):
        at_declarations = not scopes or scopes[-1] in ("namespace", "class")
        if not at_declarations:
            if token == "{":
                scopes.append("block")
            elif token == "}":
                kind = scopes.pop()
                if kind == "function":
                    found.append((open_function[0], open_function[1], line))
                elif kind in ("init", "inner"):
                    decl.append("{}")  # braces within a declaration, which goes on
                    decl_lines.append(line)
                elif kind == "other":
                    decl, decl_lines = [], []
            continue
        if token == ";":
            decl, decl_lines = [], []
        elif token == "}":
            if scopes:
                scopes.pop()
            decl, decl_lines = [], []
        elif token == ":" and len(decl) == 1 and decl[0] in ACCESS:
            decl, decl_lines = [], []
        elif token == "{":
            kind, name = classify(decl)
            if decl[:1] == ["catch"] and found:
                # A handler of a function-try-block: part of the function before it.
                name, first, _ = found.pop()
                kind, decl_lines = "function", [first]
            if kind == "function":
                open_function = (name, decl_lines[0])
            scopes.append(kind)
            if kind in ("namespace", "class", "function"):
                decl, decl_lines = [], []
        else:
            decl.append(token)
            decl_lines.append(line)
    return found


def check(root):
    bad = []
    for tree in TREES:
        if not (root / tree).is_dir():
            continue
        for path in sorted((root / tree).rglob("*")):
            if path.suffix not in SUFFIXES or not path.is_file():
                continue
            rel = path.relative_to(root).as_posix()
            text = path.read_text(errors="replace")
            lines = len(text.splitlines())
            if lines > FILE_LIMIT:
                bad.append(f"{rel}: {lines} lines (limit {FILE_LIMIT})")
            for name, first, last in functions(text):
                length = last - first + 1
                if length > FUNCTION_LIMIT:
                    bad.append(f"{rel}:{first}: function {name} is {length} lines "
                               f"(limit {FUNCTION_LIMIT})")
    return bad


def main(argv):
    if len(argv) != 2 or not pathlib.Path(argv[1]).is_dir():
        print(__doc__, file=sys.stderr)
        return 2
    bad = check(pathlib.Path(argv[1]).resolve())
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
