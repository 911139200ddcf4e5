"""``vfxviewer gallery`` (docs/cli.md section 12) on the synthetic library: one entry per
PhysicsScript, thumbnails that animate, a rerun that skips what is done, a run interrupted
with Ctrl-C and continued, a script whose record is corrupt named with exit 1 while the
others are written, FILTER by DID prefix / PlayScript name / hook type, the Setup chosen per
script, and index.html in headless Chromium (sorted by a click, filtered, screenshot).

The whole gallery is rendered once per module (64x64, 1 s, --jobs 2), as a user runs it."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.conftest import ARTIFACTS
from tests.contract.conftest import SYN, VFXVIEWER, assert_usage_error, run_process
from viewer import synthetic as S
from viewer.dat.container import DatCollection, DatFile
from viewer.dat.writer import build_dat

SMALL = ("--size", "64x64", "--seconds", "1")
SLOWER = ("--size", "64x64", "--seconds", "2")     # 15 scripts well after the first
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and terminals")


def _scripts(dat=SYN) -> list[str]:
    with DatFile(dat) as f:
        return [f"0x{d:08X}" for d in f.dids() if d >> 24 == 0x33]


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    """The cross-reference index's cache, never the user's; the particle kernels on numpy
    (a fresh cache folder would compile the numba kernels first: same results, 20 s)."""
    return {"XDG_CACHE_HOME": str(tmp_path_factory.mktemp("cache")),
            "VIEWER_PARTICLE_KERNEL": "0"}


@pytest.fixture(scope="module")
def gallery(tmp_path_factory, cache):
    out = tmp_path_factory.mktemp("gallery")
    r = run_process("gallery", SYN, "--out", out, *SMALL, "--jobs", "2", env=cache)
    assert r.rc == 0, r
    return out


def _manifest(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))


def _rows(page: str) -> list[str]:
    return re.findall(r'<tr[^>]*data-did="(0x[0-9A-F]{8})"', page)


def test_every_script_is_an_entry_with_a_thumbnail_and_a_poster(gallery):
    scripts = _scripts()
    m = _manifest(gallery)
    assert sorted(m["scripts"]) == scripts and m["failed"] == {}
    page = (gallery / "index.html").read_text(encoding="utf-8")
    assert sorted(_rows(page)) == scripts
    for row in m["scripts"].values():
        assert (gallery / row["thumb"]).is_file() and (gallery / row["poster"]).is_file()
    assert "http://" not in page and "https://" not in page   # works with no network


def test_thumbnails_animate_and_the_poster_is_the_busiest_frame(gallery):
    import numpy as np
    from PIL import Image, ImageSequence
    m = _manifest(gallery)
    busy = [r for r in m["scripts"].values() if r["peak_particles"] > 0]
    assert len(busy) >= 10
    animated = set()
    for row in busy:
        with Image.open(gallery / row["thumb"]) as gif:
            assert gif.info.get("loop") == 0                  # loops forever
            frames = [np.asarray(f.convert("RGB")) for f in ImageSequence.Iterator(gif)]
        assert len(frames) == row["frames"] == 21             # 1 s at 20 fps, t = 0 included
        if len({f.tobytes() for f in frames}) > 1:
            animated.add(int(row["did"], 16))
        with Image.open(gallery / row["poster"]) as png:
            assert png.size == (64, 64)
            poster = np.asarray(png.convert("RGB"))
        # the busiest frame: at least as much drawn as in the GIF's first frame
        assert len(np.unique(poster.reshape(-1, 3), axis=0)) >= 2
    # a few live particles can be too small to see at 64x64; the bursts all move
    assert {S.PES_EXPLODE, S.PES_EMITTER_GALLERY, S.PES_STRESS, S.PES_EXPLODE_MEDIUM} <= animated
    assert len(animated) >= len(busy) * 3 // 4
    stress = m["scripts"][f"0x{S.PES_STRESS:08X}"]
    assert stress["emitters"] == 10 and stress["peak_particles"] >= 2000


def test_figures_come_from_the_run_and_the_uses_from_the_tables(gallery):
    m = _manifest(gallery)
    sound = m["scripts"][f"0x{S.PES_SOUND:08X}"]
    assert sound["sounds"] >= 2 and sound["waves"]
    launch = m["scripts"][f"0x{S.PES_LAUNCH_SMALL:08X}"]
    assert launch["duration"] == 0.0 and launch["hooks"] >= 1
    page = (gallery / "index.html").read_text(encoding="utf-8")
    row = re.search(rf'<tr data-did="0x{S.PES_LAUNCH_SMALL:08X}".*?</tr>', page).group(0)
    assert "Launch" in row and f"0x{S.PST_FLAME:08X}" in row       # used as, by which table
    row = re.search(rf'<tr data-did="0x{S.PES_LANTERN_DEFAULT:08X}".*?</tr>', page).group(0)
    assert "DefaultScript" in row and f"0x{S.SETUP_LANTERN:08X}" in row


def test_a_script_naming_parts_plays_on_a_setup_with_enough_parts(gallery):
    from viewer.dat.database import AssetDatabase
    from viewer.synthetic.stand import stand_dat
    m = _manifest(gallery)
    lantern = m["scripts"][f"0x{S.PES_LANTERN_DEFAULT:08X}"]     # its flame is on part 2
    assert lantern["parts_needed"] == 3 and lantern["stand"]
    plain = m["scripts"][f"0x{S.PES_EMPTY:08X}"]
    assert plain["parts_needed"] == 0
    with DatCollection([SYN]) as c:
        from viewer.synthetic.stand import free_base
        stand = free_base(c)
        db = AssetDatabase(DatCollection([*c.files, stand_dat(stand)]))
        assert db.setup(int(lantern["setup"], 16)).num_parts == 3
        assert db.setup(int(plain["setup"], 16)).num_parts == 1


def test_each_script_is_framed_unless_a_distance_is_given(gallery):
    m = _manifest(gallery)
    ring = m["scripts"][f"0x{S.PES_STRESS:08X}"]["camera"]       # a 2 m ring of emitters
    bare = m["scripts"][f"0x{S.PES_EMPTY:08X}"]["camera"]        # the stand alone
    assert bare["target"] == [0.0, 0.0, 0.0] and bare["distance"] < 2.0
    assert ring["distance"] > 2 * bare["distance"]


def test_a_rerun_skips_every_finished_script(gallery, cache):
    thumb = gallery / "thumbs" / f"0x{S.PES_STRESS:08X}.gif"
    before = thumb.stat().st_mtime_ns
    r = run_process("gallery", SYN, "--out", gallery, *SMALL, "--jobs", "2", env=cache)
    assert r.rc == 0, r
    n = len(_scripts())
    assert f"{n} of {n} scripts already" in r.err
    assert thumb.stat().st_mtime_ns == before


def test_a_rerun_removes_the_partial_files_a_killed_run_left(gallery, cache, tmp_path):
    """The manifest and index.html are written as the pictures are (viewer.media.replacing:
    a hidden .NAME.partial.EXT renamed): a rerun removes what a kill left of any of them."""
    out = tmp_path / "g"
    shutil.copytree(gallery, out)
    assert not list(out.rglob(".*"))                     # a finished run leaves none
    stale = [out / ".manifest.partial.json", out / ".index.partial.html",
             out / "thumbs" / f".0x{S.PES_STRESS:08X}.partial.gif"]
    for p in stale:
        p.write_bytes(b"half")
    r = run_process("gallery", SYN, "--out", out, *SMALL, "--jobs", "2", env=cache)
    assert r.rc == 0, r
    assert not list(out.rglob(".*"))
    assert (out / "index.html").is_file() and _manifest(out)["scripts"]


def test_an_interrupted_run_continues_where_it_stopped(tmp_path, cache):
    out = tmp_path / "g"
    argv = [str(VFXVIEWER) if VFXVIEWER.exists() else sys.executable, *(
        [] if VFXVIEWER.exists() else ["-m", "viewer"]),
        "gallery", str(SYN), "--out", str(out), *SLOWER, "--jobs", "1", "--only", "0x3300010"]
    p = subprocess.Popen(argv, env={**os.environ, **cache}, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    done: dict = {}
    while time.monotonic() < deadline and p.poll() is None:
        if (out / "index.html").is_file():   # written with the manifest while the run goes on
            done = _rows((out / "index.html").read_text(encoding="utf-8"))
            if done:         # the first finished script is recorded at once
                break
        time.sleep(0.05)
    assert done and p.poll() is None
    p.send_signal(signal.SIGINT)                         # Ctrl-C
    err = p.communicate(timeout=60)[1]
    assert p.returncode == 130, err
    assert "Traceback" not in err
    first = _manifest(out)["scripts"]
    total = len([d for d in _scripts() if d.startswith("0x3300010")])     # 15
    assert 1 <= len(first) < total
    for row in first.values():                           # consistent: every entry is whole
        assert (out / row["thumb"]).is_file() and (out / row["poster"]).is_file()
    assert not list(out.rglob(".*partial*"))
    assert sorted(_rows((out / "index.html").read_text(encoding="utf-8"))) == sorted(first)
    times = {d: (out / row["thumb"]).stat().st_mtime_ns for d, row in first.items()}
    r = run_process("gallery", SYN, "--out", out, *SLOWER, "--jobs", "1", "--only",
                    "0x3300010", env=cache)
    assert r.rc == 0, r
    assert f"{len(first)} of {total} scripts already" in r.err
    assert f"rendering the other {total - len(first)}" in r.err
    assert len(_manifest(out)["scripts"]) == total
    assert {d: (out / first[d]["thumb"]).stat().st_mtime_ns for d in first} == times


def test_progress_is_shown_on_a_terminal_only(tmp_path, cache, gallery):
    import fcntl
    import pty
    import struct
    import termios
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))  # 100 columns
    argv = [str(VFXVIEWER) if VFXVIEWER.exists() else sys.executable, *(
        [] if VFXVIEWER.exists() else ["-m", "viewer"]),
        "gallery", str(SYN), "--out", str(tmp_path / "g"), *SMALL, "--jobs", "1", "--only",
        f"0x{S.PES_EXPLODE:08X}"]
    p = subprocess.Popen(argv, env={**os.environ, **cache}, stderr=slave,
                         stdout=subprocess.DEVNULL)
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:          # the terminal closed: the command ended
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    assert p.wait(timeout=60) == 0
    assert b"gallery" in seen and b"1/1" in seen, seen
    # not a terminal (the module's run): no progress bar in its stderr
    r = run_process("gallery", SYN, "--out", gallery, *SMALL, "--jobs", "2", env=cache)
    assert "script/s" not in r.err and "1/1" not in r.err


def _dat_with_corrupt_script(path: Path, did: int) -> Path:
    with DatFile(SYN) as f:
        records = {d: f.read(d) for d in f.dids()}
    records[did] = records[did][:10]                      # cut inside its hook list
    path.write_bytes(build_dat(records))
    return path


def test_a_corrupt_script_is_named_exit_1_and_the_rest_are_written(tmp_path, cache):
    bad = f"0x{S.PES_EXPLODE_MEDIUM:08X}"
    dat = _dat_with_corrupt_script(tmp_path / "bad.dat", S.PES_EXPLODE_MEDIUM)
    out = tmp_path / "g"
    r = run_process("gallery", dat, "--out", out, *SMALL, "--jobs", "2", "--only",
                    "0x3300010", "--setup", f"0x{S.SETUP_MARKER:08X}", "--distance", "3",
                    env=cache)
    assert r.rc == 1, r
    assert "Traceback" not in r.err
    named = [ln for ln in r.err_lines if bad in ln]
    assert named and "bad.dat" in named[0] and "offset" in named[0], r.err
    m = _manifest(out)
    assert list(m["failed"]) == [bad] and len(m["scripts"]) == 14
    assert all(row["setup"] == f"0x{S.SETUP_MARKER:08X}" for row in m["scripts"].values())
    assert all(row["camera"] == {"target": None, "distance": 3.0}
               for row in m["scripts"].values())
    page = (out / "index.html").read_text(encoding="utf-8")
    assert len(_rows(page)) == 15 and 'class="failed"' in page


def _no_setup(*_args) -> None:
    pass


def _crash_on_5(job) -> dict:
    """A task whose worker dies on scripts ending in 5 (a driver crash, the OOM killer)."""
    if job.did & 0xF == 5:
        os._exit(3)
    return {"did": f"0x{job.did:08X}"}


def test_a_script_that_kills_its_worker_is_one_failure_and_the_rest_render():
    from viewer.commands.gallery import Job, Pool, run_pool
    jobs = [Job(0x33000100 + k, "unused", (8, 8), 1.0, 3.0, None, 0) for k in range(8)]
    results: list[dict] = []
    run_pool(jobs, Pool(2, _no_setup, (), _crash_on_5), results.append)
    assert [r["did"] for r in results if "error" in r] == ["0x33000105"]
    assert "worker process ended" in next(r["error"] for r in results if "error" in r)
    assert sorted(r["did"] for r in results) == [f"0x{j.did:08X}" for j in jobs]


def test_filter_by_did_prefix_playscript_name_and_hook_type():
    from viewer.commands.gallery import select_scripts
    from viewer.dat.xref import build_index
    from viewer.errors import UsageError
    with DatCollection([SYN]) as c:
        index = build_index(c)
        scripts = [d for d in c.dids() if d >> 24 == 0x33]
    prefix = select_scripts(scripts, "0x3300010", index)
    assert prefix == [d for d in scripts if 0x33000100 <= d <= 0x3300010F]
    assert select_scripts(scripts, "3300010", index) == prefix       # 0x optional
    launch = select_scripts(scripts, "Launch", index)
    assert {S.PES_LAUNCH_SMALL, S.PES_LAUNCH_TRAIL, S.PES_LAUNCH_LARGE} <= set(launch)
    assert S.PES_EXPLODE_SMALL not in launch
    calls = select_scripts(scripts, "CallPES", index)
    assert {S.PES_CALLPES_CHAIN, S.PES_CHAIN_LINK_A} <= set(calls)
    assert S.PES_EMPTY not in calls
    with pytest.raises(UsageError):
        select_scripts(scripts, "NoSuchName", index)


@pytest.mark.parametrize("argv", [["--jobs", "0"], ["--seconds", "0"], ["--size", "0x5"],
                                  ["--only", "NoSuchName"], ["--only", "0x34"]])
def test_bad_usage_exits_2(tmp_path, cache, argv):
    r = run_process("gallery", SYN, "--out", tmp_path / "g", *argv, env=cache)
    assert_usage_error(r)


# --- index.html in a real browser ---------------------------------------------------------------
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--virtual-time-budget=3000"]


def _chromium(*args) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args],
                              capture_output=True, text=True, timeout=60, check=False)


def _visible(dom: str) -> list[tuple[str, str]]:
    """(DID, the row's html) of each body row not hidden, in page order."""
    rows = re.findall(r'(<tr[^>]*data-did="(0x[0-9A-F]{8})"[^>]*>.*?</tr>)', dom, re.S)
    return [(did, row) for row, did in rows if "hidden" not in row.split(">", 1)[0]]


def _peak(row: str) -> int:
    return int(re.search(r'data-key="peak" class="num">(\d+)<', row).group(1))


@pytest.mark.skipif(CHROMIUM is None, reason="needs chromium (./test installs it)")
def test_index_sorts_filters_and_draws_in_chromium(gallery):
    from PIL import Image
    url = (gallery / "index.html").as_uri()
    dom = _chromium("--dump-dom", url + "?sort=peak&desc=1").stdout
    rows = _visible(dom)
    assert len(rows) == len(_scripts())
    peaks = [_peak(r) for _, r in rows]
    assert peaks == sorted(peaks, reverse=True) and peaks[0] >= 2000   # clicked twice: down
    assert 'data-key="peak" class="sorted desc"' in dom
    dom = _chromium("--dump-dom", url + "?sort=did&filter=explode").stdout
    rows = _visible(dom)
    assert rows and len(rows) < len(_scripts())
    assert all("Explode" in r for _, r in rows)
    assert [d for d, _ in rows] == sorted(d for d, _ in rows)
    assert re.search(rf">{len(rows)} of {len(_scripts())} scripts<", dom)
    shot = ARTIFACTS / "gallery" / "index.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    shot.unlink(missing_ok=True)
    _chromium("--window-size=1000,700", f"--screenshot={shot}", url + "?sort=peak&desc=1")
    with Image.open(shot) as im:
        assert im.size == (1000, 700)
        assert len(im.convert("RGB").getcolors(1 << 16) or ()) > 50         # a page, not a blank
