"""Nothing POSIX-only on a runtime path of ``viewer/``: the viewer runs on Windows, macOS
and Linux. The scan reads every module (``ast``; nothing imported) for

- modules that exist only on POSIX (fcntl, resource, termios, pwd, grp, pty, tty, posix);
- ``os`` / ``signal`` names a platform lacks (fork, alarm, SIGALRM, O_NONBLOCK, getuid...)
  used directly (``getattr(os, "O_NONBLOCK", 0)`` is the portable form and passes);
- string constants naming ``/dev``, ``/proc`` or ``/tmp`` paths (docstrings aside);
- paths joined as strings: ``"/".join``, ``x + "/"``, an f-string with ``/`` between two
  values.

A use that is guarded, or is no path at all, is listed in ALLOWED with the reason."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VIEWER = ROOT / "viewer"

POSIX_MODULES = {"fcntl", "resource", "termios", "pwd", "grp", "pty", "tty", "posix",
                 "crypt", "spwd", "syslog"}
POSIX_NAMES = {
    "os": {"fork", "forkpty", "getuid", "geteuid", "getgid", "getegid", "setsid", "setpgid",
           "getpgid", "killpg", "mkfifo", "mknod", "O_NONBLOCK", "O_NOFOLLOW", "O_CLOEXEC",
           "uname", "nice", "sched_getaffinity", "statvfs", "pipe2", "wait3", "wait4",
           "WNOHANG", "sync", "getloadavg", "chown", "lchown", "openpty", "ttyname"},
    "signal": {"alarm", "setitimer", "getitimer", "ITIMER_REAL", "SIGALRM", "SIGKILL",
               "SIGHUP", "SIGUSR1", "SIGUSR2", "SIGQUIT", "SIGPIPE", "SIGCHLD", "SIGSTOP",
               "SIGCONT", "pause", "pthread_kill", "pthread_sigmask", "siginterrupt"},
}
POSIX_PATHS = ("/dev/", "/proc/", "/tmp/", "/dev", "/proc", "/tmp")

#: (file relative to the repository, what was found) -> why it is fine
ALLOWED: dict[tuple[str, str], str] = {
    ("viewer/ui/emitters_panel.py", "f-string '/'"):
        "alive/emitted/total counts shown in a table cell, not a path",
    ("viewer/ui/layout.py", "f-string '/'"):
        "an ImGui table id (window name / table id), not a path",
    ("viewer/dat/records/sound.py", "f-string '/'"):
        "an error message showing two sizes, not a path",
    ("viewer/sim/audit.py", "f-string '/'"):
        "an audit message showing style / substate, not a path",
    ("viewer/ui/timeline.py", "f-string '/'"):
        "the timeline's frame / total frames text, not a path",
}


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the Constant nodes that are docstrings (or other bare string statements)."""
    return {id(node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}


def _is_slash(node: ast.AST) -> bool:
    return (isinstance(node, ast.Constant) and isinstance(node.value, str)
            and node.value and (node.value.startswith("/") or node.value.endswith("/")))


def _slash_between_values(node: ast.JoinedStr) -> bool:
    parts = node.values
    return any(isinstance(parts[i], ast.FormattedValue) and isinstance(parts[i + 2],
                                                                     ast.FormattedValue)
               and isinstance(parts[i + 1], ast.Constant) and parts[i + 1].value == "/"
               for i in range(len(parts) - 2))


#: a file matching none of this cannot hold a finding (only those are parsed: the suite
#: stays fast)
MAYBE = re.compile(r"\b(" + "|".join(sorted(POSIX_MODULES)) + r")\b|\bos\.|\bsignal\b"
                   r"|from os import|[\"']/|/[\"']|\}/\{")


def findings(path: Path) -> list[tuple[int, str]]:
    text = path.read_text(encoding="utf-8")
    if not MAYBE.search(text):
        return []
    tree = ast.parse(text)
    docs = _docstrings(tree)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, f"import {a.name}") for a in node.names
                      if a.name.split(".")[0] in POSIX_MODULES]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] in POSIX_MODULES:
                found.append((node.lineno, f"import {node.module}"))
            for a in node.names:
                if a.name in POSIX_NAMES.get(node.module, ()):
                    found.append((node.lineno, f"{node.module}.{a.name}"))
        elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
              and node.attr in POSIX_NAMES.get(node.value.id, ())):
            found.append((node.lineno, f"{node.value.id}.{node.attr}"))
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and id(node) not in docs and node.value.startswith(POSIX_PATHS)):
            found.append((node.lineno, f"path {node.value!r}"))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "join" and _is_slash(node.func.value)):
            found.append((node.lineno, "'/'.join"))
        elif (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)
              and (_is_slash(node.left) or _is_slash(node.right))):
            found.append((node.lineno, "+ '/'"))
        elif isinstance(node, ast.JoinedStr) and _slash_between_values(node):
            found.append((node.lineno, "f-string '/'"))
    return sorted(found)


def test_nothing_posix_only_on_a_runtime_path():
    offenders = []
    used = set()
    for path in sorted(VIEWER.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for line, what in findings(path):
            if (rel, what) in ALLOWED:
                used.add((rel, what))
            else:
                offenders.append(f"{rel}:{line}: {what}")
    assert offenders == []
    assert set(ALLOWED) - used == set(), "allow-list entries that no longer match"


def test_the_scan_finds_what_it_looks_for(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        '"""docstring naming /dev/full is fine"""\n'
        "import fcntl\nimport os\nimport signal\nfrom os import fork\n"
        "signal.alarm(1)\nos.open('x', os.O_RDONLY | os.O_NONBLOCK)\n"
        "ok = getattr(os, 'O_NONBLOCK', 0)\n"
        "p = '/dev/null'\nq = folder + '/' + name\nr = '/'.join(parts)\n"
        "s = f'{folder}/{name}'\nt = f'{a} / {b}'\n", encoding="utf-8")
    assert [what for _, what in findings(bad)] == [
        "import fcntl", "os.fork", "signal.alarm", "os.O_NONBLOCK", "path '/dev/null'",
        "+ '/'", "'/'.join", "f-string '/'"]
    assert [line for line, _ in findings(bad)] == [2, 5, 6, 7, 9, 10, 11, 12]
