"""Check a user's DAT files against the retail facts (``vfxviewer audit``, GUI Audit panel).

Every fact of ``viewer.dat.retail_facts`` becomes one check with a status:

* ``PASS``: the DATs hold exactly what the retail End-of-Retail client holds;
* ``FAIL``: the record is there but differs (or does not decode): the detail says what was
  found instead;
* ``MISSING``: a record the check needs is not in the DATs (or no DAT was given).

The checks read records through the same codecs as the viewer, except the CreateBlocking
inventory, which scans raw bytes (4-aligned: hook type 26, a retail direction value, a
0x32xxxxxx emitter DID) so that a decoder defect in that hook's payload size cannot hide or
misplace a hook. The recall link is resolved with the runtime's own motion table lookup
(CMotionTable::get_link 0x00522710). This module reads DATs only; it has no GL and no UI.
"""

from __future__ import annotations

import hashlib
import math
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from viewer.dat import dat_set
from viewer.dat import records as R
from viewer.dat import retail_facts as F
from viewer.dat.container import DatCollection, DatFile
from viewer.dat.records.common import AnimationHookType as HT
from viewer.dat.records.common import PlayScript as PS
from viewer.errors import DatError, format_did
from viewer.sim.animation.motion_table import CMotionTable

PASS, FAIL, MISSING = "PASS", "FAIL", "MISSING"


@dataclass(frozen=True)
class Check:
    check: str
    status: str
    detail: str

    def as_json(self) -> dict:
        return {"check": self.check, "status": self.status, "detail": self.detail}

    def line(self) -> str:
        """One plain line: status, name and, for FAIL / MISSING, what was found instead."""
        if self.status == PASS:
            return f"PASS {self.check}"
        return f"{self.status} {self.check}: {self.detail}"


class _Missing(Exception):
    pass


class _Fail(Exception):
    pass


def _h(did: int) -> str:
    return format_did(did)


def _num(v: float) -> str:
    return f"{v:.4g}"


def _vec(v) -> str:
    return "(" + ", ".join(_num(x) for x in v) + ")"


def _ps(key) -> str:
    return key.name if isinstance(key, PS) else f"PlayScript {int(key)}"


# --------------------------------------------------------------------------------------------
# Opening: files and folders
# --------------------------------------------------------------------------------------------

def expand_paths(paths: Iterable[str | os.PathLike]) -> tuple[list[Path], list[str]]:
    """DAT files named by the arguments (a folder means the retail DAT set in it:
    ``viewer.dat.dat_set``, whose announcer names the members it lacks) and a note for each
    argument that names none."""
    files: list[Path] = []
    notes: list[str] = []
    for p in map(Path, paths):
        if p.is_dir():
            folder = dat_set.expand([p])
            dat_set.announce(folder)
            found = folder.files
            if not found:
                notes.append(f"no DAT files in folder {p}")
            files.extend(found)
        elif p.exists():  # a named pipe or a device too: DatFile refuses it, unread
            files.append(p)
        else:
            notes.append(f"{p}: no such file or folder")
    return files, notes


def open_collection(paths: Iterable[str | os.PathLike]) -> tuple[DatCollection | None, Check]:
    """Open what the arguments name; the 'DAT files' check says what was opened."""
    files, notes = expand_paths(paths)
    opened: list[DatFile] = []
    for f in files:
        try:
            opened.append(DatFile(f))
        except DatError as err:
            notes.append(str(err))
    if not opened:
        return None, Check("DAT files", MISSING, "; ".join(notes) or "no DAT files given")
    coll = DatCollection(opened)
    names = ", ".join(f.name for f in opened)
    if notes:
        return coll, Check("DAT files", FAIL, f"opened {names}; " + "; ".join(notes))
    return coll, Check("DAT files", PASS, names)


# --------------------------------------------------------------------------------------------
# Record access with MISSING / FAIL outcomes
# --------------------------------------------------------------------------------------------

class _Records:
    def __init__(self, coll: DatCollection) -> None:
        self.coll = coll
        self._cache: dict[int, object] = {}

    def raw(self, did: int, what: str) -> bytes:
        data = self.coll.get(did)
        if data is None:
            raise _Missing(f"{what} {_h(did)} is not in the DATs")
        return data

    def get(self, did: int, what: str, cls: type | None = None):
        rec = self._cache.get(did)
        if rec is None:
            data = self.raw(did, what)
            try:
                rec = R.decode(did, data, file=self._file(did))
            except DatError as err:
                raise _Fail(f"{what} does not decode: {err}") from err
            self._cache[did] = rec
        if cls is not None and not isinstance(rec, cls):
            raise _Fail(f"{what} {_h(did)} is a {type(rec).__name__}, not a {cls.__name__}")
        return rec

    def _file(self, did: int) -> str | None:
        f = self.coll.file_of(did)
        return None if f is None else f.name


def _run(name: str, fn: Callable[[], str]) -> Check:
    try:
        return Check(name, PASS, fn())
    except _Missing as m:
        return Check(name, MISSING, str(m))
    except _Fail as f:
        return Check(name, FAIL, str(f))
    except DatError as err:
        return Check(name, FAIL, str(err))


# --------------------------------------------------------------------------------------------
# The checks
# --------------------------------------------------------------------------------------------

def _identity(recs: _Records, fact: F.RecordIdentity) -> str:
    data = recs.raw(fact.did, fact.name)
    digest = hashlib.sha256(data).hexdigest().upper()
    found = f"length {len(data)}, SHA-256 {digest}"
    if len(data) != fact.length or digest != fact.sha256:
        raise _Fail(f"found {found}; retail has length {fact.length}, SHA-256 {fact.sha256}")
    return found


def _close(a: float, b: float, tol: float) -> bool:
    return math.isfinite(a) and abs(a - b) <= tol


def _projectile_assets(recs: _Records, p: F.Projectile) -> str:
    recs.get(p.setup, f"{p.name} Setup", R.Setup)
    if p.table is None:
        return f"Setup {_h(p.setup)} (no table in the weenie template)"
    recs.get(p.table, f"{p.name} table", R.PhysicsScriptTable)
    return f"Setup {_h(p.setup)}, table {_h(p.table)}"


def _sphere(recs: _Records, p: F.Projectile) -> str:
    setup = recs.get(p.setup, f"{p.name} Setup", R.Setup)
    spheres = [f"{_vec(s.center)} r {_num(s.radius)}" for s in setup.spheres]
    found = (f"{len(setup.spheres)} sphere(s) [{'; '.join(spheres)}], "
             f"{len(setup.cylspheres)} cylinder sphere(s)")
    if len(setup.spheres) != 1 or setup.cylspheres:
        raise _Fail(f"found {found}; retail has 1 sphere {_vec(p.sphere_origin)} r "
                    f"{_num(p.sphere_radius)} and no cylinder spheres")
    s = setup.spheres[0]
    tol = F.SPHERE_TOLERANCE
    if not (all(_close(a, b, tol) for a, b in zip(s.center, p.sphere_origin, strict=True))
            and _close(s.radius, p.sphere_radius, tol)):
        raise _Fail(f"found {found}; retail has {_vec(p.sphere_origin)} r "
                    f"{_num(p.sphere_radius)}")
    return found


def _entry_text(key, data) -> str:
    pairs = ", ".join(f"{_num(m)} -> {_h(s)}" for m, s in data)
    return f"{_ps(key)} ({pairs})"


def _table_entries(recs: _Records, t: F.TableFacts) -> str:
    table = recs.get(t.did, f"{t.name} table", R.PhysicsScriptTable)
    pinned = {k for k, _ in t.entries}
    found = [(key, tuple((e.mod, e.script_id) for e in d.scripts))
             for key, d in table.entries if key in pinned]
    want = [(k, v) for k, v in t.entries]
    text = "; ".join(_entry_text(k, v) for k, v in found) or "none of them"
    bad_absent = [_ps(k) for k, _ in table.entries if k in t.absent]
    if found != want:
        raise _Fail(f"found {text}; retail stores "
                    + "; ".join(_entry_text(k, v) for k, v in want))
    if bad_absent:
        raise _Fail(f"found {', '.join(bad_absent)} entries; retail has none")
    return text + (f"; no {', '.join(_ps(k) for k in t.absent)}" if t.absent else "")


def _script_closure(recs: _Records, did: int, what: str) -> tuple[set, list[int]]:
    """Hook types of a script and every script it calls; every emitter DID it creates."""
    types: set = set()
    emitters: list[int] = []
    todo, seen = [did], set()
    while todo:
        d = todo.pop()
        if d in seen:
            continue
        seen.add(d)
        script = recs.get(d, f"{what} script" if d == did else f"script called by {_h(did)}",
                          R.PhysicsScript)
        for entry in script.stored_script_data:
            hook = entry.hook
            types.add(hook.hook_type)
            if hook.hook_type in (HT.CreateParticle, HT.CreateBlockingParticle):
                emitters.append(hook.emitter_info_id)
            elif hook.hook_type == HT.CallPES:
                todo.append(hook.pes_id)
    return types, emitters


def _table_chain(recs: _Records, t: F.TableFacts) -> str:
    recs.get(t.did, f"{t.name} table", R.PhysicsScriptTable)
    contents = dict(t.contents)
    n_scripts = n_emitters = 0
    for key, pairs in t.entries:
        for _mod, did in pairs:
            types, emitters = _script_closure(recs, did, f"{t.name} {_ps(key)}")
            n_scripts += 1
            for e in emitters:
                recs.get(e, f"emitter of {_h(did)}", R.ParticleEmitterInfo)
                n_emitters += 1
            for need in contents.get(key, ()):
                options = need if isinstance(need, tuple) else (need,)
                if not types & set(options):
                    names = sorted(HT(x).name if x in HT._value2member_map_ else str(x)
                                   for x in types)
                    raise _Fail(f"{_ps(key)} script {_h(did)} has hooks {names or 'none'}; "
                                f"retail's holds {' or '.join(o.name for o in options)}")
    return f"{n_scripts} scripts decode, {n_emitters} emitters present"


def _default_script(recs: _Records, d: F.DefaultScriptFacts) -> str:
    setup = recs.get(d.setup, f"{d.name} Setup", R.Setup)
    if setup.default_script != d.script:
        raise _Fail(f"Setup {_h(d.setup)} DefaultScript is {_h(setup.default_script)}; "
                    f"retail's is {_h(d.script)}")
    script = recs.get(d.script, f"{d.name} DefaultScript", R.PhysicsScript)
    found = sorted((e.hook.hook_type, e.start_time) for e in script.stored_script_data)
    text = ", ".join(f"{HT(t).name}@{_num(s)}" for t, s in found)
    want = sorted((t, 0.0) for t in d.hooks)
    if found != want:
        raise _Fail(f"{_h(d.script)} has {text or 'no hooks'}; retail has "
                    + ", ".join(f"{t.name}@0" for t in d.hooks))
    cp = [e.hook for e in script.stored_script_data if e.hook.hook_type == HT.CreateParticle]
    if any(h.emitter_info_id != d.emitter or h.part_index != d.part for h in cp):
        raise _Fail("CreateParticle is " + ", ".join(
            f"{_h(h.emitter_info_id)} on part {h.part_index}" for h in cp)
            + f"; retail's is {_h(d.emitter)} on part {d.part}")
    recs.get(d.emitter, f"{d.name} emitter", R.ParticleEmitterInfo)
    return f"DefaultScript {_h(d.script)}: {text}; emitter {_h(d.emitter)} on part {d.part}"


def _recall_link(recs: _Records) -> R.AnimData:
    rc = F.RECALL
    mt = recs.get(rc.motion_table, "recall MotionTable", R.MotionTable)
    table = CMotionTable(mt)
    substate = table.style_defaults.get(rc.style)
    if substate is None:
        raise _Fail(f"MotionTable {_h(rc.motion_table)} has no default substate for style "
                    f"{_h(rc.style)}")
    md = table.get_link(rc.style, substate, 1.0, rc.command, 1.0)
    if md is None:
        raise _Fail(f"no link from {_h(rc.style)}/{_h(substate)} for command {_h(rc.command)}")
    if len(md.anims) != 1:
        raise _Fail("the link plays " + ", ".join(_h(a.anim_id) for a in md.anims)
                    + f"; retail's plays only {_h(rc.animation)}")
    return md.anims[0]


def _recall_link_check(recs: _Records) -> str:
    rc = F.RECALL
    a = _recall_link(recs)
    found = (f"Animation {_h(a.anim_id)} frames {a.low_frame}..{a.high_frame} at "
             f"{_num(a.framerate)} fps")
    anim = recs.get(a.anim_id, "recall Animation", R.Animation) if a.anim_id == rc.animation \
        else None
    ends = a.high_frame == -1 or (anim is not None and a.high_frame == len(anim.part_frames) - 1)
    if (a.anim_id != rc.animation or a.low_frame != 0 or not ends
            or not _close(a.framerate, rc.framerate, F.FRAMERATE_TOLERANCE)):
        raise _Fail(f"found {found}; retail's is {_h(rc.animation)} frames 0..end at "
                    f"{_num(rc.framerate)} fps")
    return found


def _frames_with(anim: R.Animation, hook_type) -> list[int]:
    return [i for i, f in enumerate(anim.part_frames)
            if any(h.hook_type == hook_type for h in f.hooks)]


def _recall_emitter(recs: _Records) -> str:
    rc = F.RECALL
    anim = recs.get(rc.animation, "recall Animation", R.Animation)
    found = [(i, h) for i, f in enumerate(anim.part_frames) for h in f.hooks
             if h.hook_type == HT.CreateParticle]
    text = "; ".join(f"frame {i}: {_h(h.emitter_info_id)} part {h.part_index} id "
                     f"{h.emitter_id} offset {_vec(h.offset.origin)}" for i, h in found)
    ok = [h for i, h in found if i == rc.emitter_frame
          and h.emitter_info_id == rc.emitter and h.part_index == rc.emitter_part
          and h.emitter_id == rc.emitter_logical_id
          and all(v == 0.0 for v in h.offset.origin)]
    if not ok:
        raise _Fail(f"found {text or 'no CreateParticle hook'}; retail's is frame "
                    f"{rc.emitter_frame}: {_h(rc.emitter)} part {rc.emitter_part} id "
                    f"{rc.emitter_logical_id} offset (0, 0, 0)")
    recs.get(rc.emitter, "recall emitter", R.ParticleEmitterInfo)
    return text


def _recall_sounds(recs: _Records) -> str:
    rc = F.RECALL
    anim = recs.get(rc.animation, "recall Animation", R.Animation)
    frames = _frames_with(anim, HT.SoundTweaked)
    if tuple(frames) != rc.sound_frames:
        raise _Fail(f"SoundTweaked at frames {frames}; retail's at {list(rc.sound_frames)}")
    return f"SoundTweaked at frames {frames}"


def _recall_no_callpes(recs: _Records) -> str:
    anim = recs.get(F.RECALL.animation, "recall Animation", R.Animation)
    frames = _frames_with(anim, HT.CallPES)
    if frames:
        raise _Fail(f"CallPES at frames {frames}; retail's recall has none")
    return "no CallPES"


def _hidden_pair(recs: _Records, did: int, pair: tuple[int, int]) -> str:
    table = recs.get(did, "table", R.PhysicsScriptTable)
    got = {}
    for key, d in table.entries:
        if key in (PS.UnHide, PS.Hidden) and key not in got:
            got[key] = tuple((e.mod, e.script_id) for e in d.scripts)
    want = {PS.UnHide: ((1.0, pair[0]),), PS.Hidden: ((1.0, pair[1]),)}
    text = "; ".join(_entry_text(k, got[k]) for k in (PS.UnHide, PS.Hidden) if k in got)
    if got != want:
        raise _Fail(f"found {text or 'no UnHide / Hidden entries'}; retail has "
                    + "; ".join(_entry_text(k, v) for k, v in want.items()))
    return text


def _entries_of(coll: DatCollection, top: int):
    for e in coll.entries():
        if e.did >> 24 == top:
            yield e


def _inventory(recs: _Records, found_text: str, pinned, found, extra=()) -> None:
    """The one rule of both inventories: a pinned record no DAT holds is MISSING; FAIL
    only for a record that is there and wrong: a pinned one that does not hold what it
    should, or one found that retail's list does not have (judged only when every pinned
    record is there: beside an incomplete set, the records found are another set's).
    ``extra``: found records that are wrong whatever the set (always FAIL)."""
    absent = [d for d in pinned if d not in recs.coll]
    wrong = [d for d in pinned if d in recs.coll and d not in found]
    unpinned = sorted(set(found) - set(pinned))
    parts = [found_text]
    if wrong:
        parts.append(f"in the DATs without it: {_ranges(sorted(wrong))}")
    if unpinned:
        parts.append(f"not retail's: {_ranges(unpinned)}")
    if absent:
        parts.append(f"not in the DATs: {_ranges(sorted(absent))}")
    if wrong or extra or (unpinned and not absent):
        raise _Fail("; ".join(parts))
    if absent:
        raise _Missing("; ".join(parts))


def _hidden_inventory(recs: _Records) -> str:
    both = []
    for e in _entries_of(recs.coll, 0x34):
        table = recs.get(e.did, "table", R.PhysicsScriptTable)
        keys = {k for k, _ in table.entries}
        if PS.UnHide in keys and PS.Hidden in keys:
            both.append(e.did)
    _inventory(recs, f"{len(both)} table(s) hold both UnHide and Hidden",
               sorted(F.HIDDEN_UNHIDE_PAIRS), set(both))
    return f"{len(both)} tables hold both, all pinned"


def raw_create_blocking_offsets(data: bytes) -> list[int]:
    """Record offsets of every CreateBlockingParticle hook header found by an aligned raw
    scan: a u32 26 at a 4-aligned offset, then a retail direction value, then a u32 whose
    top byte is 0x32 (the ParticleEmitterInfo DID). Independent of any hook decoder."""
    n = len(data) // 4
    if n < 3:
        return []
    w = np.frombuffer(data, dtype="<u4", count=n)
    dirs = np.array([d & 0xFFFFFFFF for d in F.HOOK_DIRECTIONS], dtype=np.uint32)
    hit = ((w[:-2] == int(HT.CreateBlockingParticle)) & np.isin(w[1:-1], dirs)
           & ((w[2:] >> 24) == 0x32))
    return [int(i) * 4 for i in np.flatnonzero(hit)]


def create_blocking_scan(coll: DatCollection) -> dict[int, list[int]]:
    """DID -> raw offsets, over every PhysicsScript and Animation."""
    found: dict[int, list[int]] = {}
    for e in coll.entries():
        if e.did >> 24 not in (0x33, 0x03):
            continue
        offs = raw_create_blocking_offsets(coll.read(e.did))
        if offs:
            found[e.did] = offs
    return found


def _blocking_inventory(recs: _Records, scan: dict[int, list[int]]) -> str:
    scripts = sorted(d for d in scan if d >> 24 == 0x33)
    anims = sorted(d for d in scan if d >> 24 == 0x03)
    want = list(F.CREATE_BLOCKING_SCRIPTS)
    text = (f"PhysicsScripts {_ranges(scripts) or 'none'}; Animations "
            f"{_ranges(anims) or 'none'}")
    _inventory(recs, f"found {text}; retail has PhysicsScripts {_ranges(want)}, no "
               "Animations", want, set(scripts), extra=anims)
    return text


def _blocking_decode(recs: _Records, scan: dict[int, list[int]]) -> str:
    """Our decoder must find the same CreateBlocking hooks as the raw scan."""
    if not scan:
        raise _Missing("the raw scan found no CreateBlocking hook")
    for did in sorted(scan):
        rec = recs.get(did, "CreateBlocking holder")
        if isinstance(rec, R.PhysicsScript):
            hooks = [e.hook for e in rec.stored_script_data]
        else:
            hooks = [h for f in rec.part_frames for h in f.hooks]
        n = sum(1 for h in hooks if h.hook_type == HT.CreateBlockingParticle)
        if n != len(scan[did]):
            raise _Fail(f"{_h(did)}: the decoder finds {n} CreateBlocking hook(s), the raw "
                        f"scan {len(scan[did])}")
    return f"{len(scan)} records agree"


def _ranges(dids: list[int]) -> str:
    out, i = [], 0
    while i < len(dids):
        j = i
        while j + 1 < len(dids) and dids[j + 1] == dids[j] + 1:
            j += 1
        out.append(_h(dids[i]) if i == j else f"{_h(dids[i])}..{_h(dids[j])}")
        i = j + 1
    return ", ".join(out)


# --------------------------------------------------------------------------------------------
# Entry points
# --------------------------------------------------------------------------------------------

def check_plan() -> list[tuple[str, Callable]]:
    """Every check, in output order: (name, fn(records, scan) -> detail on PASS)."""
    plan: list[tuple[str, Callable]] = []
    for ident in F.RECORD_IDENTITIES:
        plan.append((f"identity {ident.name} {_h(ident.did)}",
                     lambda r, s, i=ident: _identity(r, i)))
    for p in F.PROJECTILES:
        plan.append((f"projectile {p.name} (WCID {p.wcid})",
                     lambda r, s, p=p: _projectile_assets(r, p)))
        plan.append((f"sphere {p.name} {_h(p.setup)}", lambda r, s, p=p: _sphere(r, p)))
    for t in F.PROJECTILE_TABLES:
        plan.append((f"table entries {t.name} {_h(t.did)}",
                     lambda r, s, t=t: _table_entries(r, t)))
        plan.append((f"table chains {t.name} {_h(t.did)}",
                     lambda r, s, t=t: _table_chain(r, t)))
    for d in F.DEFAULT_SCRIPTS:
        plan.append((f"default script {d.name} {_h(d.setup)}",
                     lambda r, s, d=d: _default_script(r, d)))
    rc = F.RECALL
    plan += [
        (f"recall link {_h(rc.motion_table)} {_h(rc.command)}",
         lambda r, s: _recall_link_check(r)),
        (f"recall emitter {_h(rc.animation)} frame {rc.emitter_frame}",
         lambda r, s: _recall_emitter(r)),
        (f"recall sounds {_h(rc.animation)}", lambda r, s: _recall_sounds(r)),
        (f"recall no CallPES {_h(rc.animation)}", lambda r, s: _recall_no_callpes(r)),
    ]
    for did, pair in F.HIDDEN_UNHIDE_PAIRS.items():
        plan.append((f"hidden/unhide {_h(did)}",
                     lambda r, s, did=did, pair=pair: _hidden_pair(r, did, pair)))
    plan += [
        ("hidden/unhide inventory", lambda r, s: _hidden_inventory(r)),
        ("CreateBlocking inventory", lambda r, s: _blocking_inventory(r, s())),
        ("CreateBlocking decode", lambda r, s: _blocking_decode(r, s())),
    ]
    return plan


def audit_collection(coll: DatCollection | None) -> list[Check]:
    """Run every check on open DATs (None: every check MISSING)."""
    return list(iter_audit(coll))


def iter_audit(coll: DatCollection | None) -> Iterator[Check]:
    """The checks of ``audit_collection`` one at a time (the viewer shows progress)."""
    plan = check_plan()
    if coll is None:
        yield from (Check(name, MISSING, "no DAT files") for name, _ in plan)
        return
    recs = _Records(coll)
    scan_cache: list[dict] = []

    def scan() -> dict[int, list[int]]:
        if not scan_cache:
            scan_cache.append(create_blocking_scan(coll))
        return scan_cache[0]

    for name, fn in plan:
        yield _run(name, lambda fn=fn: fn(recs, scan))


def audit(paths: Iterable[str | os.PathLike]) -> list[Check]:
    """The 'DAT files' check, then every fact check, for files and folders."""
    coll, opened = open_collection(paths)
    try:
        return [opened, *audit_collection(coll)]
    finally:
        if coll is not None:
            coll.close()


def all_passed(checks: Iterable[Check]) -> bool:
    return all(c.status == PASS for c in checks)
