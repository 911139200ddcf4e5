"""The launch harness: fire a projectile Setup and play what the server would send on impact.

Retail's client never invents an impact, an explosion or a deletion (docs/retail-rules.md,
Physics): the server creates the missile with Missile | AlignPath | PathClipped |
ReportCollisions, the client flies it with the shared integrator and sweep, and on impact the
server broadcasts SetState, the ProjectileCollision and Explode typed effects, a zero vector
update and, later, the deletion. The harness plays that server side after a configurable delay
so a scenario can show a whole flight. Trails are ordinary Launch-script emitters: their
per-metre emission is driven by the flight itself (ParticleEmitter::UpdateParticles reads the
moving frame).

Scenario event (docs/cli.md section 4 welcomes extra kinds)::

    {"t": 0.5, "object": 2, "launch": {"velocity": [20, 0, 0]}, "intensity": 0.5}
    {"t": 0.5, "object": 3, "launch": {"target": [8, 0, 1], "speed": 25,
                                        "from": [0, 0, 1], "delay": 0.1,
                                        "delete_after": 5.0, "target_id": 9}}

``intensity`` (event or launch key) picks the Launch script; ``explode_intensity`` the Explode
script (default: the same). ``state`` overrides the flight state, ``impact_state`` the state
the server sets on impact. ``target_id`` is OBJECTINFO's designated target (zero unless
given: the client never infers it from a selection).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from viewer import bounds
from viewer.dat.records.common import PlayScript
from viewer.errors import ScenarioError
from viewer.sim import physics as ph
from viewer.sim.frame import EPS, Vec3, vec_length, vec_scale, vec_sub
from viewer.sim.presets import preset

#: What a server gives a missile (ACE SpellProjectile: ReportCollisions, Missile, AlignPath,
#: PathClipped); the object's other bits (Gravity for arrows) are kept.
FLIGHT_BITS = ph.MISSILE | ph.ALIGNPATH | ph.PATHCLIPPED | ph.REPORT_COLLISIONS
#: The bits a server's impact SetState clears and sets (ACE ProjectileImpact: no longer
#: reporting, ethereal, ignoring collisions, not drawn, lights off).
IMPACT_CLEAR = FLIGHT_BITS | ph.LIGHTING_ON
IMPACT_SET = ph.ETHEREAL | ph.IGNORE_COLLISIONS | ph.NODRAW | ph.CLOAKED
DEFAULT_DELAY = 0.1          # seconds from the client's impact to the server's answer
DEFAULT_DELETE_AFTER = 5.0   # seconds from the answer to DeleteObject (ACE's 5 s)
DEFAULT_SPEED = 20.0


def _vec(value, what: str, bound: bounds.Bound = bounds.POSITION) -> Vec3:
    """Three numbers inside ``bound`` (viewer/bounds.py; an integer beyond the float range
    is refused here, never an OverflowError)."""
    if (not isinstance(value, (list, tuple)) or len(value) != 3
            or not all(bound.contains(c) for c in value)):
        raise ScenarioError(f"launch: {what} must be three finite numbers within "
                            f"{bound.span()}, not {value!r}")
    return (float(value[0]), float(value[1]), float(value[2]))


def _num(value, what: str, bound: bounds.Bound) -> float:
    """A number inside its documented range (viewer/bounds.py)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ScenarioError(f"launch: {what} must be a finite number, not {value!r}")
    problem = bound.problem(value)
    if problem is not None:
        raise ScenarioError(f"launch: {what}: {problem}")
    return float(value)


def _state(value, what: str) -> int:
    """A PhysicsState: a u32 (decimal or 0x hex), never wrapped to 32 bits."""
    try:
        if isinstance(value, bool):
            raise ValueError  # noqa: TRY004 (turned into a ScenarioError below)
        state = value if isinstance(value, int) else bounds.int_text(str(value))
    except ValueError:
        raise ScenarioError(f"launch: {what} is not a state: {value!r}") from None
    if not 0 <= state <= 0xFFFFFFFF:
        raise ScenarioError(f"launch: {what} is out of range 0..0xFFFFFFFF (u32): {value!r}")
    return state


@dataclass
class LaunchSpec:
    velocity: Vec3 | None = None
    target: Vec3 | None = None
    speed: float = DEFAULT_SPEED
    origin: Vec3 | None = None
    intensity: float = 1.0
    explode_intensity: float | None = None
    state: int | None = None
    impact_state: int | None = None
    target_id: int = 0
    delay: float = DEFAULT_DELAY
    delete_after: float | None = DEFAULT_DELETE_AFTER
    preset: str | None = None       # a named projectile to create first (viewer.sim.presets)

    @staticmethod
    def parse(data: Any, intensity: float | None = None) -> LaunchSpec:
        """From a scenario ``launch`` value; ``intensity`` is the event's own key."""
        if not isinstance(data, dict):
            raise ScenarioError(f"launch must be an object, not {data!r}")
        known = {"velocity", "target", "speed", "from", "intensity", "explode_intensity",
                 "state", "impact_state", "target_id", "delay", "delete_after", "preset"}
        unknown = set(data) - known
        if unknown:
            raise ScenarioError(f"launch: unknown keys {sorted(unknown)}")
        spec = LaunchSpec()
        if "preset" in data:
            spec.preset = preset(data["preset"], "launch.preset").name
        if ("velocity" in data) == ("target" in data):
            raise ScenarioError("launch needs exactly one of velocity or target")
        if "velocity" in data:
            spec.velocity = _vec(data["velocity"], "velocity", bounds.VELOCITY)
        else:
            spec.target = _vec(data["target"], "target")
            spec.speed = _num(data.get("speed", DEFAULT_SPEED), "speed", bounds.LAUNCH_SPEED)
        if "from" in data:
            spec.origin = _vec(data["from"], "from")
        if "intensity" in data:
            spec.intensity = float(data["intensity"])
        elif intensity is not None:
            spec.intensity = float(intensity)
        if "explode_intensity" in data:
            spec.explode_intensity = float(data["explode_intensity"])
        if "state" in data:
            spec.state = _state(data["state"], "state")
        if "impact_state" in data:
            spec.impact_state = _state(data["impact_state"], "impact_state")
        if "target_id" in data:
            tid = data["target_id"]
            if isinstance(tid, int) and not 0 <= tid <= 0xFFFFFFFF:
                raise ScenarioError(f"launch: target_id is out of range 0..0xFFFFFFFF (u32): "
                                    f"{tid!r}")
            if isinstance(tid, bool) or not isinstance(tid, int):
                raise ScenarioError(f"launch: target_id must be an object id, not {tid!r}")
            spec.target_id = tid
        spec.delay = _num(data.get("delay", DEFAULT_DELAY), "delay", bounds.LAUNCH_TIME)
        if data.get("delete_after", DEFAULT_DELETE_AFTER) is None:
            spec.delete_after = None
        else:
            spec.delete_after = _num(data.get("delete_after", DEFAULT_DELETE_AFTER),
                                     "delete_after", bounds.LAUNCH_TIME)
        return spec


def aim_velocity(origin: Vec3, target: Vec3, speed: float, gravity: bool) -> Vec3:
    """A launch velocity of ``speed`` from ``origin`` towards ``target``: straight without
    gravity; with gravity the low ballistic arc (45 degrees when out of range)."""
    d = vec_sub(target, origin)
    dist = vec_length(d)
    if dist < EPS:
        raise ScenarioError("launch: target is at the launch point")
    h = math.hypot(d[0], d[1])
    if not gravity or h < EPS:
        return vec_scale(d, speed / dist)
    g = -ph.GRAVITY
    v2 = speed * speed
    disc = v2 * v2 - g * (g * h * h + 2.0 * d[2] * v2)
    theta = math.atan((v2 - math.sqrt(disc)) / (g * h)) if disc >= 0.0 else math.pi / 4
    c = speed * math.cos(theta)
    return (d[0] / h * c, d[1] / h * c, speed * math.sin(theta))


@dataclass
class Flight:
    owner: int
    spec: LaunchSpec
    launched_at: float
    impacted_at: float | None = None


@dataclass(order=True)
class _Pending:
    when: Fraction
    seq: int
    action: str = field(compare=False)
    owner: int = field(compare=False)


class ProjectileHarness:
    """Launches projectiles on a ``World`` and answers their impacts as a server would.

    ``step(now)`` runs the due server messages; the scenario runner calls it each render
    frame before the world ticks. It listens to the world's ``impact`` events.
    """

    def __init__(self, world) -> None:
        self.world = world
        self.flights: dict[int, Flight] = {}
        self.pending: list[_Pending] = []
        self._seq = 0
        world.listeners.append(self._on_event)

    # -- launch ---------------------------------------------------------------------------
    def launch(self, obj, spec: LaunchSpec) -> Vec3:
        w = self.world
        now = w.timer_now
        state = spec.state if spec.state is not None else int(obj.state) | FLIGHT_BITS
        origin = spec.origin if spec.origin is not None else obj.frame.origin
        if spec.velocity is not None:
            velocity = spec.velocity
        else:
            velocity = aim_velocity(origin, spec.target, spec.speed,
                                    bool(state & ph.GRAVITY_PS))
        obj.target_id = spec.target_id
        # the server's CreateObject / position: placed at the launch point, facing its path
        w._set_frame(obj, obj.frame.with_origin(origin).set_vector_heading(velocity))
        w.set_state(obj, state)
        # entering the world at the launch point: SetPositionInternal 0x00515330 ends in
        # calc_acceleration from the new state
        w._calc_acceleration(obj)
        obj.colliding_with_environment = False
        w.set_velocity(obj, velocity)
        self.flights[obj.id] = Flight(obj.id, spec, now)
        w.emit({"event": "projectile", "action": "launched", "owner": obj.id,
                "velocity": list(obj.velocity), "origin": list(origin),
                "intensity": spec.intensity})
        w.play_typed(obj, int(PlayScript.Launch), spec.intensity)
        return obj.velocity

    # -- the server's side ------------------------------------------------------------------
    def _schedule(self, when: Fraction, action: str, owner: int) -> None:
        self._seq += 1
        self.pending.append(_Pending(when, self._seq, action, owner))
        self.pending.sort()

    def _on_event(self, ev: dict) -> None:
        if ev.get("event") != "impact":
            return
        flight = self.flights.get(ev.get("owner"))
        if flight is None or flight.impacted_at is not None:
            return
        flight.impacted_at = ev["t"]
        now = self.world.time
        when = now + Fraction(repr(flight.spec.delay))
        self._schedule(when, "impact", flight.owner)
        if flight.spec.delete_after is not None:
            self._schedule(when + Fraction(repr(flight.spec.delete_after)), "delete",
                           flight.owner)

    def step(self, now) -> None:
        """Play every server message due at or before ``now``."""
        now = Fraction(now)
        while self.pending and self.pending[0].when <= now:
            p = self.pending.pop(0)
            obj = self.world.objects.get(p.owner)
            if obj is None:
                continue
            if p.action == "impact":
                self._server_impact(obj)
            elif p.action == "delete":
                self.world.emit({"event": "projectile", "action": "deleted", "owner": obj.id})
                self.world.remove_object(obj.id)
                self.flights.pop(obj.id, None)

    def _server_impact(self, obj) -> None:
        """SetState, ProjectileCollision, Explode, then a zero vector update."""
        w = self.world
        spec = self.flights[obj.id].spec
        w.emit({"event": "projectile", "action": "server_impact", "owner": obj.id})
        state = spec.impact_state
        if state is None:
            state = (int(obj.state) & ~IMPACT_CLEAR) | IMPACT_SET
        w.set_state(obj, state)
        w.play_typed(obj, int(PlayScript.ProjectileCollision), 1.0)
        explode = spec.explode_intensity if spec.explode_intensity is not None else spec.intensity
        w.play_typed(obj, int(PlayScript.Explode), explode)
        w.set_velocity(obj, (0.0, 0.0, 0.0))
        ph.set_omega(obj, (0.0, 0.0, 0.0))
