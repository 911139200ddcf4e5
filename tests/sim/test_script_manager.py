"""ScriptManager: one serial FIFO per owner (AddScriptInternal
0x0051B310, NextHook 0x0051B3F0, UpdateScripts 0x0051B480)."""

from hypothesis import given, settings
from hypothesis import strategies as st
from sim_builders import script

from viewer.dat.records.hooks import NoOpHook, NullHook, SoundHook
from viewer.sim.script_manager import ScriptManager


def _sm():
    fired = []
    events = []
    sm = ScriptManager(1, lambda h, did, i: fired.append((did, i, h)), events.append)
    return sm, fired, events


S1 = script(0x33000001, (0.0, SoundHook(0, 1)), (0.5, SoundHook(0, 2)), (0.25, SoundHook(0, 3)))
S2 = script(0x33000002, (0.0, NoOpHook(0)), (0.1, NoOpHook(0)))


def test_PhysicsScript_UnPack_0x005218B0_hooks_sorted_by_start_time_length_is_last():
    assert [d.start_time for d in S1.script_data] == [0.0, 0.25, 0.5]
    assert S1.length == 0.5


def test_AddScriptInternal_0x0051B310_queued_script_starts_at_tail_start_plus_length():
    sm, _, _ = _sm()
    a = sm.add_script(S1, 0x33000001, 10.0)
    b = sm.add_script(S2, 0x33000002, 10.2)
    c = sm.add_script(S1, 0x33000001, 10.3)  # duplicates allowed
    assert (a.start, b.start, c.start) == (10.0, 10.5, 10.6)
    assert len(sm) == 3


def test_UpdateScripts_0x0051B480_all_due_hooks_fire_in_one_update_in_order():
    sm, fired, _ = _sm()
    sm.add_script(S1, 0x33000001, 0.0)
    sm.update_scripts(0.3)
    assert [h.wave_id for _, _, h in fired] == [1, 3]
    sm.update_scripts(0.5)
    assert [h.wave_id for _, _, h in fired] == [1, 3, 2]
    assert len(sm) == 0  # finished in the same update as its last hook


def test_UpdateScripts_0x0051B480_long_frame_runs_queued_scripts_back_to_back():
    sm, fired, events = _sm()
    sm.add_script(S1, 0x33000001, 0.0)
    sm.add_script(S2, 0x33000002, 0.0)
    sm.update_scripts(0.55)
    assert [(d, i) for d, i, _ in fired] == [(0x33000001, 0), (0x33000001, 1),
                                             (0x33000001, 2), (0x33000002, 0)]
    sm.update_scripts(0.6)
    assert [(d, i) for d, i, _ in fired][-1] == (0x33000002, 1)
    actions = [(e["action"], e["script"]) for e in events]
    assert actions == [("queued", 0x33000001), ("queued", 0x33000002),
                       ("started", 0x33000001), ("finished", 0x33000001),
                       ("started", 0x33000002), ("finished", 0x33000002)]


def test_UpdateScripts_0x0051B480_nothing_before_first_hook_time():
    sm, fired, _ = _sm()
    sm.add_script(script(0x33000003, (0.4, NoOpHook(0))), 0x33000003, 1.0)
    sm.update_scripts(1.39)
    assert fired == []
    sm.update_scripts(1.4)
    assert len(fired) == 1


def test_ScriptManager_owners_are_independent():
    a, fa, _ = _sm()
    b, fb, _ = _sm()
    a.add_script(S1, 0x33000001, 0.0)
    b.add_script(S2, 0x33000002, 0.0)
    a.update_scripts(0.0)
    b.update_scripts(0.0)
    assert [d for d, _, _ in fa] == [0x33000001]
    assert [d for d, _, _ in fb] == [0x33000002]


def test_AddScriptInternal_0x0051B310_empty_queue_starts_now_after_drain():
    sm, _fired, _ = _sm()
    sm.add_script(S2, 0x33000002, 0.0)
    sm.update_scripts(1.0)
    assert len(sm) == 0
    node = sm.add_script(S2, 0x33000002, 2.0)
    assert node.start == 2.0


_times = st.lists(st.sampled_from([0.0, 0.05, 0.1, 0.25, 0.5, 1.0]), min_size=1, max_size=4)


@settings(max_examples=60, deadline=None)
@given(st.lists(_times, min_size=1, max_size=4),
       st.lists(st.floats(min_value=0.0, max_value=0.4), min_size=1, max_size=30))
def test_ScriptManager_every_hook_fires_once_in_time_order_never_early(scripts, steps):
    sm, fired, _ = _sm()
    due = []
    now = 0.0
    for k, times in enumerate(scripts):
        s = script(0x33000100 + k, *[(t, NoOpHook(0)) for t in times])
        node = sm.add_script(s, 0x33000100 + k, now)
        due += [(node.start + d.start_time, k, i) for i, d in enumerate(s.script_data)]
    seen = []
    for dt in steps:
        now += dt
        before = len(fired)
        sm.update_scripts(now)
        seen += [(now, d, i) for d, i, _ in fired[before:]]
    expected = sorted(due)
    fired_keys = [(d - 0x33000100, i) for _, d, i in seen]
    assert fired_keys == [(k, i) for t, k, i in expected if t <= now]
    lookup = {(k, i): t for t, k, i in due}
    assert all(lookup[(d - 0x33000100, i)] <= t for t, d, i in seen)


# -- NULL hooks (a stored type 4 / unknown type: UnPackHook 0x005271D0 built nothing) -------
NULL_MID = script(0x33000003, (0.0, SoundHook(0, 1)), (0.3, NullHook(0, 4)),
                  (0.6, SoundHook(0, 2)))
AFTER = script(0x33000004, (0.1, SoundHook(0, 9)))


def test_NextHook_0x0051B3F0_UpdateScripts_0x0051B480_null_hook_ends_its_script():
    """Hand-worked: hooks at 0 (Sound 1), 0.3 (NULL), 0.6 (Sound 2). At 0.29 only Sound 1;
    at 0.3 NextHook returns the NULL entry and UpdateScripts pops the script: Sound 2
    never fires, 'finished' is traced at 0.3."""
    sm, fired, events = _sm()
    sm.add_script(NULL_MID, 0x33000003, 0.0)
    sm.update_scripts(0.29)
    assert [h.wave_id for _, _, h in fired] == [1]
    assert sm.next_hook_time == 0.3
    sm.update_scripts(0.3)
    assert len(sm) == 0 and sm.next_hook_time == -1.0
    sm.update_scripts(5.0)
    assert [h.wave_id for _, _, h in fired] == [1]
    assert [e["action"] for e in events] == ["queued", "started", "finished"]


def test_UpdateScripts_0x0051B480_next_script_keeps_its_precomputed_start_after_a_null():
    """The next node started at tail.start + tail.length = 0 + 0.6 when it was queued
    (AddScriptInternal 0x0051B310); the early end at 0.3 does not move it: its first hook
    (at +0.1) fires at 0.7, not 0.4."""
    sm, fired, _ = _sm()
    sm.add_script(NULL_MID, 0x33000003, 0.0)
    node = sm.add_script(AFTER, 0x33000004, 0.0)
    assert node.start == 0.6
    sm.update_scripts(0.3)
    assert sm.next_hook_time == 0.7
    sm.update_scripts(0.69)
    assert [h.wave_id for _, _, h in fired] == [1]
    sm.update_scripts(0.7)
    assert [(did, i, h.wave_id) for did, i, h in fired] == [(0x33000003, 0, 1),
                                                           (0x33000004, 0, 9)]


def test_UpdateScripts_0x0051B480_null_first_entry_ends_the_script_at_once():
    sm, fired, events = _sm()
    sm.add_script(script(0x33000005, (0.0, NullHook(0, 0x63)), (0.1, SoundHook(0, 3))),
                  0x33000005, 0.0)
    sm.update_scripts(0.0)
    assert len(sm) == 0 and events[-1]["action"] == "finished"
    sm.update_scripts(1.0)
    assert fired == []
