"""What ``trace --looks`` prints and the renderer draws (``inspect.object_looks``), checked
against hand-computed values at tick times: timed fades (FPHook::Execute 0x0051BAA0 through
CPhysicsObj::process_hooks 0x005114E0: newest first, so the OLDEST live tween sets the value
last), immediate changes (below EPS), scale, the TextureVelocity offset
(CPhysics::UpdateTexVelocity 0x00509820) and nodraw (set_hidden 0x00514C60 on children)."""

from __future__ import annotations

import pytest
import sim_builders as B

from viewer.dat.records.hooks import (
    LuminousHook,
    ScaleHook,
    TextureVelocityHook,
    TransparentHook,
    TransparentPartHook,
)
from viewer.sim import inspect
from viewer.sim.scenario import Scenario, ScenarioRunner

SETUP = 0x02000001


def _run(scripts: dict, objects=None, events=(), seconds=1.0):
    """Run a 30 fps scenario; yields (t, {owner: [Look, ...]}) after every frame, and the
    time of each hook event by (source, index)."""
    db = B.MemoryDB({SETUP: B.setup(SETUP, parts=2)})
    for did, entries in scripts.items():
        db.add(did, B.script(did, *entries))
    objects = objects or [{"id": 1, "setup": f"0x{SETUP:08X}"}]
    sc = Scenario.from_json({"fps": 30, "seconds": seconds, "objects": objects,
                             "events": list(events)})
    runner = ScenarioRunner(sc, db)
    w = runner.world
    w.events = []
    frames = []
    for t, _ in runner.frames():
        offs = inspect.texture_offsets(w)
        frames.append((float(t), {o.id: inspect.object_looks(o, offs)
                                  for o in inspect.drawn_objects(w)}))
    hooks = {(e["source"], e["index"]): e["t"] for e in w.events if e["event"] == "hook"}
    ticks = [e["t"] for e in w.events if e["event"] == "tick"]
    return frames, hooks, ticks


def _play(did, t=0.0, obj=1):
    return {"t": t, "object": obj, "play_script": f"0x{did:08X}"}


def test_FPHook_Execute_0x0051BAA0_timed_fade_start_end_and_duration():
    """Transparent 0.2 -> 0.8 over 0.5 s, executed at t0 (a tick): the tween is evaluated
    from the next process_hooks: value(t) = 0.2 + 0.6 * min(1, (t - t0) / 0.5) on the object
    and on every part; it stays on the end value once the duration has passed."""
    frames, hooks, ticks = _run({0x33000001: [(0.0, TransparentHook(0, 0.2, 0.8, 0.5))]},
                                events=[_play(0x33000001)])
    t0 = hooks[(0x33000001, 0)]
    checked = 0
    for t, looks in frames:
        if t <= t0:
            assert looks[1][0].translucency == 0.0       # before the first evaluation
            continue
        want = 0.2 + 0.6 * min(1.0, (t - t0) / 0.5)
        for look in looks[1]:                             # part -1, 0 and 1
            assert look.translucency == pytest.approx(want, abs=1e-9)
        checked += 1
    assert checked > 20 and frames[-1][1][1][0].translucency == pytest.approx(0.8)


def test_process_hooks_0x005114E0_overlapping_fades_the_oldest_live_tween_wins():
    """Luminous A: 0 -> 1 over 0.2 s at t0; Luminous B: 1 -> 0 over 1.0 s at t1 = t0 + 0.1
    (a second script). While both live, A (older, applied last) sets the value; once A has
    ended (its last value 1.0), B alone: 1 - (t - t1) / 1.0."""
    frames, hooks, _ = _run(
        {0x33000001: [(0.0, LuminousHook(0, 0.0, 1.0, 0.2))],
         0x33000002: [(0.0, LuminousHook(0, 1.0, 0.0, 1.0))]},
        events=[_play(0x33000001), _play(0x33000002, t=0.1)], seconds=1.3)
    t0, t1 = hooks[(0x33000001, 0)], hooks[(0x33000002, 0)]
    assert t1 > t0
    a_ends = None
    for t, looks in frames:
        if t <= t0:
            continue
        lum = looks[1][0].luminosity
        a = min(1.0, (t - t0) / 0.2)
        if a < 1.0 or a_ends is None:
            assert lum == pytest.approx(a, abs=1e-9)      # A decides (B, if live, first)
            if a >= 1.0:
                a_ends = t                                # A's last tick, then removed
        else:
            assert lum == pytest.approx(max(0.0, 1.0 - (t - t1) / 1.0), abs=1e-9)
    assert a_ends is not None and frames[-1][1][1][0].luminosity == 0.0


def test_SetTranslucency2_0x0050FB40_below_EPS_is_immediate_on_the_hook_tick():
    """A zero-duration Transparent applies its end value at once (the tick the hook runs);
    a TransparentPart on part 1 changes that part only."""
    frames, hooks, _ = _run({0x33000001: [(0.0, TransparentHook(0, 0.0, 0.4, 0.0)),
                                          (0.0, TransparentPartHook(0, 1, 0.0, 0.9, 0.0))]},
                            events=[_play(0x33000001)])
    t0 = hooks[(0x33000001, 0)]
    for t, looks in frames:
        want = (0.4, 0.4, 0.9) if t >= t0 else (0.0, 0.0, 0.0)
        assert tuple(lk.translucency for lk in looks[1]) == pytest.approx(want)


def test_scale_and_UpdateTexVelocity_0x00509820_uv_offset_accumulate():
    """Scale 1 -> 2 over 0.5 s (SetScale 0x005136A0 tweens from the current scale); a
    TextureVelocity (0.5, -0.25) per second on every part's GfxObj: the offset is the speed
    times the summed update quanta from the hook's tick on."""
    frames, hooks, ticks = _run({0x33000001: [(0.0, ScaleHook(0, 2.0, 0.5)),
                                              (0.0, TextureVelocityHook(0, 0.5, -0.25))]},
                                events=[_play(0x33000001)])
    t0 = hooks[(0x33000001, 0)]
    for t, looks in frames:
        root = looks[1][0]
        want = 1.0 + min(1.0, (t - t0) / 0.5) if t > t0 else 1.0
        assert root.scale == pytest.approx(want, abs=1e-9)
        assert root.uv_offset == (0.0, 0.0)               # the root has no GfxObj
        # after every object, each update adds speed x that update's quantum (the hook's
        # own tick included)
        elapsed = sum(tk - pk for tk, pk in zip(ticks, [0.0, *ticks]) if t0 <= tk <= t)
        u, v = looks[1][1].uv_offset
        assert (u, v) == pytest.approx((0.5 * elapsed, -0.25 * elapsed), abs=1e-9)
        assert looks[1][1].scale is None


def test_set_hidden_0x00514C60_children_of_a_hidden_parent_are_nodraw():
    """Object 2 is parented to object 1; hiding 1 marks 1 and (through NoDraw on the
    child) 2 and all its parts nodraw; unhiding clears both."""
    objects = [{"id": 1, "setup": f"0x{SETUP:08X}"},
               {"id": 2, "setup": f"0x{SETUP:08X}", "parent": 1, "parent_part": 1}]
    frames, _, _ = _run({}, objects=objects,
                        events=[{"t": 0.2, "object": 1, "set_hidden": True},
                                {"t": 0.6, "object": 1, "set_hidden": False}])
    for t, looks in frames:
        hidden = 0.2 <= t < 0.6
        assert [lk.nodraw for lk in looks[1]] == [hidden] * 3
        assert [lk.nodraw for lk in looks[2]] == [hidden] * 3


def test_SetTextureVelocity_0x0050FC20_goes_to_the_parts_GfxObjs_the_root_line_stays_0():
    """CPhysicsObj::SetTextureVelocity 0x0050FC20 hands the speed to the part array
    (CPartArray::SetTextureVelocityInternal 0x00518CB0: CPhysics::AddGfxVelocity 0x00509B60
    for each part's GfxObj); the object itself keeps no texture offset, so the part -1 line
    prints [0, 0] at every tick while each part scrolls."""
    frames, hooks, _ = _run({0x33000001: [(0.0, TextureVelocityHook(0, 0.5, 0.25))]},
                            events=[_play(0x33000001)])
    t0 = hooks[(0x33000001, 0)]
    later = [looks[1] for t, looks in frames if t > t0 + 0.2]
    assert later
    for looks in later:
        assert looks[0].part == -1 and looks[0].uv_offset == (0.0, 0.0)
        assert all(lk.uv_offset[0] > 0.0 and lk.uv_offset[1] > 0.0 for lk in looks[1:])


def test_UpdateTexVelocity_0x00509820_drops_a_GfxObj_nothing_uses_GetIfUsing_0x00416CF0():
    """The offset belongs to the GfxObj (shared by every object drawing it) while something
    uses it: object 2, made while object 1 scrolls, shows object 1's offset. Once both are
    destroyed the entry goes (GetIfUsing finds no user), so object 3, made later with the
    same GfxObj, starts still at [0, 0] and stays there."""
    objects = [{"id": 1, "setup": f"0x{SETUP:08X}"}]
    create = {"setup": f"0x{SETUP:08X}"}
    frames, hooks, _ = _run(
        {0x33000001: [(0.0, TextureVelocityHook(0, 0.5, 0.0))]}, objects=objects,
        events=[_play(0x33000001), {"t": 0.2, "object": 2, "create": create},
                {"t": 0.4, "object": 1, "destroy": True},
                {"t": 0.4, "object": 2, "destroy": True},
                {"t": 0.6, "object": 3, "create": create}])
    shared = [(looks[1][1].uv_offset, looks[2][1].uv_offset) for t, looks in frames
              if 1 in looks and 2 in looks]
    assert shared and all(a == b for a, b in shared) and shared[-1][0][0] > 0.0
    third = [looks[3] for t, looks in frames if 3 in looks]
    assert len(third) > 5
    assert all(lk.uv_offset == (0.0, 0.0) for looks in third for lk in looks)
