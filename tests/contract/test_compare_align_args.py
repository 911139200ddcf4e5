"""``compare ... --align [motion|audio]``: the mode is optional, so the DAT positional may
follow the flag (``compare --align DAT --setup ...``, docs/cli.md "Other commands") and is
still the DAT; a word that is neither a mode nor an existing file is a usage error (exit 2)
naming the choices."""

from __future__ import annotations

import json

import pytest

from viewer.cli import build_parser
from viewer.commands.compare import take_align_dat

from .test_bounds import HUMANOID, SYN, usage_error, vfx


def _parse(*argv):
    args = build_parser().parse_args(["compare", *map(str, argv)])
    ok = take_align_dat(args, "vfxviewer compare")
    return ok, args


@pytest.mark.parametrize("argv, dat, align", [
    (["--align", SYN, "--setup", "1"], SYN, "motion"),
    ([SYN, "--align", "--setup", "1"], SYN, "motion"),
    ([SYN, "--setup", "1", "--align"], SYN, "motion"),
    (["--setup", "1", "--align", SYN], SYN, "motion"),
    (["--align", "audio", SYN, "--setup", "1"], SYN, "audio"),
    ([SYN, "--align", "motion", "--setup", "1"], SYN, "motion"),
    (["--setup", "1", SYN], SYN, None),
])
def test_align_takes_an_optional_mode_and_leaves_the_DAT_positional_alone(argv, dat, align):
    ok, args = _parse(*argv)
    assert ok and args.dat == dat and args.align == align
    assert "align_dat" not in vars(args)


def test_a_misspelt_mode_or_a_second_DAT_after_align_is_a_usage_error(capsys):
    ok, _ = _parse("--align", "motoin", "--setup", "1")
    assert not ok and "invalid choice: 'motoin'" in capsys.readouterr().err
    ok, _ = _parse("--align", SYN, SYN, "--setup", "1")
    assert not ok and "--align" in capsys.readouterr().err


def test_compare_with_the_DAT_right_after_align_runs(tmp_path):
    from PIL import Image
    (tmp_path / "rec").mkdir()
    Image.new("RGB", (16, 16)).save(tmp_path / "rec" / "0001.png")
    r = vfx("compare", "--align", SYN, "--setup", HUMANOID, "--seconds", "0", "--size",
            "16x16", "--reference", tmp_path / "rec", "--json", tmp_path / "f.json")
    assert r.rc == 0, r
    assert json.loads((tmp_path / "f.json").read_text())


def test_compare_align_with_a_misspelt_mode_exits_2_before_any_work(tmp_path):
    r = vfx("compare", "--align", "motoin", "--setup", HUMANOID, "--seconds", "0",
            "--size", "16x16", "--reference", tmp_path, "--json", tmp_path / "f.json")
    usage_error(r, "--align", "motoin")
    assert not (tmp_path / "f.json").exists()
