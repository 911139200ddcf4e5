"""scripts/bootstrap.sh (sourced by ./run and ./test): libraries are found without relying on
PATH, a failed install shows the package manager's own output, and a non-root user whose
libraries are installed goes straight on."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BOOTSTRAP = ROOT / "scripts" / "bootstrap.sh"
#: a normal non-root Debian PATH: no /sbin, no /usr/sbin
USER_PATH = "/usr/local/bin:/usr/bin:/bin"


def _bash(script: str, *, path: str = USER_PATH, prefix: list[str] | None = None
          ) -> subprocess.CompletedProcess:
    env = {"PATH": path, "HOME": os.environ.get("HOME", "/tmp"), "LANG": "C.UTF-8"}
    cmd = [*(prefix or []), "/bin/bash", "-c", f'source "{BOOTSTRAP}"; {script}']
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=60,
                          cwd=ROOT)


def _egl_here() -> bool:
    import ctypes
    try:
        ctypes.CDLL("libEGL.so.1")
        return True
    except OSError:
        return False


needs_egl = pytest.mark.skipif(not _egl_here(), reason="this machine has no libEGL")


@needs_egl
def test_installed_libraries_are_found_with_a_user_PATH_without_sbin():
    out = _bash('echo "missing=[$(_missing_egl)]"')
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "missing=[]"


@needs_egl
def test_without_ldconfig_the_dynamic_loader_answers():
    out = _bash('_ldconfig_bin() { return 1; }; '
                '_have_lib libEGL.so.1 && echo found; '
                '_have_lib libNoSuchLibrary.so.7 || echo absent')
    assert out.stdout.split() == ["found", "absent"], out.stderr


def test_nothing_found_asks_for_every_package():
    out = _bash('_have_lib() { return 1; }; echo "$(_missing_egl)"')
    need = out.stdout.split()
    assert {"libegl1", "libegl-mesa0", "libgl1"} <= set(need)


def test_a_failed_install_prints_apt_gets_own_output():
    script = ('id() { echo 0; }; '
              'apt-get() { echo "E: Unable to locate package $*" >&2; return 100; }; '
              '_apt_install libfoo1; echo "rc=$?"')
    out = _bash(script)
    assert "rc=1" in out.stdout
    assert "E: Unable to locate package" in out.stderr        # apt-get said why
    assert "apt-get install libfoo1 failed" in out.stderr


def test_a_non_root_user_is_told_the_exact_command():
    out = _bash('id() { echo 1000; }; _apt_install libfoo1; echo "rc=$?"')
    assert "rc=1" in out.stdout
    assert "sudo apt-get install -y libfoo1" in out.stderr


@needs_egl
@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None,
                    reason="needs root to drop to another user")
def test_ensure_system_libs_as_a_real_non_root_user_goes_straight_on():
    out = _bash("ensure_system_libs run; echo rc=$?",
                prefix=["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
    assert out.stdout.strip() == "rc=0", out.stderr
    assert "Missing system packages" not in out.stderr


def test_test_bootstrap_installs_chromium_when_missing_and_run_does_not():
    # the gallery's browser test (tests/contract/test_contract_gallery.py) needs it
    stubs = ('_missing_egl() { :; }; _apt_install() { echo "install $*"; }; '
             'command() { [ "$2" = chromium ] && return 1; builtin command "$@"; }; ')
    out = _bash(stubs + "ensure_system_libs test")
    assert "install chromium" in out.stdout, out.stderr
    out = _bash(stubs + "ensure_system_libs run")
    assert "chromium" not in out.stdout


def test_test_bootstrap_installs_the_gltf_validator_into_the_venv_where_node_exists(tmp_path):
    # the glTF export's validator test (tests/contract/test_contract_export.py) needs it
    env = {"PATH": USER_PATH, "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    stubs = ('npm() { echo "npm $*"; }; '
             'command() { case "$2" in node|npm) return 0;; esac; builtin command "$@"; }; ')

    def run(script: str) -> subprocess.CompletedProcess:
        return subprocess.run(["/bin/bash", "-c", f'source "{BOOTSTRAP}"; {script}'],
                              env=env, capture_output=True, text=True, timeout=60,
                              cwd=tmp_path)
    out = run(stubs + "ensure_gltf_validator")
    assert ("npm install --silent --no-audit --no-fund --prefix .venv/gltf-validator "
            "gltf-validator") in out.stderr, out.stderr
    (tmp_path / ".venv/gltf-validator/node_modules/gltf-validator").mkdir(parents=True)
    assert "npm" not in run(stubs + "ensure_gltf_validator").stderr   # kept from before
    no_node = 'command() { case "$2" in node|npm) return 1;; esac; builtin command "$@"; }; '
    (tmp_path / ".venv").rename(tmp_path / "old")
    out = run("npm() { echo called; }; " + no_node + "ensure_gltf_validator; echo rc=$?")
    assert out.stdout.split() == ["rc=0"] and "called" not in out.stderr
