"""Citations a reader can resolve, and doc links that lead somewhere.

    python3 check_citations.py REPO

The papers are cited by short name and section ("Duopoly §5.4", "NEAT+ §V-B"; see
docs/papers.md), and readings slotflow chose by docs/readings.md. This fails when a file under
src/, tests/, docs/, bench/, fuzz/, examples/ or experiments/, or README.md, cites a document a
reader of the repository does not have: the design specification or a paper's source file by
its number (the patterns are below). It also fails when a Markdown link in README.md or
docs/*.md, or a docs/NAME.md path named anywhere in those files, leads to no file.
"""
import os
import re
import sys

repo = os.path.abspath(sys.argv[1])
here = os.path.abspath(__file__)
roots = ["src", "tests", "docs", "bench", "fuzz", "examples", "experiments"]
top_files = ["README.md"]
# Written so that this file does not match them itself.
forbidden = [
    (re.compile("SPEC" + r"\s*§"), "the design specification's sections"),
    (re.compile("SPEC" + r"\.md"), "the design specification"),
    (re.compile("seed" + r"s?\s+00\d", re.IGNORECASE), "a paper by its source file's number"),
]
markdown_link = re.compile(r"\]\(([^)\s]+)\)")
docs_path = re.compile(r"(?<![\w./-])docs/[\w./-]+?\.md\b")

failures = []


def files():
    for name in top_files:
        yield os.path.join(repo, name)
    for root in roots:
        for folder, dirs, names in os.walk(os.path.join(repo, root)):
            dirs.sort()
            for name in sorted(names):
                yield os.path.join(folder, name)


def text_of(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (UnicodeDecodeError, OSError):
        return None  # binary files (images, fuzz inputs) cite nothing


checked = 0
for path in files():
    if os.path.abspath(path) == here:
        continue
    text = text_of(path)
    if text is None:
        continue
    checked += 1
    rel = os.path.relpath(path, repo)
    for number, line in enumerate(text.splitlines(), 1):
        for pattern, what in forbidden:
            for m in pattern.finditer(line):
                failures.append(f"{rel}:{number}: cites {what} ({m.group(0)!r}); cite the paper "
                                f"by short name and section (docs/papers.md) or docs/readings.md")
        for m in docs_path.finditer(line):
            if not os.path.isfile(os.path.join(repo, m.group(0))):
                failures.append(f"{rel}:{number}: {m.group(0)} does not exist")
    if rel == "README.md" or (rel.startswith("docs" + os.sep) and rel.endswith(".md")):
        for number, line in enumerate(text.splitlines(), 1):
            for m in markdown_link.finditer(line):
                target = m.group(1).split("#", 1)[0]
                if not target or re.match(r"[a-z]+:", target):
                    continue  # an anchor in the same page, or a URL
                if not target.endswith(".md"):
                    continue
                resolved = os.path.normpath(os.path.join(os.path.dirname(path), target))
                if not os.path.isfile(resolved):
                    failures.append(f"{rel}:{number}: link to {m.group(1)}, which does not exist")

if checked < 100:
    failures.append(f"only {checked} files read under {repo}: is it the repository?")
for f in failures:
    print(f)
sys.exit(1 if failures else 0)
