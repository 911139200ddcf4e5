"""The object-event layer: retail's SmartBox freshness rules as a pure state machine.

It follows the retail functions cited below (docs/retail-rules.md, Network messages).
``SmartBox.dispatch(t, msg)`` takes one decoded message and returns the :class:`Apply` decisions
it produced, in order: what the runtime should do (create, delete, set_state, position,
play_script, ...), plus ``queued`` / ``rejected`` records that say why nothing was applied. It
never touches the simulation; the runtime consumes the decisions.

Packets for objects that do not exist yet (or whose Instance stamp belongs to a future
generation) are queued per GUID in arrival order and re-dispatched, in that order, right after
the object is created (SmartBox::QueueBlobForObject 0x00451B90,
SmartBox::ProcessObjectNetBlobs 0x00454B20). Until the player's GUID is known (0xF746) every
other packet waits in one global queue (ACSmartBox::IsReadyToDispatchEvent 0x00559590,
SmartBox::HandleCreatePlayer).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from viewer.wire.descs import (
    FORCE_POSITION_TS,
    INSTANCE_TS,
    MOVEMENT_TS,
    OBJDESC_TS,
    POSITION_TS,
    SERVER_CONTROLLED_MOVE_TS,
    STATE_TS,
    TELEPORT_TS,
    VECTOR_TS,
    Position,
)
from viewer.wire.messages import (
    CreateObject,
    DeleteObject,
    Message,
    ObjDescEvent,
    ParentEvent,
    PickupEvent,
    PlayerCreate,
    PlayerTeleport,
    PlayScriptId,
    PlayScriptType,
    SetState,
    SoundEvent,
    UpdateMotion,
    UpdatePosition,
    VectorUpdate,
)
from viewer.wire.motion import MovementBody


def is_newer(stored: int, incoming: int) -> bool:
    """CPhysicsObj::is_newer 0x00451AD0: is ``incoming`` newer than ``stored`` (u16 stamps)?

    Up to a distance of 0x7FFF the numerically higher stamp wins; at exactly 0x8000 and beyond,
    the numerically lower one wins. Equal is stale."""
    stored &= 0xFFFF
    incoming &= 0xFFFF
    if abs(incoming - stored) > 0x7FFF:
        return incoming < stored
    return stored < incoming


@dataclass(frozen=True, slots=True)
class Apply:
    """One decision of the object-event layer.

    kind: create, delete, set_state, vector, movement, position, parent, pickup, objdesc,
    play_script, play, sound, teleport_wait, player, queued, rejected."""
    t: float
    kind: str
    guid: int | None
    message: Message
    generation: int | None = None
    detail: tuple = ()   # kind-specific values (see SmartBox methods)
    reason: str = ""
    received: float | None = None  # capture time of the packet when it was held in a queue
                                   # (``t`` is then the time it was finally dispatched)


@dataclass
class LiveObject:
    """What the layer keeps per live object: its generation and its nine stamps."""
    guid: int
    generation: int
    update_times: list[int]
    state: int
    create: CreateObject
    parent: int | None = None
    in_cell: bool = False
    position: Position | None = None

    @property
    def instance(self) -> int:
        return self.update_times[INSTANCE_TS]


@dataclass
class SmartBoxStats:
    dispatched: int = 0
    applied: int = 0
    queued: int = 0
    rejected: int = 0
    drained: int = 0


class SmartBox:
    """Per-session object table, per-GUID pending queues, and the freshness gates."""

    def __init__(self, *, player_id: int | None = None, require_player: bool = True) -> None:
        self.player_id = player_id
        self.require_player = require_player
        self.objects: dict[int, LiveObject] = {}
        self.pending: dict[int, deque] = {}            # guid -> deque[(t, message)]
        self.global_queue: deque = deque()              # before 0xF746 names the player
        self.generations: dict[int, int] = {}
        self.stats = SmartBoxStats()
        self._received: float | None = None  # set while a queued packet is re-dispatched

    # -- helpers ---------------------------------------------------------------------
    def _queue(self, out: list, t: float, guid: int, msg: Message, reason: str) -> None:
        # SmartBox::QueueBlobForObject 0x00451B90
        self.pending.setdefault(guid, deque()).append((self._recv(t), msg))
        self.stats.queued += 1
        out.append(Apply(t, "queued", guid, msg, reason=reason, received=self._received))

    def _reject(self, out: list, t: float, guid: int | None, msg: Message, reason: str) -> None:
        self.stats.rejected += 1
        out.append(Apply(t, "rejected", guid, msg, reason=reason, received=self._received))

    def _apply(self, out: list, t: float, kind: str, obj: LiveObject, msg: Message,
               detail: tuple = ()) -> None:
        self.stats.applied += 1
        out.append(Apply(t, kind, obj.guid, msg, obj.generation, detail,
                         received=self._received))

    def _recv(self, t: float) -> float:
        return self._received if self._received is not None else t

    def _instance_gate(self, out: list, t: float, guid: int, instance: int, msg: Message
                       ) -> LiveObject | None:
        """The shared gate of HandleSetState / HandleVectorUpdate / HandlePickupEvent /
        HandleObjDescEvent / UnpackPositionEvent / UpdateMotion: missing object or a future
        Instance -> queue; equal -> go on; older -> reject."""
        obj = self.objects.get(guid)
        if obj is None:
            self._queue(out, t, guid, msg, "object not created")
            return None
        if is_newer(obj.instance, instance):
            self._queue(out, t, guid, msg, "future instance")
            return None
        if obj.instance != instance:
            self._reject(out, t, guid, msg, "stale instance")
            return None
        return obj

    # -- entry point -----------------------------------------------------------------
    def dispatch(self, t: float, msg: Message) -> list[Apply]:
        out: list[Apply] = []
        self._dispatch(out, t, msg)
        return out

    def _dispatch(self, out: list, t: float, msg: Message, received: float | None = None
                  ) -> None:
        outer = self._received
        self._received = received
        try:
            self._dispatch_one(out, t, msg)
        finally:
            self._received = outer

    def _dispatch_one(self, out: list, t: float, msg: Message) -> None:
        self.stats.dispatched += 1
        # ACSmartBox::IsReadyToDispatchEvent 0x00559590: before the player is known, only
        # CreatePlayer dispatches; everything else waits in order.
        if self.require_player and self.player_id is None and not isinstance(msg, PlayerCreate):
            self.global_queue.append((self._recv(t), msg))
            self.stats.queued += 1
            out.append(Apply(t, "queued", msg.guids()[0] if msg.guids() else None, msg,
                             reason="player not created", received=self._received))
            return
        handler = _HANDLERS.get(type(msg))
        if handler is not None:
            handler(self, out, t, msg)

    def _drain(self, out: list, t: float, guid: int) -> None:
        # SmartBox::ProcessObjectNetBlobs 0x00454B20: take the whole queue, re-dispatch each
        # packet in order, now; those still not ready queue again behind.
        q = self.pending.pop(guid, None)
        if not q:
            return
        for received, msg in list(q):
            self.stats.drained += 1
            self._dispatch(out, t, msg, received)

    # -- handlers --------------------------------------------------------------------
    def _player_create(self, out: list, t: float, msg: PlayerCreate) -> None:
        # SmartBox::HandleCreatePlayer: only the first one counts; then ProcessNetBlobs
        if self.player_id is not None:
            self._reject(out, t, msg.guid, msg, "player already created")
            return
        self.player_id = msg.guid
        out.append(Apply(t, "player", msg.guid, msg, received=self._received))
        waiting = list(self.global_queue)
        self.global_queue.clear()
        for received, qmsg in waiting:  # SmartBox::ProcessNetBlobs
            self._dispatch(out, t, qmsg, received)

    def _new_generation(self, out: list, t: float, msg: CreateObject) -> None:
        desc = msg.physics
        gen = self.generations.get(msg.guid, 0) + 1
        self.generations[msg.guid] = gen
        # no live generation: copy all nine desc timestamps wholesale
        obj = LiveObject(msg.guid, gen, list(desc.timestamps), desc.state, msg)
        if desc.parent is None and desc.position is not None and desc.position.cell:
            obj.in_cell = True
            obj.position = desc.position
        elif desc.parent is not None:
            obj.parent = desc.parent[0]
        self.objects[msg.guid] = obj
        self.stats.applied += 1
        out.append(Apply(t, "create", msg.guid, msg, gen, received=self._received))
        self._drain(out, t, msg.guid)

    def _create(self, out: list, t: float, msg: CreateObject) -> None:
        # SmartBox::HandleCreateObject 0x00454C80 (0xF7DB UpdateObject forces recreation,
        # SmartBox::HandleUpdateObject 0x004551F0)
        desc = msg.physics
        parent = None
        if desc.parent is not None:
            parent = self.objects.get(desc.parent[0])
            if parent is None:
                self._queue(out, t, desc.parent[0], msg, "parent not created")
                return
        obj = self.objects.get(msg.guid)
        if obj is None:
            self._new_generation(out, t, msg)
            return
        if msg.update or is_newer(obj.instance, desc.instance_ts):
            # a newer Instance begins a new generation and replaces all nine stamps
            del self.objects[msg.guid]
            self.stats.applied += 1
            out.append(Apply(t, "delete", msg.guid, msg, obj.generation, reason="replaced",
                             received=self._received))
            self._new_generation(out, t, msg)
            return
        if obj.instance != desc.instance_ts:
            self._reject(out, t, msg.guid, msg, "stale instance")
            return
        # Same generation: route each branch through its per-channel handler.
        self._update_visual_desc(out, t, obj, msg, msg.objdesc, desc.timestamps[OBJDESC_TS])
        pos_ts = desc.timestamps[POSITION_TS]
        if parent is not None:
            self._do_parent(out, t, obj, parent, desc.parent[1], desc.animframe_id or 0,
                            pos_ts, msg)
        elif desc.position is not None and desc.position.cell:
            self._received_position(out, t, obj, msg, desc.position, desc.animframe_id or 0,
                                    True, desc.velocity or (0.0, 0.0, 0.0), pos_ts,
                                    desc.timestamps[TELEPORT_TS],
                                    desc.timestamps[FORCE_POSITION_TS])
        else:
            self._do_pickup(out, t, obj, pos_ts, msg)
        if desc.movement_body is not None:
            self._set_object_movement(out, t, obj, msg, desc.movement_body,
                                      desc.timestamps[MOVEMENT_TS],
                                      desc.timestamps[SERVER_CONTROLLED_MOVE_TS],
                                      desc.autonomous_movement or 0)
        self._do_set_state(out, t, obj, msg, desc.state, desc.timestamps[STATE_TS])
        self._do_vector(out, t, obj, msg, desc.velocity or (0.0, 0.0, 0.0),
                        desc.omega or (0.0, 0.0, 0.0), desc.timestamps[VECTOR_TS])

    def _delete(self, out: list, t: float, msg: DeleteObject) -> None:
        # SmartBox::HandleDeleteObject 0x00451BC0
        if msg.guid == self.player_id:
            self._reject(out, t, msg.guid, msg, "local player is never deleted")
            return
        obj = self.objects.get(msg.guid)
        if obj is None:
            self._queue(out, t, msg.guid, msg, "object not created")
            return
        if is_newer(obj.instance, msg.instance_ts):
            self._queue(out, t, msg.guid, msg, "future instance")
            return
        if obj.instance != msg.instance_ts:
            self._reject(out, t, msg.guid, msg, "stale instance")
            return
        del self.objects[msg.guid]
        self._apply(out, t, "delete", obj, msg)

    def _set_state(self, out: list, t: float, msg: SetState) -> None:
        # SmartBox::HandleSetState 0x004533E0
        obj = self._instance_gate(out, t, msg.guid, msg.instance_ts, msg)
        if obj is not None:
            self._do_set_state(out, t, obj, msg, msg.state, msg.state_ts)

    def _do_set_state(self, out, t, obj, msg, state: int, stamp: int) -> None:
        # SmartBox::DoSetState 0x004520D0: strictly newer STATE stamp, then set_state
        if not is_newer(obj.update_times[STATE_TS], stamp):
            self._reject(out, t, obj.guid, msg, "stale state stamp")
            return
        obj.update_times[STATE_TS] = stamp
        previous = obj.state
        obj.state = state
        self._apply(out, t, "set_state", obj, msg, (state, previous))

    def _vector(self, out: list, t: float, msg: VectorUpdate) -> None:
        # SmartBox::HandleVectorUpdate 0x00453480
        obj = self._instance_gate(out, t, msg.guid, msg.instance_ts, msg)
        if obj is not None:
            self._do_vector(out, t, obj, msg, msg.velocity, msg.omega, msg.vector_ts)

    def _do_vector(self, out, t, obj, msg, velocity, omega, stamp: int) -> None:
        # SmartBox::DoVectorUpdate 0x004521C0
        if not is_newer(obj.update_times[VECTOR_TS], stamp):
            self._reject(out, t, obj.guid, msg, "stale vector stamp")
            return
        obj.update_times[VECTOR_TS] = stamp
        self._apply(out, t, "vector", obj, msg, (tuple(velocity), tuple(omega)))

    def _pickup(self, out: list, t: float, msg: PickupEvent) -> None:
        # SmartBox::HandlePickupEvent 0x00453530
        obj = self._instance_gate(out, t, msg.guid, msg.instance_ts, msg)
        if obj is not None:
            self._do_pickup(out, t, obj, msg.position_ts, msg)

    def _do_pickup(self, out, t, obj, stamp: int, msg) -> None:
        # SmartBox::DoPickupEvent 0x00452240: shared POSITION stamp; unparent, leave world,
        # keep the object and its stamps
        if not is_newer(obj.update_times[POSITION_TS], stamp):
            self._reject(out, t, obj.guid, msg, "stale position stamp")
            return
        obj.update_times[POSITION_TS] = stamp
        obj.parent = None
        obj.in_cell = False
        self._apply(out, t, "pickup", obj, msg)

    def _objdesc(self, out: list, t: float, msg: ObjDescEvent) -> None:
        # SmartBox::HandleObjDescEvent 0x00453340
        obj = self._instance_gate(out, t, msg.guid, msg.instance_ts, msg)
        if obj is not None:
            self._update_visual_desc(out, t, obj, msg, msg.objdesc, msg.objdesc_ts)

    def _update_visual_desc(self, out, t, obj, msg, objdesc, stamp: int) -> None:
        # SmartBox::UpdateVisualDesc 0x00451F40
        if not is_newer(obj.update_times[OBJDESC_TS], stamp):
            self._reject(out, t, obj.guid, msg, "stale objdesc stamp")
            return
        obj.update_times[OBJDESC_TS] = stamp
        self._apply(out, t, "objdesc", obj, msg, (objdesc,))

    def _parent_event(self, out: list, t: float, msg: ParentEvent) -> None:
        # SmartBox::HandleParentEvent 0x004535D0: the parent's exact Instance, then the
        # child must exist (else queued on the child), then DoParentEvent
        parent = self._instance_gate(out, t, msg.parent_guid, msg.parent_instance_ts, msg)
        if parent is None:
            return
        child = self.objects.get(msg.child_guid)
        if child is None:
            self._queue(out, t, msg.child_guid, msg, "child not created")
            return
        self._do_parent(out, t, child, parent, msg.location, msg.placement_id,
                        msg.child_position_ts, msg)

    def _do_parent(self, out, t, child, parent, location, placement, stamp: int, msg) -> None:
        # SmartBox::DoParentEvent 0x00452290: strictly advance the child's POSITION stamp
        if not is_newer(child.update_times[POSITION_TS], stamp):
            self._reject(out, t, child.guid, msg, "stale position stamp")
            return
        child.update_times[POSITION_TS] = stamp
        child.parent = parent.guid
        child.in_cell = False
        self._apply(out, t, "parent", child, msg, (parent.guid, location, placement))

    def _update_position(self, out: list, t: float, msg: UpdatePosition) -> None:
        # SmartBox::UnpackPositionEvent 0x004542C0 (PositionPack defaults already applied)
        obj = self._instance_gate(out, t, msg.guid, msg.instance_ts, msg)
        if obj is not None:
            self._received_position(out, t, obj, msg, msg.position, msg.placement_or_zero,
                                    msg.has_contact, msg.velocity_or_zero, msg.position_ts,
                                    msg.teleport_ts, msg.force_position_ts)

    def _received_position(self, out, t, obj: LiveObject, msg, position: Position,
                           placement: int, contact: bool, velocity, pos_ts: int,
                           teleport_ts: int, force_ts: int) -> None:
        # SmartBox::HandleReceivedPosition 0x00453FD0
        times = obj.update_times
        if obj.guid == self.player_id and is_newer(times[FORCE_POSITION_TS], force_ts):
            times[FORCE_POSITION_TS] = force_ts
            # the blip path needs the incoming Teleport to equal the stored one exactly (the
            # Hex-Rays text reads "not older"; equality is the reading we follow)
            if teleport_ts == times[TELEPORT_TS]:
                times[POSITION_TS] = pos_ts   # assigned directly, even when equal or older
                obj.position = position
                self._apply(out, t, "position", obj, msg, ("blip", position, None, None))
                return
        if not is_newer(times[POSITION_TS], pos_ts):
            self._reject(out, t, obj.guid, msg, "stale position stamp")
            return
        old = times[POSITION_TS]
        times[POSITION_TS] = pos_ts
        if is_newer(teleport_ts, times[TELEPORT_TS]):
            times[POSITION_TS] = old  # restore: a newer teleport is already stored
            self._reject(out, t, obj.guid, msg, "stale teleport stamp")
            return
        obj.parent = None  # unset_parent
        if obj.guid == self.player_id:
            if is_newer(times[TELEPORT_TS], teleport_ts):
                times[TELEPORT_TS] = teleport_ts
                mode = "teleport"        # TeleportPlayer, velocity explicitly zeroed
                vel = (0.0, 0.0, 0.0)
            else:
                mode = "constrain"       # ConstrainTo / InterpolateTo, no packet velocity
                vel = None
        else:
            # CPhysicsObj::MoveOrTeleport 0x00516330: newer TELEPORT or not in a cell -> snap;
            # no contact -> ignored; else interpolate (< 96 m) or snap, decided by the runtime
            if is_newer(times[TELEPORT_TS], teleport_ts) or not obj.in_cell:
                if is_newer(times[TELEPORT_TS], teleport_ts):
                    times[TELEPORT_TS] = teleport_ts
                mode = "teleport"
            elif not contact:
                self._reject(out, t, obj.guid, msg, "no contact (MoveOrTeleport)")
                return
            else:
                mode = "move"
            vel = tuple(velocity)
        obj.in_cell = True
        obj.position = position
        self._apply(out, t, "position", obj, msg, (mode, position, vel, placement))

    def _update_motion(self, out: list, t: float, msg: UpdateMotion) -> None:
        # ACSmartBox::DispatchSmartBoxEvent 0x005595D0, case 0xF74C
        obj = self._instance_gate(out, t, msg.guid, msg.instance_ts, msg)
        if obj is not None:
            self._set_object_movement(out, t, obj, msg, msg.body, msg.movement_ts,
                                      msg.server_control_ts, msg.autonomous)

    def _set_object_movement(self, out, t, obj, msg, body: MovementBody, movement_ts: int,
                             server_ts: int, autonomous: int) -> None:
        # CPhysics::SetObjectMovement 0x00509690
        times = obj.update_times
        if not is_newer(times[MOVEMENT_TS], movement_ts):
            self._reject(out, t, obj.guid, msg, "stale movement stamp")
            return
        times[MOVEMENT_TS] = movement_ts  # advanced before the server-control check
        if is_newer(server_ts, times[SERVER_CONTROLLED_MOVE_TS]):
            self._reject(out, t, obj.guid, msg, "stale server-control stamp")
            return
        times[SERVER_CONTROLLED_MOVE_TS] = server_ts  # equal is accepted
        if autonomous and obj.guid == self.player_id:
            self._reject(out, t, obj.guid, msg, "autonomous movement of the local player")
            return
        self._apply(out, t, "movement", obj, msg, (body, autonomous))

    def _play_script_id(self, out: list, t: float, msg: PlayScriptId) -> None:
        # SmartBox::HandlePlayScriptID 0x00452020: F754 never goes through the table
        obj = self.objects.get(msg.guid)
        if obj is None:
            self._queue(out, t, msg.guid, msg, "object not created")
            return
        self._apply(out, t, "play_script", obj, msg, (msg.script_did,))

    def _play_script_type(self, out: list, t: float, msg: PlayScriptType) -> None:
        # SmartBox::HandlePlayScriptType 0x00452070: resolved later through the current table
        obj = self.objects.get(msg.guid)
        if obj is None:
            self._queue(out, t, msg.guid, msg, "object not created")
            return
        self._apply(out, t, "play", obj, msg,
                    (msg.script_type, msg.intensity, msg.intensity_bits))

    def _sound(self, out: list, t: float, msg: SoundEvent) -> None:
        # SmartBox::HandleSoundEvent 0x00451FC0
        obj = self.objects.get(msg.guid)
        if obj is None:
            self._queue(out, t, msg.guid, msg, "object not created")
            return
        self._apply(out, t, "sound", obj, msg, (msg.sound_type, msg.volume))

    def _player_teleport(self, out: list, t: float, msg: PlayerTeleport) -> None:
        # SmartBox::HandlePlayerTeleport 0x00452150: reject only an older sequence; never
        # advances TELEPORT here
        player = self.objects.get(self.player_id) if self.player_id is not None else None
        if player is None:
            return
        if is_newer(msg.teleport_ts, player.update_times[TELEPORT_TS]):
            self._reject(out, t, player.guid, msg, "stale teleport stamp")
            return
        self._apply(out, t, "teleport_wait", player, msg, (msg.teleport_ts,))


_HANDLERS = {
    PlayerCreate: SmartBox._player_create,
    CreateObject: SmartBox._create,
    DeleteObject: SmartBox._delete,
    SetState: SmartBox._set_state,
    VectorUpdate: SmartBox._vector,
    PickupEvent: SmartBox._pickup,
    ObjDescEvent: SmartBox._objdesc,
    ParentEvent: SmartBox._parent_event,
    UpdatePosition: SmartBox._update_position,
    UpdateMotion: SmartBox._update_motion,
    PlayScriptId: SmartBox._play_script_id,
    PlayScriptType: SmartBox._play_script_type,
    SoundEvent: SmartBox._sound,
    PlayerTeleport: SmartBox._player_teleport,
}

__all__ = ["Apply", "LiveObject", "SmartBox", "SmartBoxStats", "is_newer"]
