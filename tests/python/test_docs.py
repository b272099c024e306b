"""docs/python.md's ```python blocks each run as shown on their own (imports included, a fresh
namespace each, in a scratch directory), and its printed error is the one the doc's comment
shows. The testbed's block runs as root only (on a testbed of its own)."""
import contextlib
import io
import os
import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "python.md"


def blocks():
    return re.findall(r"^```python\n(.*?)^```", DOC.read_text(), flags=re.S | re.M)


def test_every_python_block_of_the_doc_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    found = blocks()
    assert len(found) >= 12
    printed = io.StringIO()
    for number, code in enumerate(found, 1):
        namespace = {}
        if "slotflow.live(" in code:
            # The testbed needs root; as root, on a testbed of the test's own.
            if os.geteuid() != 0:
                continue
            code = code.replace("slotflow.live(", "slotflow.live(testbed_prefix='sfd', ")
        with contextlib.redirect_stdout(printed):
            exec(compile(code, f"{DOC}:block {number}", "exec"), namespace)
    assert os.path.getsize(tmp_path / "compare.png") > 0
    if os.geteuid() == 0:  # the testbed's run placed tasks by the doc's scheduler
        assert re.search(r"^[1-9]\d* placements$", printed.getvalue(), flags=re.M)
    shown = re.search(r"print\(e\.field, \"—\", e\.message\)\s+# (.*)", found[-1]).group(1)
    assert printed.getvalue().rstrip().endswith(shown)
