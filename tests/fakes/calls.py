"""Top-level functions for worker tests: each misbehaves in one way."""
from __future__ import annotations

import os
import signal
import time


def add(a, b):
    return a + b


def pid():
    return os.getpid()


def boom(msg="boom"):
    raise ValueError(msg)


def segfault():
    os.kill(os.getpid(), signal.SIGSEGV)
    time.sleep(10)


def abort():
    os.abort()


def hard_exit(code=7):
    os._exit(code)


def sys_exit():
    raise SystemExit(3)


def hang(seconds=3600.0):
    time.sleep(seconds)
    return "woke"


def sleep_then(seconds, value):
    time.sleep(seconds)
    return value


def unpicklable_result():
    return lambda: None


def state():
    from looptx.runtime.worker import in_worker, worker_state
    return in_worker(), worker_state()


def make_state(x):
    return {"x": x}


def bad_init():
    raise RuntimeError("cannot init")


def compile_forever(pid_file):
    """A compiler that runs long: a shell and its own child, as gcc runs cc1."""
    import subprocess
    subprocess.run(["sh", "-c", f"sleep 3600 & echo $! > {pid_file}; wait"])


def environment(name):
    """What a child sees: an environment variable, its folder and its temporary folder."""
    import tempfile
    return os.environ.get(name), os.getcwd(), tempfile.gettempdir()
