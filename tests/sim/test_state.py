"""PhysicsState, set_state and set_hidden (CPhysicsObj::set_state
0x00514DD0, set_hidden 0x00514C60, set_description 0x00514F40, InitDefaults 0x005139D0,
UpdatePositionInternal 0x00512C30)."""

from fractions import Fraction

import sim_builders as B

from viewer.dat.records.hooks import NoOpHook, SoundHook
from viewer.sim.state import DEFAULT_STATE
from viewer.sim.state import PhysicsState as PS

HIDE_S, UNHIDE_S, OTHER_S = 0x33000331, 0x3300032F, 0x33000500
TABLE = 0x34000004


def _records(**setup_kw):
    return {
        0x02000001: B.setup(**setup_kw),
        HIDE_S: B.script(HIDE_S, (0.0, SoundHook(0, 0x0A000001))),
        UNHIDE_S: B.script(UNHIDE_S, (0.0, SoundHook(0, 0x0A000002))),
        OTHER_S: B.script(OTHER_S, (0.0, NoOpHook(0))),
        TABLE: B.table(TABLE, {0x75: [(1.0, UNHIDE_S)], 0x76: [(1.0, HIDE_S)]}),
        0x34000009: B.table(0x34000009, {0x75: [(1.0, OTHER_S)]}),
    }


def _queued(w, owner=1):
    return [e["script"] for e in B.events(w, "script", action="queued", owner=owner)]


def test_CPhysicsObj_0x005123F0_initial_state_is_0x00400C08_without_hidden():
    w = B.world(_records())
    o = w.create_object(1, 0x02000001, table=TABLE)
    assert o.state == DEFAULT_STATE == 0x00400C08
    assert not o.state & PS.Hidden


def test_CreateObject_visible_creation_plays_no_unhide():
    w = B.world(_records())
    w.create_object(1, 0x02000001, table=TABLE, state=0x00400C08)
    assert _queued(w) == []
    assert B.events(w, "resolve") == []


def test_set_state_0x00514DD0_hidden_transition_plays_PS_Hidden_at_intensity_1():
    w = B.world(_records())
    o = w.create_object(1, 0x02000001, table=TABLE)
    w.set_state(o, DEFAULT_STATE | PS.Hidden)
    assert _queued(w) == [HIDE_S]
    r = B.events(w, "resolve")[-1]
    assert (r["type"], r["intensity"], r["script"]) == (0x76, 1.0, HIDE_S)
    st = B.events(w, "state")[-1]
    assert st["hidden"] is True and st["state"] == "0x00404C10"  # ReportCollisions -> Ignore


def test_set_hidden_0x00514C60_unhide_plays_PS_UnHide_and_restores_collisions():
    w = B.world(_records())
    o = w.create_object(1, 0x02000001, table=TABLE, state=DEFAULT_STATE | PS.Hidden)
    assert _queued(w) == [HIDE_S]
    assert o.state & PS.IgnoreCollisions and not o.state & PS.ReportCollisions
    w.set_state(o, DEFAULT_STATE)
    assert _queued(w) == [HIDE_S, UNHIDE_S]
    assert not o.state & PS.IgnoreCollisions and o.state & PS.ReportCollisions
    assert not o.hidden


def test_set_hidden_0x00514C60_children_nodraw_set_then_cleared_unconditionally():
    w = B.world(_records())
    parent = w.create_object(1, 0x02000001, table=TABLE)
    child = w.create_object(2, 0x02000001)
    w.attach_child(child, parent, 0)
    w.set_hidden(parent, True)
    assert child.state & PS.NoDraw and all(p.hidden for p in child.parts)
    w.set_nodraw(child, True)
    w.set_hidden(parent, False)
    assert not child.state & PS.NoDraw and not any(p.hidden for p in child.parts)


def test_set_hidden_without_table_plays_nothing():
    w = B.world(_records())
    o = w.create_object(1, 0x02000001)
    w.set_state(o, DEFAULT_STATE | PS.Hidden)
    assert _queued(w) == [] and o.hidden


def test_set_state_0x00514DD0_order_is_lighting_then_nodraw_then_hidden():
    w = B.world(_records(lights=1))
    o = w.create_object(1, 0x02000001, table=TABLE)
    order = []
    w.set_lights = lambda obj, on, trace=True: order.append("lighting")
    w.set_nodraw = lambda obj, on, trace=True: order.append("nodraw")
    w.set_hidden = lambda obj, on, trace=True: order.append("hidden")
    w.set_state(o, (DEFAULT_STATE & ~PS.Lighting) | PS.NoDraw | PS.Hidden)
    assert order == ["lighting", "nodraw", "hidden"]


def test_set_state_0x00514DD0_lighting_bit_creates_and_destroys_lights():
    w = B.world(_records(lights=2))
    o = w.create_object(1, 0x02000001)
    assert len(o.lights) == 2  # default state has Lighting
    w.set_state(o, DEFAULT_STATE & ~PS.Lighting)
    assert o.lights is None
    w.set_state(o, DEFAULT_STATE)
    assert len(o.lights) == 2


def test_set_nodraw_0x0050FCA0_sets_bit_and_part_hidden():
    w = B.world(_records(parts=2))
    o = w.create_object(1, 0x02000001)
    w.set_state(o, DEFAULT_STATE | PS.NoDraw)
    assert o.nodraw and all(p.hidden for p in o.parts)


def test_set_description_0x00514F40_network_table_replaces_setup_table_even_when_absent():
    w = B.world(_records(default_script_table=TABLE))
    o = w.create_object(1, 0x02000001)  # PhysicsDesc without PeTable
    assert o.table is None
    w.set_state(o, DEFAULT_STATE | PS.Hidden)
    assert _queued(w) == []


def test_set_description_0x00514F40_network_table_wins_over_setup_table():
    w = B.world(_records(default_script_table=TABLE))
    o = w.create_object(2, 0x02000001, table=0x34000009)
    assert o.table_did == 0x34000009


def test_InitDefaults_0x005139D0_setup_table_kept_without_a_physics_desc():
    w = B.world(_records(default_script_table=TABLE))
    o = w.create_object(1, 0x02000001, from_desc=False)
    assert o.table_did == TABLE


def test_InitDefaults_0x005139D0_setup_default_script_played_at_creation():
    w = B.world(_records(default_script=OTHER_S))
    w.create_object(1, 0x02000001)
    assert _queued(w) == [OTHER_S]
    B.run_frames(w, 1)
    assert B.events(w, "hook", source=OTHER_S)


def test_UpdatePositionInternal_0x00512C30_hidden_is_a_narrow_tick():
    recs = _records()
    recs[0x33000600] = B.script(0x33000600, (0.0, NoOpHook(0)), (0.2, NoOpHook(0)))
    w = B.world(recs)
    o = w.create_object(1, 0x02000001, table=TABLE, state=DEFAULT_STATE | PS.Hidden,
                        omega=(0.0, 0.0, 3.0))
    w.set_state(o, DEFAULT_STATE | PS.Hidden | PS.Gravity)

    class Motion:
        calls = 0

        def advance(self, dt, **kw):
            Motion.calls += 1
            from viewer.sim.frame import Frame
            return Frame(), []

        def part_frames(self):
            return None

    o.motion = Motion()
    w.play_script(o, 0x33000600)
    q0 = o.frame.orientation
    B.run_frames(w, 9)
    assert Motion.calls == 0  # no animation advance
    assert o.frame.orientation == q0  # no body integration (omega not applied)
    assert len(B.events(w, "hook", source=0x33000600)) == 2  # scripts continue
    w.set_state(o, DEFAULT_STATE)
    B.run_frames(w, 1, start=10)
    assert Motion.calls == 1 and o.frame.orientation != q0


def test_state_event_is_traced_with_hex_and_hidden_flag():
    w = B.world(_records())
    o = w.create_object(1, 0x02000001, table=TABLE)
    w.time = Fraction(1)
    w.set_state(o, 0x00404C08)
    ev = B.events(w, "state")[-1]
    assert ev["owner"] == 1 and ev["hidden"] is True


def test_set_description_0x00514F40_translucency_is_also_the_original_floor():
    from viewer.dat.records.hooks import TransparentHook
    from viewer.sim import hooks as H
    w = B.world(_records(parts=2))
    o = w.create_object(1, 0x02000001, translucency=0.3)
    assert o.translucency == 0.3 and o.parts[1].translucency == 0.3
    H.execute_hook(w, o, TransparentHook(0, 0.0, 0.1, 0.0), 0x33000001, 0)
    assert o.translucency == 0.3  # SetTranslucencyInternal clamps up to the original


def test_set_active_0x0050FC40_static_objects_never_activate():
    w = B.world(_records())
    o = w.create_object(1, 0x02000001, state=DEFAULT_STATE | PS.Static, omega=(0, 0, 3.0))
    q0 = o.frame.orientation
    B.run_frames(w, 3)
    assert not o.active and o.frame.orientation == q0


def test_wrong_record_type_named_by_the_user_is_an_input_error():
    import pytest

    from viewer.errors import ScenarioError
    w = B.world(_records())
    with pytest.raises(ScenarioError, match="not a Setup"):
        w.create_object(1, TABLE)
    o = w.create_object(1, 0x02000001)
    with pytest.raises(ScenarioError, match="not a PhysicsScript"):
        w.play_script(o, TABLE)


def test_state_words_are_stored_as_plain_ints_with_the_same_value():
    # the per-tick update tests them with int bits (an IntFlag test builds enum values)
    from viewer.sim.state import TransientState as TS
    w = B.world(_records())
    o = w.create_object(1, 0x02000001)
    o.state |= PS.Hidden
    o.transient_state |= TS.OnWalkable
    assert type(o.state) is int and type(o.transient_state) is int
    assert o.state & PS.Hidden and o.hidden
    assert o.transient_state & TS.OnWalkable and o.active
    o.transient_state &= ~TS.Active
    assert type(o.transient_state) is int and not o.active


def _fading_records(hide_fades: bool):
    from viewer.dat.records.hooks import TransparentHook
    recs = _records()
    hide = (0.0, TransparentHook(0, 0.0, 1.0, 0.3)) if hide_fades else (0.0, NoOpHook(0))
    recs[HIDE_S] = B.script(HIDE_S, hide)
    recs[UNHIDE_S] = B.script(UNHIDE_S, (0.0, TransparentHook(0, 1.0, 0.0, 0.5)))
    return recs


def _unhide_frames(hide_fades: bool) -> list[float]:
    """Hidden at frame 10, unhidden before frame 28's tick: the object's translucency on
    frames 28, 29, 30."""
    w = B.world(_fading_records(hide_fades))
    o = w.create_object(1, 0x02000001, table=TABLE)
    B.run_frames(w, 9)
    w.set_state(o, DEFAULT_STATE | PS.Hidden)
    B.run_frames(w, 18, start=10)
    w.set_state(o, DEFAULT_STATE)
    out = []
    for k in (28, 29, 30):
        B.run_frames(w, 1, start=k)
        out.append(round(o.translucency, 6))
    return out


def test_unhide_frame_keeps_the_translucency_the_hidden_script_left_SetTranslucency2_0x0050FB50():
    """Issue 27 item 4's one-frame "flash" is retail's frame: set_hidden(0) 0x00514C60 shows
    the object at once; the UnHide script's TransparentHook::Execute (0x00526C30) calls
    SetTranslucency2, which for a time >= EPS only adds an FPHook at curr_time, first
    evaluated by the next process_hooks (UpdateScripts runs after it in
    UpdateObjectInternal). So the un-hide frame draws with the translucency the Hidden
    script left: 1.0 when it faded the object out (no flash), 0.0 when it did not (the
    synthetic library's Hidden script: the object is opaque for that one frame, as retail
    draws it), then the fade starts from the hook's Start."""
    assert _unhide_frames(hide_fades=True) == [1.0, round(1 - (1 / 30) / 0.5, 6),
                                               round(1 - (2 / 30) / 0.5, 6)]
    assert _unhide_frames(hide_fades=False) == [0.0, round(1 - (1 / 30) / 0.5, 6),
                                                round(1 - (2 / 30) / 0.5, 6)]
