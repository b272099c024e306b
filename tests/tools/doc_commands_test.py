"""Every command that README.md and docs/*.md show is run, or checked, by the suite.

    python3 doc_commands_test.py BUILD_DIR REPO [TRACE]

A command is a line of a ```sh block (a trailing `\\` joins the next line; a `# comment` is
dropped; `for ...; do` runs to its `done`). `NAME="..."` lines are not commands: they set
variables that the later commands of the same file use; nor are `sleep N` and `wait`. doc_commands.toml gives, for each
command, how the test runs it and what it checks:

    [[command]]
    doc = "..."           # the command as the docs show it (or a list of commands)
    run = "..."           # optional: what runs instead (a smaller workload, a placeholder
                          #   filled in), with `why`; without it the command runs as shown
    exit = 0              # its exit code (default 0)
    stdout = "REGEX"      # one property of its output: a match in stdout,
    stderr = "REGEX"      #   or in stderr,
    file = "PATH"         #   or a file it writes, with `rows` (lines after the header),
                          #   `contains` (a match) or neither (it exists),
    flags_in_help = "..." #   or, for a command that cannot run here (root, GNU parallel, a
                          #   long set-up), a command whose output must name every --flag of
                          #   the documented command, with `why`

Entries run in the table's order, by bash, in one scratch copy of the repository beside a
scratch ../shared/traces/ (the FB trace and SWIM's linked in), so `out/...` paths land there. build/ is
the build directory. $FB20 names a file of the trace's first 20 coflows. The test fails when a
documented command has no entry, an entry matches no documented command, or a check fails.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib

build, repo = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
trace = os.path.abspath(sys.argv[3]) if len(sys.argv) > 3 else os.path.join(
    repo, "..", "shared", "traces", "FB2010-1Hr-150-0.txt")
table_path = os.path.join(repo, "tests", "tools", "doc_commands.toml")
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
    return condition


def strip_comment(line):
    """The line without a trailing `# comment` (a # at the start or after a blank, unquoted)."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i]
    return line


def doc_commands(path):
    """(line, command, variables in force) for every command of the file's ```sh blocks."""
    out, variables, fence, pending, start, loop = [], {}, None, "", 0, None
    for number, raw in enumerate(open(path, encoding="utf-8").read().splitlines(), 1):
        if raw.startswith("```"):
            fence = None if fence is not None else raw[3:].strip()
            continue
        if fence != "sh":
            continue
        if not pending:
            start = number
        if raw.rstrip().endswith("\\"):
            pending += raw.rstrip()[:-1] + " "
            continue
        line = " ".join(strip_comment(pending + raw).split())
        pending = ""
        if not line:
            continue
        if loop is not None:
            loop = f"{loop} {line}"
            if line == "done":
                out.append((loop_start, loop, dict(variables)))
                loop = None
            continue
        if re.fullmatch(r"sleep [0-9.]+|wait", line):  # pacing between background commands
            continue
        if re.match(r"(for|while) .*; do$", line):
            loop, loop_start = line, start
            continue
        m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)=(\"([^\"]*)\"|\S*)", line)
        if m:
            variables[m.group(1)] = expand(m.group(3) if m.group(3) is not None else m.group(2),
                                           variables)
            continue
        out.append((start, line, dict(variables)))
    return out


def expand(command, variables):
    """The command with the doc's own variables ($W, ${W}) replaced by their values."""
    return re.sub(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?",
                  lambda m: variables.get(m.group(1), m.group(0)), command)


docs = [os.path.join(repo, "README.md")] + sorted(glob.glob(os.path.join(repo, "docs", "*.md")))
documented = {}  # command -> [(file:line, variables)]
for path in docs:
    for number, command, variables in doc_commands(path):
        documented.setdefault(command, []).append(
            (f"{os.path.relpath(path, repo)}:{number}", variables))

table = tomllib.load(open(table_path, "rb"))["command"]
covered = set()
for i, entry in enumerate(table):
    entry["docs"] = [entry["doc"]] if isinstance(entry["doc"], str) else entry["doc"]
    for doc in entry["docs"]:
        check(doc in documented, f"doc_commands.toml entry {i + 1}: no doc shows `{doc}` any more")
        check(doc not in covered, f"doc_commands.toml: `{doc}` has two entries")
        covered.add(doc)
    checks = [k for k in ("stdout", "stderr", "file", "flags_in_help") if k in entry]
    check(len(checks) == 1, f"entry `{entry['docs'][0]}`: one of stdout, stderr, file, "
          f"flags_in_help, got {checks}")
    check(("run" not in entry and "flags_in_help" not in entry) or entry.get("why"),
          f"entry `{entry['docs'][0]}`: a command run otherwise than shown needs a `why`")
for command, where in documented.items():
    check(command in covered, f"{where[0][0]}: `{command}` has no entry in doc_commands.toml")

work = tempfile.mkdtemp(prefix="doc-commands-")
root = os.path.join(work, "slotflow")
shutil.copytree(repo, root, symlinks=True,
                ignore=lambda d, names: [n for n in names if n in (".git", "out", "__pycache__")
                                         or (d == repo and n.startswith("build"))])
os.symlink(build, os.path.join(root, "build"))
os.makedirs(os.path.join(work, "shared", "traces"))
if os.path.exists(trace):
    os.symlink(trace, os.path.join(work, "shared", "traces", "FB2010-1Hr-150-0.txt"))
    lines = open(trace).read().splitlines()
    with open(os.path.join(work, "fb-20.txt"), "w") as f:
        f.write("\n".join([f"{lines[0].split()[0]} 20"] + lines[1:21]) + "\n")
# The other traces beside it (SWIM's), where they are.
for other in glob.glob(os.path.join(os.path.dirname(trace), "SWIM-*.tsv")):
    os.symlink(other, os.path.join(work, "shared", "traces", os.path.basename(other)))
env = dict(os.environ, FB20=os.path.join(work, "fb-20.txt"),
           PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])


def shell(command):
    try:
        return subprocess.run(["bash", "-c", command], cwd=root, env=env, capture_output=True,
                              text=True, timeout=600)
    except subprocess.TimeoutExpired as e:
        return subprocess.CompletedProcess(command, -1, e.stdout or "", "timed out after 600 s")


def flags(command):
    return sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", command)))


started = time.time()
for entry in table:
    for doc in entry["docs"]:
        if doc not in documented:
            continue
        where, variables = documented[doc][0]
        command = entry.get("run", expand(doc, variables))
        t0 = time.time()
        if "flags_in_help" in entry:
            r = shell(entry["flags_in_help"])
            text = r.stdout + r.stderr
            missing = [f for f in flags(expand(doc, variables)) if f not in text]
            ok = check(r.returncode == entry.get("exit", 0) and not missing,
                       f"{where}: `{entry['flags_in_help']}` exit {r.returncode}, does not name "
                       f"{missing}: {text[-500:]}")
        else:
            r = shell(command)
            ok = check(r.returncode == entry.get("exit", 0),
                       f"{where}: `{command}` exit {r.returncode}, want {entry.get('exit', 0)}: "
                       f"{r.stderr[-1500:]}")
            if "stdout" in entry or "stderr" in entry:
                stream = "stdout" if "stdout" in entry else "stderr"
                ok = ok and check(re.search(entry[stream], getattr(r, stream), re.M),
                                  f"{where}: `{command}`: {stream} has no /{entry[stream]}/: "
                                  f"{getattr(r, stream)[-1500:]}")
            elif "file" in entry:
                path = os.path.join(root, entry["file"])
                ok = ok and check(os.path.exists(path), f"{where}: `{command}`: no {entry['file']}")
                if ok and "rows" in entry:
                    rows = len(open(path).read().splitlines()) - 1
                    ok = check(rows == entry["rows"], f"{where}: `{command}`: {entry['file']} has "
                               f"{rows} rows, want {entry['rows']}")
                if ok and "contains" in entry:
                    ok = check(re.search(entry["contains"], open(path, errors="replace").read(),
                                         re.M),
                               f"{where}: `{command}`: {entry['file']} has no /{entry['contains']}/")
        print(f"{'ok  ' if ok else 'FAIL'} {time.time() - t0:6.1f} s  {where}  {doc}")
print(f"{len(covered)} documented commands, {time.time() - started:.0f} s")

shutil.rmtree(work)
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
