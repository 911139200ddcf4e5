"""The object-event layer: the SmartBox handlers each test names."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.wire.builders import create_object
from viewer.wire.descs import INSTANCE_TS, PD_CSETUP, PD_PETABLE, PD_POSITION, POSITION_TS, Position
from viewer.wire.messages import (
    CreateObject,
    DeleteObject,
    ObjDescEvent,
    ParentEvent,
    PickupEvent,
    PlayerCreate,
    PlayerTeleport,
    PlayScriptId,
    PlayScriptType,
    SetState,
    UpdateMotion,
    UpdatePosition,
    VectorUpdate,
    decode_message,
)
from viewer.wire.motion import MovementBody
from viewer.wire.smartbox import SmartBox, is_newer

GUID = 0x80000001
PLAYER = 0x50000001
BASE = decode_message(create_object(GUID, PD_CSETUP | PD_PETABLE | PD_POSITION))
POS = Position(0xA9B40019, (1.0, 2.0, 3.0), (1.0, 0.0, 0.0, 0.0))
POS2 = Position(0xA9B40019, (5.0, 2.0, 3.0), (1.0, 0.0, 0.0, 0.0))


def make_create(guid=GUID, instance=1, stamps=None, state=0x00400C08, update=False,
                parent=None) -> CreateObject:
    s = list(stamps or (0,) * 9)
    s[INSTANCE_TS] = instance
    phys = dataclasses.replace(BASE.physics, timestamps=tuple(s), state=state, parent=parent,
                               flags=BASE.physics.flags | (0x20 if parent else 0))
    return dataclasses.replace(BASE, guid=guid, physics=phys, update=update)


def kinds(decisions):
    return [(a.kind, a.reason) if a.reason else a.kind for a in decisions]


def box_with_player() -> SmartBox:
    b = SmartBox()
    b.dispatch(0.0, PlayerCreate(PLAYER))
    return b


# -- the wrap-safe comparison (CPhysicsObj::is_newer 0x00451AD0) ---------------------------

def test_is_newer_equal_is_stale():
    assert not is_newer(100, 100)


def test_is_newer_up_to_0x7FFF_higher_wins():
    assert is_newer(0, 0x7FFF)
    assert not is_newer(0x7FFF, 0)


def test_is_newer_exact_0x8000_boundary_lower_wins():
    # distance exactly 0x8000: the numerically lower stamp is the newer one
    assert is_newer(0x8000, 0)
    assert not is_newer(0, 0x8000)
    assert is_newer(0xFFFF, 0x7FFF) and not is_newer(0x7FFF, 0xFFFF)


def test_is_newer_wraps_65530_to_3():
    assert is_newer(65530, 3) and not is_newer(3, 65530)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 0xFFFF), st.integers(0, 0xFFFF))
def test_is_newer_antisymmetric_except_at_distance_0x8000(a, b):
    if a == b:
        assert not is_newer(a, b)
    elif abs(a - b) == 0x8000:
        assert is_newer(a, b) == (b < a) and is_newer(b, a) == (a < b)
    else:
        assert is_newer(a, b) != is_newer(b, a)


# -- generations by Instance ----------------------------------------------------------------

def test_CreateObject_first_generation_copies_all_nine_stamps():
    b = box_with_player()
    out = b.dispatch(1.0, make_create(stamps=(5, 6, 7, 8, 9, 10, 11, 12, 0), instance=3))
    assert kinds(out) == ["create"]
    assert b.objects[GUID].update_times == [5, 6, 7, 8, 9, 10, 11, 12, 3]
    assert out[0].generation == 1


def test_CreateObject_newer_instance_starts_new_generation():
    b = box_with_player()
    b.dispatch(1.0, make_create(instance=3))
    out = b.dispatch(2.0, make_create(instance=4, stamps=(9,) * 9))
    assert kinds(out) == [("delete", "replaced"), "create"]
    assert out[1].generation == 2 and b.objects[GUID].update_times[POSITION_TS] == 9


def test_CreateObject_older_instance_rejected():
    b = box_with_player()
    b.dispatch(1.0, make_create(instance=3))
    assert kinds(b.dispatch(2.0, make_create(instance=2))) == [("rejected", "stale instance")]


def test_CreateObject_same_instance_routes_per_channel_not_wholesale():
    b = box_with_player()
    b.dispatch(1.0, make_create(instance=3, stamps=(5, 0, 5, 5, 0, 0, 0, 5, 0)))
    # same Instance; state stamp newer (6), vector stamp stale (5), position stamp stale (5)
    out = b.dispatch(2.0, make_create(instance=3, stamps=(5, 0, 6, 5, 0, 0, 0, 5, 0),
                                      state=0x4000))
    ks = kinds(out)
    assert ("rejected", "stale objdesc stamp") in ks
    assert ("rejected", "stale position stamp") in ks
    assert "set_state" in ks and ("rejected", "stale vector stamp") in ks
    assert b.objects[GUID].generation == 1 and b.objects[GUID].state == 0x4000


def test_UpdateObject_F7DB_always_recreates():
    b = box_with_player()
    b.dispatch(1.0, make_create(instance=3))
    out = b.dispatch(2.0, make_create(instance=3, update=True))
    assert kinds(out) == [("delete", "replaced"), "create"]


# -- per-channel gates ----------------------------------------------------------------------

def test_SetState_requires_exact_instance_and_strictly_newer_stamp():
    b = box_with_player()
    b.dispatch(1.0, make_create(instance=3, stamps=(0, 0, 10, 0, 0, 0, 0, 0, 0)))
    assert kinds(b.dispatch(2, SetState(GUID, 0x20, 2, 11))) == [("rejected", "stale instance")]
    assert kinds(b.dispatch(2, SetState(GUID, 0x20, 3, 10))) == \
        [("rejected", "stale state stamp")]
    out = b.dispatch(2, SetState(GUID, 0x4000, 3, 11))
    assert kinds(out) == ["set_state"] and out[0].detail == (0x4000, 0x00400C08)


def test_SetState_state_stamp_across_0x8000_boundary():
    b = box_with_player()
    b.dispatch(1.0, make_create(instance=0, stamps=(0, 0, 0x8000, 0, 0, 0, 0, 0, 0)))
    # stored 0x8000, incoming 0: distance 0x8000, lower wins -> newer
    assert kinds(b.dispatch(2, SetState(GUID, 1, 0, 0))) == ["set_state"]


def test_VectorUpdate_gate():
    b = box_with_player()
    b.dispatch(1.0, make_create(instance=1))
    assert kinds(b.dispatch(2, VectorUpdate(GUID, (1, 0, 0), (0, 0, 1), 1, 1))) == ["vector"]
    assert kinds(b.dispatch(2, VectorUpdate(GUID, (1, 0, 0), (0, 0, 1), 1, 1))) == \
        [("rejected", "stale vector stamp")]


def test_ObjDescEvent_gate():
    b = box_with_player()
    b.dispatch(1.0, make_create(instance=1))
    od = BASE.objdesc
    assert kinds(b.dispatch(2, ObjDescEvent(GUID, od, 1, 1))) == ["objdesc"]
    assert kinds(b.dispatch(2, ObjDescEvent(GUID, od, 1, 1))) == \
        [("rejected", "stale objdesc stamp")]


def _motion(guid, instance, mts, sts, autonomous=0):
    return UpdateMotion(guid, instance, mts, sts, autonomous, MovementBody(0, 0, 0x3D))


def test_UpdateMotion_server_control_equal_is_accepted_CPhysics_SetObjectMovement_0x00509690():
    b = box_with_player()
    b.dispatch(1.0, make_create(instance=1, stamps=(0, 5, 0, 0, 0, 7, 0, 0, 0)))
    assert kinds(b.dispatch(2, _motion(GUID, 1, 6, 7))) == ["movement"]
    # older server-control stamp rejected, but the movement stamp already advanced
    assert kinds(b.dispatch(3, _motion(GUID, 1, 7, 6))) == \
        [("rejected", "stale server-control stamp")]
    assert b.objects[GUID].update_times[1] == 7
    assert kinds(b.dispatch(4, _motion(GUID, 1, 7, 7))) == [("rejected", "stale movement stamp")]


def test_UpdateMotion_autonomous_for_local_player_not_applied():
    b = box_with_player()
    b.dispatch(1.0, make_create(guid=PLAYER, instance=1))
    assert kinds(b.dispatch(2, _motion(PLAYER, 1, 1, 0, autonomous=1))) == \
        [("rejected", "autonomous movement of the local player")]


# -- delete rules (SmartBox::HandleDeleteObject 0x00451BC0) ----------------------------------

def test_Delete_local_player_rejected_unconditionally():
    b = box_with_player()
    b.dispatch(1.0, make_create(guid=PLAYER, instance=1))
    assert kinds(b.dispatch(2, DeleteObject(PLAYER, 1))) == \
        [("rejected", "local player is never deleted")]


def test_Delete_requires_exact_instance():
    b = box_with_player()
    b.dispatch(1.0, make_create(instance=5))
    assert kinds(b.dispatch(2, DeleteObject(GUID, 4))) == [("rejected", "stale instance")]
    assert kinds(b.dispatch(2, DeleteObject(GUID, 6))) == [("queued", "future instance")]
    assert kinds(b.dispatch(3, DeleteObject(GUID, 5))) == ["delete"]
    assert GUID not in b.objects


def test_future_instance_delete_applies_after_the_new_generation_arrives():
    b = box_with_player()
    b.dispatch(1.0, make_create(instance=5))
    b.dispatch(2.0, DeleteObject(GUID, 6))
    out = b.dispatch(3.0, make_create(instance=6))
    assert kinds(out) == [("delete", "replaced"), "create", "delete"]
    assert (out[-1].t, out[-1].received) == (3.0, 2.0) and GUID not in b.objects


# -- ParentEvent / PickupEvent --------------------------------------------------------------

def test_ParentEvent_parent_instance_and_child_position_stamp():
    b = box_with_player()
    b.dispatch(0, make_create(guid=PLAYER, instance=2))
    b.dispatch(0, make_create(guid=GUID, instance=1, stamps=(4,) + (0,) * 8))
    assert kinds(b.dispatch(1, ParentEvent(PLAYER, GUID, 1, 0x65, 1, 5))) == \
        [("rejected", "stale instance")]
    assert kinds(b.dispatch(1, ParentEvent(PLAYER, GUID, 1, 0x65, 2, 4))) == \
        [("rejected", "stale position stamp")]
    out = b.dispatch(1, ParentEvent(PLAYER, GUID, 1, 0x65, 2, 5))
    assert kinds(out) == ["parent"] and out[0].detail == (PLAYER, 1, 0x65)
    assert b.objects[GUID].parent == PLAYER
    assert b.objects[GUID].update_times[POSITION_TS] == 5


def test_ParentEvent_missing_child_queued_on_child():
    b = box_with_player()
    b.dispatch(0, make_create(guid=PLAYER, instance=2))
    assert kinds(b.dispatch(1, ParentEvent(PLAYER, GUID, 1, 0, 2, 5))) == \
        [("queued", "child not created")]
    out = b.dispatch(2, make_create(guid=GUID, instance=1))
    assert kinds(out) == ["create", "parent"]


def test_PickupEvent_advances_shared_position_stamp_and_keeps_object():
    b = box_with_player()
    b.dispatch(0, make_create(instance=1, stamps=(3,) + (0,) * 8))
    assert kinds(b.dispatch(1, PickupEvent(GUID, 1, 3))) == [("rejected", "stale position stamp")]
    assert kinds(b.dispatch(1, PickupEvent(GUID, 1, 4))) == ["pickup"]
    assert GUID in b.objects and not b.objects[GUID].in_cell
    # the same POSITION counter now gates UpdatePosition
    up = UpdatePosition(GUID, 0x4, POS, None, None, 1, 4, 0, 0)
    assert kinds(b.dispatch(2, up)) == [("rejected", "stale position stamp")]


def test_CreateObject_with_missing_parent_queued_on_parent():
    b = box_with_player()
    out = b.dispatch(1, make_create(guid=GUID, instance=1, parent=(PLAYER, 1)))
    assert kinds(out) == [("queued", "parent not created")]
    out = b.dispatch(2, make_create(guid=PLAYER, instance=1))
    assert kinds(out) == ["create", "create"] and b.objects[GUID].parent == PLAYER


# -- positions (SmartBox::HandleReceivedPosition 0x00453FD0) --------------------------------

def _pos(guid, pts, tts=0, fts=0, instance=1, flags=0x4, position=POS2, velocity=None):
    return UpdatePosition(guid, flags, position, velocity, None, instance, pts, tts, fts)


def test_remote_position_requires_newer_position_stamp():
    b = box_with_player()
    b.dispatch(0, make_create(instance=1, stamps=(3,) + (0,) * 8))
    assert kinds(b.dispatch(1, _pos(GUID, 3))) == [("rejected", "stale position stamp")]
    out = b.dispatch(1, _pos(GUID, 4, velocity=(1.0, 0.0, 0.0)))
    assert kinds(out) == ["position"] and out[0].detail[0] == "move"
    assert out[0].detail[2] == (1.0, 0.0, 0.0)


def test_remote_position_older_teleport_restores_position_stamp():
    b = box_with_player()
    b.dispatch(0, make_create(instance=1, stamps=(3, 0, 0, 0, 7, 0, 0, 0, 0)))
    assert kinds(b.dispatch(1, _pos(GUID, 4, tts=6))) == [("rejected", "stale teleport stamp")]
    assert b.objects[GUID].update_times[POSITION_TS] == 3


def test_remote_position_newer_teleport_snaps_and_advances_teleport():
    b = box_with_player()
    b.dispatch(0, make_create(instance=1, stamps=(3, 0, 0, 0, 7, 0, 0, 0, 0)))
    out = b.dispatch(1, _pos(GUID, 4, tts=8, flags=0))
    assert out[0].detail[0] == "teleport" and b.objects[GUID].update_times[4] == 8


def test_remote_position_without_contact_ignored_MoveOrTeleport():
    b = box_with_player()
    b.dispatch(0, make_create(instance=1))
    assert kinds(b.dispatch(1, _pos(GUID, 1, flags=0))) == \
        [("rejected", "no contact (MoveOrTeleport)")]


def test_local_player_force_position_with_equal_teleport_blips_even_if_position_older():
    b = box_with_player()
    b.dispatch(0, make_create(guid=PLAYER, instance=1, stamps=(10, 0, 0, 0, 5, 0, 2, 0, 0)))
    out = b.dispatch(1, _pos(PLAYER, 9, tts=5, fts=3))
    assert kinds(out) == ["position"] and out[0].detail[0] == "blip"
    times = b.objects[PLAYER].update_times
    assert times[6] == 3 and times[POSITION_TS] == 9 and times[4] == 5


def test_local_player_force_position_with_other_teleport_takes_normal_path():
    b = box_with_player()
    b.dispatch(0, make_create(guid=PLAYER, instance=1, stamps=(10, 0, 0, 0, 5, 0, 2, 0, 0)))
    out = b.dispatch(1, _pos(PLAYER, 11, tts=6, fts=3))
    assert out[0].detail[0] == "teleport" and out[0].detail[2] == (0.0, 0.0, 0.0)
    assert b.objects[PLAYER].update_times[4] == 6 and b.objects[PLAYER].update_times[6] == 3


def test_local_player_position_same_teleport_constrains_without_packet_velocity():
    b = box_with_player()
    b.dispatch(0, make_create(guid=PLAYER, instance=1))
    out = b.dispatch(1, _pos(PLAYER, 1, velocity=(3.0, 0.0, 0.0)))
    assert out[0].detail[0] == "constrain" and out[0].detail[2] is None


def test_PlayerTeleport_rejects_only_older_and_never_advances_teleport():
    b = box_with_player()
    b.dispatch(0, make_create(guid=PLAYER, instance=1, stamps=(0, 0, 0, 0, 5, 0, 0, 0, 0)))
    assert kinds(b.dispatch(1, PlayerTeleport(4))) == [("rejected", "stale teleport stamp")]
    assert kinds(b.dispatch(1, PlayerTeleport(5))) == ["teleport_wait"]
    assert kinds(b.dispatch(1, PlayerTeleport(6))) == ["teleport_wait"]
    assert b.objects[PLAYER].update_times[4] == 5


# -- queueing packets for objects not yet created -------------------------------------------

def test_effects_before_create_queued_in_order_and_replayed_after_create():
    b = box_with_player()
    assert kinds(b.dispatch(1, PlayScriptId(GUID, 0x33000099))) == \
        [("queued", "object not created")]
    b.dispatch(2, PlayScriptType(GUID, 0x37, 0.5, 0x3F000000))
    b.dispatch(3, SetState(GUID, 0x4000, 1, 1))
    out = b.dispatch(4, make_create(instance=1))
    assert kinds(out) == ["create", "play_script", "play", "set_state"]
    # applied when the object is created, in arrival order; arrival times kept
    assert [a.t for a in out] == [4, 4, 4, 4]
    assert [a.received for a in out] == [None, 1, 2, 3]
    assert not b.pending


def test_future_instance_packets_do_not_touch_current_generation():
    b = box_with_player()
    b.dispatch(0, make_create(instance=1))
    assert kinds(b.dispatch(1, SetState(GUID, 0x20, 2, 1))) == [("queued", "future instance")]
    assert b.objects[GUID].state == 0x00400C08 and b.objects[GUID].instance == 1
    out = b.dispatch(2, make_create(instance=2))
    assert kinds(out)[-1] == "set_state" and b.objects[GUID].state == 0x20


def test_still_future_packets_requeue_in_order():
    b = box_with_player()
    b.dispatch(1, SetState(GUID, 0x20, 3, 1))
    b.dispatch(2, PlayScriptId(GUID, 0x33000001))
    out = b.dispatch(3, make_create(instance=2))
    assert kinds(out) == ["create", ("queued", "future instance"), "play_script"]
    assert [t for t, _ in b.pending[GUID]] == [1]


def test_before_player_known_everything_waits_globally_IsReadyToDispatchEvent():
    b = SmartBox()
    assert kinds(b.dispatch(1, make_create(instance=1))) == [("queued", "player not created")]
    out = b.dispatch(2, PlayerCreate(PLAYER))
    assert kinds(out) == ["player", "create"]
    assert kinds(b.dispatch(3, PlayerCreate(PLAYER))) == [("rejected", "player already created")]


def test_F754_never_resolves_through_the_table_F755_keeps_raw_values():
    b = box_with_player()
    b.dispatch(0, make_create(instance=1))
    a = b.dispatch(1, PlayScriptId(GUID, 0x33000099))[0]
    assert a.kind == "play_script" and a.detail == (0x33000099,)
    a = b.dispatch(1, PlayScriptType(GUID, 0xA5A5A5A5, float("nan"), 0x7FC01234))[0]
    assert a.kind == "play" and a.detail[0] == 0xA5A5A5A5 and a.detail[2] == 0x7FC01234


@pytest.mark.parametrize("path", ["effects-burst", "enter-world"])
def test_real_captures_run_through_the_layer_without_surprises(path):
    from tests.conftest import CAPTURES
    from viewer.wire.pipeline import decode_capture
    items, _ = decode_capture(CAPTURES / f"{path}.pcap")
    b = SmartBox(require_player=path == "enter-world")
    out = [a for i in items if i.message is not None for a in b.dispatch(i.t, i.message)]
    if path == "enter-world":
        assert sum(a.kind == "create" for a in out) == 136
    else:
        assert sum(a.kind == "queued" and isinstance(a.message, PlayScriptType)
                   for a in out) == 515


_guid = st.sampled_from([GUID, PLAYER, 0x80000002])
_ts = st.integers(0, 0xFFFF) | st.sampled_from([0, 1, 2, 0x7FFF, 0x8000, 0xFFFF])
_msgs = st.one_of(
    st.builds(lambda g, i, s: make_create(guid=g, instance=i, stamps=s), _guid, _ts,
              st.tuples(*[_ts] * 9)),
    st.builds(lambda g, i, s: make_create(guid=g, instance=i, stamps=s, update=True), _guid,
              _ts, st.tuples(*[_ts] * 9)),
    st.builds(DeleteObject, _guid, _ts),
    st.builds(SetState, _guid, st.integers(0, 0xFFFFFFFF), _ts, _ts),
    st.builds(VectorUpdate, _guid, st.just((0.0, 0.0, 0.0)), st.just((0.0, 0.0, 0.0)), _ts,
              _ts),
    st.builds(PickupEvent, _guid, _ts, _ts),
    st.builds(lambda p, c, a, b: ParentEvent(p, c, 1, 0, a, b), _guid, _guid, _ts, _ts),
    st.builds(lambda g, i, m, s, a: _motion(g, i, m, s, a), _guid, _ts, _ts, _ts,
              st.integers(0, 1)),
    st.builds(lambda g, f, i, p, t, fp: UpdatePosition(g, f, POS, None, None, i, p, t, fp),
              _guid, st.integers(0, 0x7F), _ts, _ts, _ts, _ts),
    st.builds(PlayScriptId, _guid, st.integers(0, 0xFFFFFFFF)),
    st.builds(lambda g, ty: PlayScriptType(g, ty, 1.0, 0x3F800000), _guid,
              st.integers(0, 0xFFFFFFFF)),
    st.builds(PlayerTeleport, _ts),
    st.builds(PlayerCreate, _guid),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_msgs, max_size=40))
def test_random_message_sequences_keep_the_layer_consistent(msgs):
    b = SmartBox()
    total = 0
    for i, m in enumerate(msgs):
        out = b.dispatch(float(i), m)
        total += len(out)
        for a in out:
            assert a.kind in {"create", "delete", "set_state", "vector", "movement",
                              "position", "parent", "pickup", "objdesc", "play_script",
                              "play", "sound", "teleport_wait", "player", "queued",
                              "rejected"}
            assert a.t == float(i)
            assert a.received is None or a.received <= a.t
    for obj in b.objects.values():
        assert all(0 <= v <= 0xFFFF for v in obj.update_times)
        assert obj.instance == obj.create.physics.instance_ts  # Instance only from a create
    if b.player_id is not None and b.player_id in b.objects:
        assert b.objects[b.player_id].generation >= 1
