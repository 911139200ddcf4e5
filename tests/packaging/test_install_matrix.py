"""scripts/install_matrix.py with pip faked (no network): the cells, the pip command of a
cell, the blocking package read from pip's error, the table and the exit status."""

from __future__ import annotations

import subprocess
import sys

from scripts import install_matrix as M

NO_WHEEL = ("ERROR: Could not find a version that satisfies the requirement "
            "imgui-bundle<1.92,>=1.6 (from versions: 1.92.5, 1.93.0)\n"
            "ERROR: No matching distribution found for imgui-bundle<1.92,>=1.6\n")


class FakePip:
    """Answers like pip: fails the cells ``failing`` names with NO_WHEEL, records calls."""

    def __init__(self, failing=lambda cmd: False) -> None:
        self.failing = failing
        self.calls: list[tuple[list[str], dict]] = []

    def __call__(self, cmd, env):
        self.calls.append((cmd, env))
        if self.failing(cmd):
            return subprocess.CompletedProcess(cmd, 1, "", NO_WHEEL)
        return subprocess.CompletedProcess(cmd, 0, "Would install ...", "")


def _value(cmd, option):
    return cmd[cmd.index(option) + 1]


def test_twenty_cells_four_pythons_by_five_platforms():
    cells = M.cells()
    assert len(cells) == 20
    assert {c.python for c in cells} == {"3.11", "3.12", "3.13", "3.14"}
    assert set(M.PLATFORMS) == {"linux-x86_64", "linux-aarch64", "windows-amd64",
                                "macos-arm64", "macos-x86_64"}


def test_pip_command_is_a_wheels_only_dry_run_for_the_cell():
    cmd = M.pip_command(M.Cell("3.14", "linux-aarch64"), ["numpy>=1.26"], "/tmp/t")
    assert cmd[:4] == [sys.executable, "-m", "pip", "install"]
    for flag in ("--dry-run", "--ignore-installed", "--only-binary=:all:"):
        assert flag in cmd
    assert _value(cmd, "--python-version") == "3.14"
    assert _value(cmd, "--target") == "/tmp/t"
    tags = [cmd[i + 1] for i, a in enumerate(cmd) if a == "--platform"]
    assert "manylinux_2_28_aarch64" in tags and "manylinux2014_aarch64" in tags
    assert "manylinux_2_17_aarch64" in tags and "manylinux_2_29_aarch64" not in tags
    assert cmd[-1] == "numpy>=1.26"
    mac = M.pip_command(M.Cell("3.11", "macos-arm64"), [], "/t")
    assert [mac[i + 1] for i, a in enumerate(mac) if a == "--platform"] == [
        "macosx_14_0_arm64"]


def test_pip_runs_without_this_machines_pip_config_unless_kept():
    environ = {"PIP_CONSTRAINT": "/etc/c.txt", "PIP_FIND_LINKS": "/opt/wheels",
               "PIP_CERT": "/ca.pem", "HOME": "/h"}
    env = M.pip_env(False, environ)
    assert env["PIP_CONFIG_FILE"] == M.os.devnull
    assert "PIP_CONSTRAINT" not in env and "PIP_FIND_LINKS" not in env
    assert env["PIP_CERT"] == "/ca.pem" and env["HOME"] == "/h"
    assert M.pip_env(True, environ) == environ


def test_requirement_override_replaces_the_same_project():
    deps = ["moderngl>=5.10,<6", "imgui-bundle>=1.6,<1.92", "numpy>=1.26"]
    assert M.override(deps, ["imgui_bundle>=1.92"]) == [
        "moderngl>=5.10,<6", "imgui_bundle>=1.92", "numpy>=1.26"]
    assert M.override(deps, ["platformdirs>=4"])[-1] == "platformdirs>=4"


def test_blocking_package_is_read_from_pips_error():
    assert M.blocking_package(NO_WHEEL) == "imgui-bundle<1.92,>=1.6"
    assert M.blocking_package("ERROR: Cannot install a==1 and b==2 because these package "
                              "versions have conflicting dependencies.") == "a==1 and b==2"
    assert M.blocking_package("ERROR: something else") == ""


def test_failing_cells_make_the_table_and_exit_1(tmp_path, capsys):
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\ndependencies = ["imgui-bundle>=1.6,<1.92", "numpy"]\n',
        encoding="utf-8")
    pip = FakePip(lambda cmd: _value(cmd, "--python-version") == "3.14")
    rc = M.main(["--pyproject", str(tmp_path / "pyproject.toml")], run=pip)
    out = capsys.readouterr().out
    assert rc == 1 and len(pip.calls) == 20
    assert "| cp314-windows-amd64 | FAIL   | imgui-bundle<1.92,>=1.6 |" in out
    assert "| cp311-linux-x86_64  | ok     |" in out
    assert out.rstrip().endswith("15 of 20 cells resolve from wheels; 5 FAIL")
    # rows in cell order: Python version first, then platform
    rows = [ln.split("|")[1].strip() for ln in out.splitlines()[2:22]]
    assert rows == [c.name for c in M.cells()]


def test_all_cells_passing_exit_0_with_the_override(tmp_path, capsys):
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\ndependencies = ["imgui-bundle>=1.6,<1.92"]\n',
        encoding="utf-8")
    pip = FakePip(lambda cmd: "imgui-bundle>=1.6,<1.92" in cmd)
    rc = M.main(["--pyproject", str(tmp_path / "pyproject.toml"), "--python", "3.14",
                 "--requirement-override", "imgui-bundle>=1.92"], run=pip)
    assert rc == 0 and len(pip.calls) == 5
    assert all(cmd[-1] == "imgui-bundle>=1.92" for cmd, _ in pip.calls)
    assert "5 of 5 cells resolve from wheels" in capsys.readouterr().out


def test_unreadable_pyproject_is_usage_error(tmp_path, capsys):
    rc = M.main(["--pyproject", str(tmp_path / "missing.toml")], run=FakePip())
    assert rc == 2 and "missing.toml" in capsys.readouterr().err


def test_the_checkouts_pyproject_is_read():
    deps = M.project_dependencies(M.ROOT / "pyproject.toml")
    assert any(M.requirement_name(d) == "imgui-bundle" for d in deps)
    assert any(M.requirement_name(d) == "moderngl" for d in deps)
