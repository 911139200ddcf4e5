"""Panel logic without GL: asset filtering and reverse references, double-click actions,
Hidden/UnHide toggles, object panel commands, emitter list, viewport picking."""

from __future__ import annotations

import math

import pytest
import ui_fixtures as F

from viewer.render.camera import Camera
from viewer.sim.inspect import (
    EmitterView,
    ParticleRow,
    emitter_info_fields,
    emitter_state,
    state_bit_rows,
)
from viewer.sim.scenario import Scenario
from viewer.ui import commands as c
from viewer.ui.assets_panel import (
    AssetIndex,
    RecentFiles,
    activate,
    describe,
    filter_dids,
    hex_query_problem,
    parse_hex_query,
    search_dids,
    type_name,
)
from viewer.ui.controller import Controller
from viewer.ui.emitters_panel import emitters_view
from viewer.ui.hidden_panel import toggle_state
from viewer.ui.object_panel import ObjectPanelState, motion_commands, play_commands
from viewer.ui.session import Session
from viewer.ui.timeline import TimelineTracks
from viewer.ui.viewport_panel import pick_particle, project


@pytest.fixture(scope="module")
def db():
    return F.database()


def test_filter_dids_by_type_and_hex_query():
    dids = [0x33000100, 0x33000719, 0x32000100, 0x02000100]
    assert filter_dids(dids, 0x33) == [0x33000100, 0x33000719]
    assert filter_dids(dids, None, "719") == [0x33000719]
    assert filter_dids(dids, None, "0x32") == [0x32000100]        # 0x anchors at the start
    assert filter_dids(dids, None, "100") == [0x33000100, 0x32000100, 0x02000100]
    assert filter_dids(dids, None, "0x0200") == [0x02000100]
    assert filter_dids(dids, None, "", limit=2) == dids[:2]
    assert parse_hex_query(" 0x33zz0 ") == "330"
    # garbage is not a DID: nothing listed, and the panel says why
    assert filter_dids(dids, None, " 0x33zz0 ") == [] and filter_dids(dids, None, "hello") == []
    assert "not a DID" in hex_query_problem("hello") and hex_query_problem("0x33000719") is None
    assert "more than 8" in hex_query_problem("330007190")
    assert hex_query_problem("") is None and filter_dids(dids, None, "  ") == dids


def test_uses_and_used_by_through_the_background_index(db):
    idx = AssetIndex(db)
    xi = idx.wait(30)
    assert xi is not None and idx.ready() is xi and AssetIndex(db).build() is idx.build()
    assert F.SCRIPT in xi.users(F.EMITTER) and F.SCRIPT_PES in xi.users(F.EMITTER_PES)
    assert xi.users(F.SCRIPT) == [F.TABLE]
    assert F.SCRIPT in xi.users(F.SCRIPT_PES)                   # CallPES
    assert [r.how for r in xi.used_by(F.SCRIPT)] == ["Launch (0x04) #0 mod 0.3"]
    assert xi.used_by(F.SETUP) == []


def test_search_by_did_playscript_name_hook_type_and_emitter_used(db):
    xi = AssetIndex(db).wait(30)
    dids = db.dids()
    # DID: prefix or full, 0x optional; no index needed
    assert search_dids(dids, None, "0x3300010")[0] == [d for d in dids if d >> 4 == 0x3300010]
    assert search_dids(dids, None, "33000100")[0] == [F.SCRIPT]
    # a name needs the index: said while it is built
    assert search_dids(dids, None, "Launch")[:2] == (
        [], "the cross-reference index is being built: name searches wait for it")
    found, problem, note = search_dids(dids, xi, "launch")
    assert problem is None and F.TABLE in found and F.SCRIPT in found and "Launch (0x04)" in note
    assert F.TABLE in search_dids(dids, xi, "launch", 0x34)[0]
    assert all(d >> 24 == 0x34 for d in search_dids(dids, xi, "launch", 0x34)[0])
    found, _, note = search_dids(dids, xi, "CallPES")
    assert F.SCRIPT in found and note == "hooks CallPES (19)"
    assert search_dids(dids, xi, f"uses:0x{F.EMITTER:08X}")[0] == [F.SCRIPT]
    assert search_dids(dids, xi, f"uses:{F.EMITTER_PES:08x}")[0] == [F.SCRIPT_PES]
    assert search_dids(dids, xi, "hook:Hidden")[1].startswith("'hook:Hidden' is not a DID")
    assert F.TABLE in search_dids(dids, xi, "ps:Hidden")[0]
    found, problem, _ = search_dids(dids, xi, "Lanch")
    assert found == [] and "is not a DID, a PlayScript name or a hook type" in problem


def test_describe_names_playscripts_and_hooks(db):
    text = "\n".join(describe(db, F.TABLE))
    assert "Launch (0x04): 0.3->0x33000100, 1->0x33000102" in text
    assert "Hidden (0x76)" in text
    script = describe(db, F.SCRIPT)
    assert any("CallPES" in line for line in script) and "3 hooks" in script[1]
    assert any(f"emitter_info_id 0x{F.EMITTER:08X}" in line for line in script)
    assert any(f"pes_id 0x{F.SCRIPT_PES:08X}, pause 0.25" in line for line in script)
    assert type_name(F.EMITTER) == "ParticleEmitterInfo"


def test_double_click_loads_setup_or_plays_script():
    assert activate(F.SETUP, 1) == [c.LoadSetup(F.SETUP)]
    assert activate(F.SCRIPT, 1) == [c.PlayScript(1, F.SCRIPT)]
    assert activate(F.SCRIPT, None) == [c.Select("asset", F.SCRIPT)]
    assert activate(F.EMITTER, 1) == [c.Select("asset", F.EMITTER)]


def test_recent_files_newest_first_deduplicated_and_persisted(tmp_path):
    path = tmp_path / "recent.json"
    r = RecentFiles(path, limit=3)
    for p in ("a.dat", "b.dat", "a.dat", "c.dat", "d.dat"):
        r.add(p)
    assert r.items == ["d.dat", "c.dat", "a.dat"]
    assert RecentFiles(path).items == ["d.dat", "c.dat", "a.dat"]
    path.write_text("not json")
    assert RecentFiles(path).items == []


def test_hidden_toggle_flips_one_bit_as_a_set_state():
    assert toggle_state(1, 0x00400C08, 0x4000) == c.SetState(1, 0x00404C08)
    assert toggle_state(1, 0x00404C08, 0x4000) == c.SetState(1, 0x00400C08)
    bits = {name: on for name, _, on in state_bit_rows(0x00404C08)}
    assert bits["Hidden"] and bits["Lighting"] and not bits["NoDraw"]


def test_object_panel_play_and_motion_commands():
    st = ObjectPanelState(play_text="Launch", intensity_text="nan", motion_text="0x10000153")
    (cmd,) = play_commands(1, st)
    assert cmd.play == 0x04 and math.isnan(cmd.intensity)
    assert motion_commands(1, st) == [c.PlayMotion(1, 0x10000153)]
    # a typed name or number that is none is reported, never silence (issue 19)
    (bad,) = play_commands(1, ObjectPanelState(play_text="NoSuchThing"))
    assert isinstance(bad, c.ReportProblem) and "'NoSuchThing' is not a PlayScript" in bad.message
    (bad,) = play_commands(1, ObjectPanelState(intensity_text="x"))
    assert isinstance(bad, c.ReportProblem) and "intensity 'x' is not a number" in bad.message
    (bad,) = motion_commands(1, ObjectPanelState(motion_text="zz"))
    assert isinstance(bad, c.ReportProblem) and "'zz' is not a motion" in bad.message
    ctl = Controller()
    assert ctl.apply(bad, "panel Object") is False
    assert bad.message in ctl.errors.entries[0].line()


def test_emitter_state_names():
    assert emitter_state(False, 3) == "running"
    assert emitter_state(True, 3) == "stopped"
    assert emitter_state(True, 0) == "finished"
    assert emitter_state(False, 3, destroyed=True) == "finished"


def test_emitters_view_joins_live_and_finished(db):
    s = Session(db, Scenario.from_json(F.scenario_json()))
    s.apply(c.Seek(1.95))
    from viewer.sim.inspect import live_emitters
    live = live_emitters(s.world)
    v = emitters_view(live, s.tracks, ("particle", (2, 0)))
    assert [e.info_did for e in v.live] == [F.EMITTER_PES]
    assert [e.info_did for e in v.finished] == [F.EMITTER]
    assert v.selected_handle == 2 and v.selected_particle == (2, 0)
    fields = dict(emitter_info_fields(live[0].info))
    assert fields["hw_gfxobj_id"] == f"0x{F.GFX:08X}" and fields["max_particles"] == "20"


def test_emitters_view_at_t0_lists_later_emitters_as_not_yet_created(db):
    """Issue 27 item 4: with the log explored past them, the emitters created later are
    "not yet created" at t = 0, not "finished 1.00-1.40 s"; finished once the time shown
    is past them."""
    s = Session(db, Scenario.from_json(F.scenario_json()))
    s.apply(c.Seek(1.95))
    s.apply(c.Seek(0.0))
    from viewer.sim.inspect import live_emitters
    early = emitters_view(live_emitters(s.world), s.tracks, None, now=0.0)
    assert early.finished and {e.state for e in early.finished} == {"not yet created"}
    late = emitters_view(live_emitters(s.world), s.tracks, None, now=1.95)
    assert {e.state for e in late.finished} == {"finished"}


def _em(handle, *positions):
    return EmitterView(handle, 1, -1, (0, 0, 0), 1, 0, None, "running", len(positions),
                       len(positions), 0, (0, 0, 0),
                       tuple(ParticleRow(i, 0.1, 1.0, p, 1.0, 0.0)
                             for i, p in enumerate(positions)))


def test_pick_particle_nearest_on_screen_within_radius():
    cam = Camera(target=(0, 0, 0), distance=5)
    size = (200, 100)
    centre = project(cam, size, (0, 0, 0))
    assert centre == pytest.approx((100, 50), abs=1e-6)
    ems = [_em(1, (0, 0, 0), (1, 0, 0)), _em(2, (0.02, 0, 0))]
    assert pick_particle(ems, cam, size, centre) == (1, 0)
    far = project(cam, size, (1, 0, 0))
    assert pick_particle(ems, cam, size, far) == (1, 1)
    assert pick_particle(ems, cam, size, (0, 0)) is None


def test_project_behind_eye_is_none():
    cam = Camera(target=(0, 0, 0), distance=5)
    assert project(cam, (100, 100), tuple(cam.eye() - cam.forward() * 2)) is None


def test_tracks_empty_log():
    t = TimelineTracks.from_events([])
    assert t.lanes() == [] and t.next_marker(0.0, 1) is None


def test_shortcuts_map_each_press_to_one_action_in_order():
    from viewer.ui.shortcuts import ESCAPE, QUIT, SAVE, KeyPress, press_actions
    keys = [KeyPress("space"), KeyPress("left_arrow"), KeyPress("right_arrow"),
            KeyPress("right_arrow"), KeyPress("home"), KeyPress("page_up"),
            KeyPress("page_down")]
    assert press_actions(keys, text_input=False, focus="Viewport") == [
        c.TogglePlay(), c.Step(-1), c.Step(1), c.Step(1), c.Restart(), c.JumpHook(-1),
        c.JumpHook(1)]
    # twenty presses between two frames: twenty steps
    assert press_actions([KeyPress("right_arrow")] * 20, text_input=False,
                         focus=None) == [c.Step(1)] * 20
    # timeline keys only with the Viewport / Timeline (or nothing) focused
    assert press_actions(keys, text_input=False, focus="Assets") == []
    assert press_actions(keys, text_input=False, focus="Timeline") != []
    # a text field takes every key, Esc included
    assert press_actions(keys + [KeyPress("escape"), KeyPress("z", ctrl=True)],
                         text_input=True, focus="Viewport") == []
    mods = [KeyPress("z", ctrl=True), KeyPress("z", ctrl=True, shift=True),
            KeyPress("y", ctrl=True), KeyPress("s", ctrl=True), KeyPress("q", ctrl=True),
            KeyPress("escape"), KeyPress("space", ctrl=True)]
    assert press_actions(mods, text_input=False, focus="Assets") == [
        c.Undo(), c.Redo(), c.Redo(), SAVE, QUIT, ESCAPE]


def test_live_emitters_builds_particle_rows_only_for_the_asked_handle(db):
    from viewer.sim.inspect import live_emitters
    s = Session(db, Scenario.from_json(F.scenario_json()))
    s.apply(c.Seek(1.3))
    both = {e.handle: len(e.particles) for e in live_emitters(s.world, with_particles=True)}
    assert len(both) == 2 and all(both.values())
    one = {e.handle: len(e.particles) for e in live_emitters(s.world, with_particles=2)}
    assert one == {1: 0, 2: both[2]}
    assert all(len(e.particles) == 0 for e in live_emitters(s.world))



def test_live_emitters_reads_the_emitter_table_in_one_gather(db, monkeypatch):
    """Counts and states come from one numpy gather over the pool's emitter table, not
    from per-emitter column properties (500 emitters: thousands of property reads a
    frame); the values are the properties' own."""
    from viewer.sim import particles as particles_mod
    from viewer.sim.inspect import live_emitters
    s = Session(db, Scenario.from_json(F.scenario_json()))
    s.apply(c.Seek(1.3))
    ems = {em.handle: em for o in s.world.objects.values() if o.particle_manager
           for _, em in o.particle_manager.emitters()}
    want = {h: (em.num_particles, em.total_emitted, em.stopped) for h, em in ems.items()}
    reads = []
    real = particles_mod._Column.__get__

    def counted(self, em, owner=None):
        if em is not None:
            reads.append(self.name)
        return real(self, em, owner)
    monkeypatch.setattr(particles_mod._Column, "__get__", counted)
    live = live_emitters(s.world)
    assert reads == []
    assert {e.handle: (e.alive, e.emitted, e.state) for e in live} == {
        h: (a, n, "stopped" if st and a else "finished" if st else "running")
        for h, (a, n, st) in want.items()}
    assert len(live) == 2 and any(e.alive for e in live)

def test_event_log_cache_follows_new_frames(db):
    s = Session(db, Scenario.from_json(F.scenario_json()), prepass=False)
    n0 = len(s.events())
    s.apply(c.Seek(1.0))
    assert len(s.events()) > n0
    s.apply(c.Seek(0.0))
    assert s.events() is s.events()


def test_object_summary_lists_live_lights():
    from viewer import synthetic as S
    from viewer.sim.inspect import object_summaries
    from viewer.ui.session import open_database
    s = Session(open_database([str(S.SYNTHETIC_DAT)]), Scenario(seconds=1.0), prepass=False)
    s.apply(c.LoadSetup(S.SETUP_LANTERN, None))
    (obj,) = object_summaries(s.world)
    assert obj.lights == len(obj.light_rows) >= 1
    assert "intensity" in obj.light_rows[0] and len(obj.part_orientations) == len(obj.parts)


def test_asset_listing_is_cached_until_query_changes(db):
    from viewer.ui.assets_panel import AssetsState
    st = AssetsState()
    first = st.listing(db, 0x33)
    assert st.listing(db, 0x33) is first and F.SCRIPT in first
    st.query = "0x330001"
    assert st.listing(db, 0x33) is not first
    assert all(f"{d:08X}".startswith("330001") for d in st.listing(db, 0x33))


def test_pick_object_nearest_origin_within_radius():
    from types import SimpleNamespace

    from viewer.ui.viewport_panel import pick_object
    cam = Camera(target=(0, 0, 0), distance=5)
    objs = [SimpleNamespace(id=1, position=(0, 0, 0)), SimpleNamespace(id=2, position=(2, 0, 0))]
    size = (200, 100)
    assert pick_object(objs, cam, size, project(cam, size, (0, 0, 0))) == 1
    assert pick_object(objs, cam, size, project(cam, size, (2, 0, 0))) == 2
    assert pick_object(objs, cam, size, (0, 0)) is None


def test_object_summary_shows_the_script_queue(db):
    from viewer.sim.inspect import object_summaries
    s = Session(db, Scenario.from_json(F.scenario_json()))
    s.apply(c.Seek(0.2))
    (obj,) = object_summaries(s.world)
    assert obj.queue_rows and obj.queue_rows[0].startswith(f"0x{F.SCRIPT:08X} starts")
    assert "3 hooks" in obj.queue_rows[0] and "next at 0.500 s" in obj.queue_rows[0]
    s.apply(c.Seek(0.55))
    (obj,) = object_summaries(s.world)
    assert any("CallPES" in row for row in obj.tween_rows)
