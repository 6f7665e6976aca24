"""Every bad input: exit code 2, exactly one line `FILE:LINE:COL: error: ...` on stderr."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

BAD = sorted((Path(__file__).parent / "bad").glob("*.c"))


def run_cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "looptx", *args], capture_output=True, text=True, cwd=cwd)


@pytest.mark.parametrize("path", BAD, ids=[p.stem for p in BAD])
def test_bad_input(path):
    m = re.match(r"//\s*expect:\s*(\d+):(\d+)\s+(\S+)", path.read_text().splitlines()[0])
    line, col, word = int(m.group(1)), int(m.group(2)), m.group(3)
    proc = run_cli("transform", str(path))
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    msg = lines[0]
    assert msg.startswith(f"{path}:{line}:{col}: error: "), msg
    assert word in msg.lower(), msg
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""


def test_corpus_size():
    assert len(BAD) >= 15


def test_no_region_is_exit_2(tmp_path):
    f = tmp_path / "plain.c"
    f.write_text("int main(void) { return 0; }\n")
    proc = run_cli("transform", str(f))
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    assert "region" in proc.stderr and "--function" in proc.stderr


def test_missing_file_is_exit_2(tmp_path):
    proc = run_cli("deps", str(tmp_path / "nope.c"))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
