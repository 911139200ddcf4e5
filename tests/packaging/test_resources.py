"""viewer.resources: the one place that finds the shaders and the synthetic library, and the
one-line error when they are missing."""

from __future__ import annotations

import pytest

from viewer import resources as R
from viewer.cli import main
from viewer.ui.session import open_session


def test_from_a_checkout_the_repository_folders_are_used():
    # tests run from a checkout (PYTHONPATH or an editable install): same folders either way
    assert R.shaders_dir() == R.CHECKOUT / "shaders"
    assert R.assets_dir() == R.CHECKOUT / "assets_synthetic"
    assert R.shader_path("grid.vert.glsl").is_file()
    assert R.asset_path("synthetic_portal.dat").is_file()


def test_a_missing_file_is_a_ResourceError_naming_it():
    with pytest.raises(R.ResourceError) as err:
        R.shader_path("nope.glsl")
    assert err.value.file.endswith("nope.glsl") and "\n" not in str(err.value)


def test_neither_package_nor_checkout_folder_is_a_ResourceError(monkeypatch, tmp_path):
    # an editable install exposes viewer.shaders as a package: hide it as a broken install would
    def no_package(name):
        raise ModuleNotFoundError(name)
    monkeypatch.setattr(R.importlib.resources, "files", no_package)
    monkeypatch.setattr(R, "CHECKOUT", tmp_path)
    with pytest.raises(R.ResourceError, match="shaders are missing"):
        R._folder("viewer.shaders")


def test_open_session_without_the_default_assets_raises_instead_of_returning_None(
        monkeypatch, tmp_path):
    monkeypatch.setattr(R, "assets_dir", lambda: tmp_path)
    with pytest.raises(R.ResourceError) as err:
        open_session()
    assert "synthetic_portal.dat" in str(err.value)


def test_screenshot_without_the_default_assets_is_one_line_exit_1(monkeypatch, tmp_path,
                                                                   capsys):
    monkeypatch.setattr(R, "assets_dir", lambda: tmp_path)
    assert main(["screenshot", "--out", str(tmp_path / "x.png")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("vfxviewer: ") and "reinstall" in err[0]
    assert not (tmp_path / "x.png").exists()
