"""The suite cannot hang and cannot pass by luck: the pytest configuration turns a hanging
test into a failure with its stack, and Hypothesis runs under a named profile (derandomized
in CI, fresh random examples locally)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import tomllib
from pathlib import Path

from hypothesis import settings

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "pyproject.toml"

_HANGING = '''
def _spin():
    n = 0
    while True:  # HANG-HERE
        n += 1


def test_hangs_forever():
    _spin()


def test_after_the_hang_still_runs():
    assert True
'''


def _pytest(tmp_path: Path, *opts: str, timeout: float = 60
            ) -> tuple[subprocess.CompletedProcess, float]:
    test = tmp_path / "test_hang_example.py"
    test.write_text(_HANGING)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    t0 = time.monotonic()
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(CONFIG), "--rootdir", str(tmp_path),
         "-p", "no:cacheprovider", *opts, str(test)],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=timeout)
    return out, time.monotonic() - t0


def test_the_configured_timeout_is_a_per_test_limit_with_a_stack():
    ini = tomllib.loads(CONFIG.read_text())["tool"]["pytest"]["ini_options"]
    assert 0 < ini["timeout"] <= 120
    assert ini["timeout_method"] == "signal"        # a failure with the stack, the run goes on
    assert ini["faulthandler_timeout"] > ini["timeout"]
    assert ini["faulthandler_exit_on_timeout"] is True


def test_a_hanging_test_fails_with_its_stack_within_the_timeout(tmp_path):
    """The repository's own configuration, with the limit shortened to 2 s: the hanging test
    fails, its report shows the stack down to the spinning line, the next test still runs."""
    out, took = _pytest(tmp_path, "-o", "timeout=2")
    text = out.stdout + out.stderr
    assert out.returncode == 1, text
    assert "Timeout" in text and "test_hangs_forever" in text
    assert "_spin()" in text and "HANG-HERE" in text       # the stack reaches the loop
    assert "1 failed, 1 passed" in text
    assert took < 40


def test_a_hang_out_of_reach_of_the_signal_ends_the_process_with_every_stack(tmp_path):
    """The backstop for a hang the SIGALRM handler cannot interrupt (C code that never
    returns): faulthandler dumps all thread stacks and ends the process. Shown here with
    the signal timeout switched off."""
    out, took = _pytest(tmp_path, "-o", "timeout=0", "-o", "faulthandler_timeout=2")
    text = out.stdout + out.stderr
    assert out.returncode != 0, text
    assert "Timeout (0:00:02)!" in text and "_spin" in text
    assert took < 40


def test_hypothesis_profile_is_dev_locally_and_ci_when_CI_is_set(request):
    chosen = request.config.getoption("--hypothesis-profile")
    expected = chosen or ("ci" if os.environ.get("CI") else "dev")
    assert settings.get_current_profile_name() == expected
    ci, dev = settings.get_profile("ci"), settings.get_profile("dev")
    assert ci.derandomize and ci.database is None
    assert not dev.derandomize and dev.max_examples > ci.max_examples


def test_CI_in_the_environment_selects_the_derandomized_profile():
    code = ("import tests.conftest; from hypothesis import settings; "
            "print(settings.get_current_profile_name(), settings.default.derandomize, "
            "settings.get_profile('dev').derandomize)")
    # "dev" stays random even when CI is set (Hypothesis then preloads its own CI profile)
    for ci, want in (("1", "ci True False"), ("", "dev False False")):
        env = {k: v for k, v in os.environ.items() if k != "CI"}
        if ci:
            env["CI"] = ci
        env["PYTHONPATH"] = str(ROOT)
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=env, cwd=ROOT, timeout=60)
        assert out.stdout.strip() == want, out.stderr


def test_ci_runs_the_whole_suite_derandomized():
    """.ci/run is ./test (the whole suite, wheel test included) with CI set."""
    text = (ROOT / ".ci" / "run").read_text()
    assert 'export CI="${CI:-1}"' in text and text.rstrip().endswith("./test")
    assert (ROOT / "tests" / "packaging" / "test_wheel.py").is_file()
    ini = tomllib.loads(CONFIG.read_text())["tool"]["pytest"]["ini_options"]
    assert ini["testpaths"] == ["tests"]
