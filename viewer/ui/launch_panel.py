"""Projectile launch panel (issue 11): fire a projectile Setup from a point with a velocity
or at a target, with its table's Launch script at a chosen intensity.

A named projectile (Arrow ... Tusker Fist, ``viewer.sim.presets``) can be picked instead of
a Setup: the panel shows its Setup and table, or which of them the open DATs lack, and the
launch names the preset (the saved scenario says ``"launch": {"preset": ...}``).

The panel only builds a ``LaunchProjectile`` command; the session turns it into scenario
events at the current time (a ``create`` when a Setup is given, then ``launch``) that the
harness in viewer/sim/projectile.py plays, so a saved scenario replays the flight exactly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from viewer.bounds import float_text, int_text
from viewer.sim import presets
from viewer.ui import commands as c
from viewer.ui.widgets import (
    button_width,
    labelled_width,
    same_line_if_fits,
    text_wrapped_colored,
    text_wrapped_disabled,
)


@dataclass
class LaunchPanelState:
    """UI-only state of the panel's widgets."""
    preset: str = ""             # a named projectile; empty: the Setup / table fields
    setup: str = ""              # hex DID; empty: launch an existing object
    table: str = ""
    object_id: int = 0           # 0: a new id
    origin: list[float] = field(default_factory=lambda: [0.0, 0.0, 1.0])
    use_target: bool = False
    velocity: list[float] = field(default_factory=lambda: [20.0, 0.0, 0.0])
    target: list[float] = field(default_factory=lambda: [10.0, 0.0, 1.0])
    speed: float = 20.0
    intensity: str = "1.0"
    message: str = ""


@dataclass(frozen=True)
class LaunchView:
    objects: tuple[int, ...]       # live object ids
    next_id: int                   # a free id for a new projectile
    selected: tuple[int, tuple[float, float, float]] | None = None   # (id, position)
    asset: int | None = None       # the Assets panel's selected DID
    presets: tuple[tuple[str, str], ...] = ()   # (name, what the open DATs lack or "")


def select_preset(state: LaunchPanelState, view: LaunchView, name: str) -> None:
    """Pick a named projectile (empty: back to the Setup / table fields): shows its Setup
    and table, and in ``message`` which DID the open DATs lack. UI state only."""
    state.preset = name
    if not name:
        state.message = ""
        return
    p = presets.preset(name)
    state.setup = f"0x{p.setup:08X}"
    state.table = "" if p.table is None else f"0x{p.table:08X}"
    state.message = dict(view.presets).get(name, "")


def use_asset(state: LaunchPanelState, did: int | None) -> None:
    """A Setup (0x02...) or PhysicsScriptTable (0x34...) picked in the Assets panel fills
    the matching field. UI state only."""
    if did is None:
        return
    if did >> 24 == 0x02:
        state.setup = f"0x{did:08X}"
    elif did >> 24 == 0x34:
        state.table = f"0x{did:08X}"


AIM_HEIGHT = 1.0   # "at the selected object" aims this far above its origin


def use_selected(state: LaunchPanelState, view: LaunchView, what: str) -> None:
    """Fill ``from`` or ``target`` with the selected object's position (``target``: raised
    by AIM_HEIGHT, about a body's middle). UI state only."""
    if view.selected is None:
        return
    x, y, z = view.selected[1]
    if what == "from":
        state.origin = [x, y, z + AIM_HEIGHT]
    else:
        state.use_target = True
        state.target = [x, y, z + AIM_HEIGHT]


def _did(text: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    value = int_text(text)  # decimal or 0x hex, ASCII digits only (viewer.bounds)
    if not 0 < value <= 0xFFFFFFFF:
        raise ValueError(f"not a DID: {text!r}")
    return value


def _finite3(values, what: str) -> tuple[float, float, float]:
    v = tuple(float(x) for x in values)
    if len(v) != 3 or not all(math.isfinite(x) for x in v):
        raise ValueError(f"{what} must be three finite numbers")
    return v


def launch_command(state: LaunchPanelState, view: LaunchView) -> c.LaunchProjectile:
    """The command the panel's fields describe; ValueError names the bad field."""
    if state.preset:
        return _preset_command(state, view)
    setup = _did(state.setup)
    table = _did(state.table)
    obj = int(state.object_id) or (view.next_id if setup is not None else 0)
    if setup is None and obj not in view.objects:
        raise ValueError("give a projectile Setup, or the id of an object in the scene")
    intensity = float_text(state.intensity)   # "nan" / "inf": the table decides
    return c.LaunchProjectile(obj, intensity=intensity, setup=setup, table=table,
                              **_aim(state))


def _aim(state: LaunchPanelState) -> dict:
    origin = _finite3(state.origin, "from")
    if not state.use_target:
        return {"origin": origin, "velocity": _finite3(state.velocity, "velocity")}
    if not (math.isfinite(state.speed) and state.speed > 0):
        raise ValueError("speed must be positive")
    return {"origin": origin, "target": _finite3(state.target, "target"),
            "speed": float(state.speed)}


def _preset_command(state: LaunchPanelState, view: LaunchView) -> c.LaunchProjectile:
    missing = dict(view.presets).get(state.preset)
    if missing is None:
        raise ValueError(f"unknown projectile preset {state.preset!r}")
    if missing:
        raise ValueError(f"{state.preset}: {missing} in the open DATs")
    obj = int(state.object_id) or view.next_id
    if obj in view.objects:
        raise ValueError(f"a preset launch creates its projectile: object {obj} exists")
    return c.LaunchProjectile(obj, intensity=float_text(state.intensity),
                              preset=state.preset, **_aim(state))


def draw_launch_panel(view: LaunchView | None, state: LaunchPanelState) -> list[c.Command]:
    from imgui_bundle import imgui

    out: list[c.Command] = []
    visible, _ = imgui.begin("Launch", None, imgui.WindowFlags_.horizontal_scrollbar)
    try:
        if not visible:
            return out
        if view is None:
            imgui.text_disabled("Nothing loaded.")
            return out
        imgui.set_next_item_width(180)
        if imgui.begin_combo("projectile", state.preset or "(Setup and table below)"):
            if imgui.selectable("(Setup and table below)", not state.preset)[0]:
                select_preset(state, view, "")
            for name, missing in view.presets:
                label = name + (f"  ({missing})" if missing else "")
                if imgui.selectable(label, state.preset == name)[0]:
                    select_preset(state, view, name)
            imgui.end_combo()
        imgui.set_next_item_width(120)
        _, state.setup = imgui.input_text("Setup", state.setup)
        same_line_if_fits(imgui, labelled_width(imgui, 120, "table"))
        imgui.set_next_item_width(120)
        _, state.table = imgui.input_text("table", state.table)
        if (view.asset is not None and view.asset >> 24 in (0x02, 0x34)
                and imgui.small_button(f"use 0x{view.asset:08X} from Assets")):
            use_asset(state, view.asset)
        imgui.set_next_item_width(120)
        _, state.object_id = imgui.input_int("object id (0: new)", state.object_id)
        imgui.set_next_item_width(-80)
        _, state.origin = imgui.input_float3("from", state.origin)
        if view.selected is not None:
            if imgui.small_button(f"from object {view.selected[0]}"):
                use_selected(state, view, "from")
            same_line_if_fits(imgui, button_width(imgui, f"at object {view.selected[0]}",
                                                  small=True))
            if imgui.small_button(f"at object {view.selected[0]}"):
                use_selected(state, view, "target")
        _, state.use_target = imgui.checkbox("at a target", state.use_target)
        if state.use_target:
            imgui.set_next_item_width(-80)
            _, state.target = imgui.input_float3("target", state.target)
            imgui.set_next_item_width(120)
            _, state.speed = imgui.input_float("speed m/s", state.speed)
        else:
            imgui.set_next_item_width(-80)
            _, state.velocity = imgui.input_float3("velocity", state.velocity)
        imgui.set_next_item_width(120)
        _, state.intensity = imgui.input_text("Launch intensity", state.intensity)
        if imgui.button("Launch now"):
            try:
                out.append(launch_command(state, view))
                state.message = ""
            except ValueError as err:
                state.message = str(err)
        if state.message:
            text_wrapped_colored(imgui, imgui.ImVec4(1.0, 0.6, 0.3, 1.0), state.message)
        text_wrapped_disabled(imgui, f"new id {view.next_id}; objects {list(view.objects)}")
    finally:
        imgui.end()
    return out
