"""Each hook's effect on its owner (CAnimHook.c *Hook::Execute,
FPHook::Execute 0x0051BAA0, process_fp_hook 0x00513600, CallPES 0x00511AF0)."""

import pytest
import sim_builders as B

from viewer.dat.records.common import AnimationHookType
from viewer.dat.records.hooks import (
    DefaultScriptHook,
    DefaultScriptPartHook,
    DiffuseHook,
    DiffusePartHook,
    EtherealHook,
    LuminousHook,
    LuminousPartHook,
    NoDrawHook,
    ReplaceObjectHook,
    ScaleHook,
    SetLightHook,
    SetOmegaHook,
    SoundHook,
    SoundTableHook,
    SoundTweakedHook,
    TextureVelocityHook,
    TextureVelocityPartHook,
    TransparentHook,
    TransparentPartHook,
)
from viewer.sim import hooks as H
from viewer.sim.frame import EPS
from viewer.sim.physobj import FPHookType
from viewer.sim.state import PhysicsState as PS


def _obj(parts=2, recs=None):
    w = B.world({0x02000001: B.setup(parts=parts, lights=1), **(recs or {})})
    return w, w.create_object(1, 0x02000001)


def _run(w, o, hook):
    H.execute_hook(w, o, hook, 0x33000001, 0)


def _tick(w, o, t):
    w.physics_time = t
    H.process_hooks(w, o)


def test_LuminousHook_immediate_below_eps_sets_every_part():
    w, o = _obj()
    _run(w, o, LuminousHook(0, 0.0, 0.7, EPS / 2))
    assert [p.luminosity for p in o.parts] == [0.7, 0.7] and not o.fp_hooks


def test_LuminousHook_timed_fade_is_linear_and_ends_on_end_value():
    w, o = _obj()
    w.physics_time = 1.0
    _run(w, o, LuminousHook(0, 0.0, 1.0, 2.0))
    _tick(w, o, 1.0)
    assert o.parts[0].luminosity == 0.0  # e <= 0 -> start value
    _tick(w, o, 2.0)
    assert o.parts[0].luminosity == pytest.approx(0.5)
    _tick(w, o, 3.5)
    assert o.parts[0].luminosity == 1.0 and not o.fp_hooks  # finished, removed


def test_DiffuseHook_and_DiffusePartHook():
    w, o = _obj()
    _run(w, o, DiffuseHook(0, 1.0, 0.25, 0.0))
    assert [p.diffuse for p in o.parts] == [0.25, 0.25]
    _run(w, o, DiffusePartHook(0, 1, 1.0, 0.5, 0.0))
    assert [p.diffuse for p in o.parts] == [0.25, 0.5]


def test_LuminousPartHook_out_of_range_part_is_a_silent_noop():
    w, o = _obj()
    _run(w, o, LuminousPartHook(0, -1, 0.0, 0.9, 0.0))
    _run(w, o, LuminousPartHook(0, 5, 0.0, 0.9, 0.0))
    assert [p.luminosity for p in o.parts] == [0.0, 0.0]


def test_TransparentHook_SetTranslucency2_clamps_to_original():
    w, o = _obj()
    o.translucency_original = 0.4
    _run(w, o, TransparentHook(0, 0.0, 0.2, 0.0))
    assert o.translucency == 0.4 and o.parts[0].translucency == 0.4


def test_TransparentHook_one_hides_parts_and_other_values_unhide():
    w, o = _obj()
    _run(w, o, TransparentHook(0, 0.0, 1.0, 0.0))
    assert all(p.hidden for p in o.parts)
    _run(w, o, TransparentPartHook(0, 0, 1.0, 0.5, 0.0))
    assert not o.parts[0].hidden and o.parts[1].hidden


def test_FPHook_newest_first_so_the_older_tween_wins_while_both_run():
    w, o = _obj()
    w.physics_time = 0.0
    _run(w, o, TransparentHook(0, 0.0, 0.8, 1.0))   # older
    _run(w, o, TransparentHook(0, 0.0, 0.2, 1.0))   # newer, prepended
    _tick(w, o, 0.5)
    assert o.translucency == pytest.approx(0.4)  # the older one was applied last


def test_ScaleHook_tweens_from_current_scale():
    w, o = _obj()
    o.set_scale_static(2.0)
    w.physics_time = 0.0
    _run(w, o, ScaleHook(0, 4.0, 1.0))
    _tick(w, o, 0.5)
    assert o.scale == pytest.approx(3.0)
    assert o.parts[0].gfxobj_scale == pytest.approx((3.0, 3.0, 3.0))
    _run(w, o, ScaleHook(0, 1.0, 0.0))
    assert o.scale == 1.0


def test_SetOmegaHook_sets_global_omega():
    w, o = _obj()
    _run(w, o, SetOmegaHook(0, (0.0, 0.0, 2.0)))
    assert o.omega == (0.0, 0.0, 2.0)


def test_TextureVelocityHook_registers_per_gfxobj_and_wraps_once_over_one():
    w, o = _obj()
    _run(w, o, TextureVelocityHook(0, 0.5, -0.25))
    entry = w.texture_velocity[B.GFX]
    w.update_tex_velocity(1.0)
    w.update_tex_velocity(1.0)
    assert entry[2:] == [1.0, -0.5]
    w.update_tex_velocity(1.0)  # u >= 1 before the step: steps back by one
    assert entry[2:] == [0.5, -0.75]  # negative speeds never wrap
    _run(w, o, TextureVelocityPartHook(0, 0, 0.0, 0.0))  # (0, 0) unregisters
    assert B.GFX not in w.texture_velocity


def test_SetLightHook_drives_the_lighting_state():
    w, o = _obj()
    _run(w, o, SetLightHook(0, False))
    assert not o.state & PS.Lighting and o.lights is None
    _run(w, o, SetLightHook(0, True))
    assert o.state & PS.Lighting and len(o.lights) == 1


def test_NoDrawHook_and_EtherealHook_set_state_bits():
    w, o = _obj()
    _run(w, o, NoDrawHook(0, True))
    assert o.nodraw and all(p.hidden for p in o.parts)
    _run(w, o, EtherealHook(0, True))
    assert o.state & PS.Ethereal
    _run(w, o, NoDrawHook(0, False))
    assert not o.nodraw


def test_sound_hooks_are_recorded_as_events():
    w, o = _obj()
    _run(w, o, SoundHook(0, 0x0A000001))
    _run(w, o, SoundTableHook(0, 0x0F))
    _run(w, o, SoundTweakedHook(0, 0x0A000002, 1.0, 0.9, 0.5))
    sounds = B.events(w, "sound")
    assert [s["type"] for s in sounds] == ["Sound", "SoundTable", "SoundTweaked"]
    assert sounds[2]["volume"] == 0.5


def test_ReplaceObjectHook_swaps_the_part_gfxobj():
    w, o = _obj()
    _run(w, o, ReplaceObjectHook(0, 1, 0x01000099))
    assert o.parts[1].gfxobj_id == 0x01000099


def test_hook_execution_is_traced_with_source_index_and_type():
    w, o = _obj()
    H.execute_hook(w, o, SoundHook(0, 1), 0x33000042, 3)
    ev = B.events(w, "hook")[-1]
    assert (ev["source"], ev["index"], ev["type"]) == (0x33000042, 3, "Sound")


# -- CallPES and default scripts ---------------------------------------------------------
PES = 0x33000777


def _pes_world():
    from viewer.dat.records.hooks import NoOpHook
    recs = {PES: B.script(PES, (0.0, NoOpHook(0))),
            0x33000778: B.script(0x33000778, (0.0, NoOpHook(0))),
            0x34000001: B.table(0x34000001, {0x80: [(0.5, PES), (1.0, 0x33000778)]})}
    return _obj(recs=recs)


def test_CallPES_0x00511AF0_pause_below_eps_enqueues_now():
    w, o = _pes_world()
    H.call_pes(w, o, PES, EPS / 2)
    assert [e["script"] for e in B.events(w, "script", action="queued")] == [PES]
    assert not o.fp_hooks


def test_CallPES_0x00511AF0_delay_is_uniform_in_pause_and_plays_when_due():
    w, o = _pes_world()
    w.physics_time = 10.0
    draws = w.rng.draws
    H.call_pes(w, o, PES, 2.0)
    assert w.rng.draws == draws + 1
    fp = o.fp_hooks[0]
    assert fp.hook_type == FPHookType.CallPES and 0.0 <= fp.interpolation_time <= 2.0
    _tick(w, o, 10.0 + fp.interpolation_time * 0.99)
    assert not B.events(w, "script", action="queued")
    _tick(w, o, 10.0 + fp.interpolation_time + 1e-9)
    assert [e["script"] for e in B.events(w, "script", action="queued")] == [PES]
    assert not o.fp_hooks


def test_CallPES_0x00511AF0_delayed_calls_are_head_inserted_newest_first():
    w, o = _pes_world()
    H.call_pes(w, o, PES, 1.0)
    H.call_pes(w, o, 0x33000778, 1.0)
    assert [fp.user_data for fp in o.fp_hooks] == [0x33000778, PES]


def test_DefaultScriptHook_resolves_owner_default_type_and_intensity():
    w, o = _pes_world()
    w._install_table(o, 0x34000001)
    o.default_script_type, o.default_script_intensity = 0x80, 0.7
    _run(w, o, DefaultScriptHook(0))
    assert [e["script"] for e in B.events(w, "script", action="queued")] == [0x33000778]


def test_DefaultScriptPartHook_plays_the_attached_childs_own_default():
    w, o = _pes_world()
    child = w.create_object(2, 0x02000001, table=0x34000001, default_script_type=0x80,
                            default_script_intensity=0.2)
    w.attach_child(child, o, 1)
    _run(w, o, DefaultScriptPartHook(0, 0))  # nobody at part 0
    assert not B.events(w, "script", action="queued")
    _run(w, o, DefaultScriptPartHook(0, 1))
    q = B.events(w, "script", action="queued")
    assert [(e["owner"], e["script"]) for e in q] == [(2, PES)]


def test_every_hook_type_but_NoOp_Attack_and_AnimationDone_has_a_handler_and_a_trace_name():
    # <Hook>::Execute (CAnimHook.c): NoOp and Attack do nothing visible; no record holds an
    # AnimationDone (CAnimHook::UnPackHook 0x005271D0 builds none), the runtime's own is
    # handled apart (traced with source null)
    assert set(H.HOOK_HANDLERS) == set(AnimationHookType) - {
        AnimationHookType.NoOp, AnimationHookType.Attack, AnimationHookType.AnimationDone}
    assert {t.value: t.name for t in AnimationHookType} == H.HOOK_NAMES


def test_every_tween_channel_but_CallPES_applies_a_value_process_fp_hook_0x00513600():
    assert set(H.TWEEN_CHANNELS) == set(FPHookType) - {FPHookType.CallPES}
    assert [t.value for t in FPHookType] == list(range(8))


def test_an_unknown_hook_number_is_traced_by_number_and_does_nothing():
    class Unknown:
        hook_type = 99
    w, o = _obj()
    before = (o.scale, o.luminosity, o.diffuse, list(o.fp_hooks))
    _run(w, o, Unknown())
    assert B.events(w, "hook")[-1]["type"] == "99"
    assert (o.scale, o.luminosity, o.diffuse, list(o.fp_hooks)) == before


def test_hook_type_of_reads_a_stored_null_hook_type():
    from viewer.dat.records.hooks import NullHook
    assert H.hook_type_of(NullHook(0, 4)) == 4 and H.hook_type_of(NullHook(0, 99)) == 99
    assert H.hook_type_of(SoundHook(0, 1)) == 1
