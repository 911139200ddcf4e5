"""``viewer.wire.replay.replay_events``: captures as scenario objects and events."""

from __future__ import annotations

from tests.conftest import CAPTURES as CAPS
from viewer.wire.replay import replay_events


def test_enter_world_objects_carry_setup_table_and_physics_desc():
    r = replay_events(CAPS / "enter-world.pcap")
    objs = {o["id"]: o for o in r["objects"]}
    assert len(objs) == 136
    me = objs[0x50002F67]
    assert me["setup"] == "0x02000001" and me["table"] == "0x34000004"
    assert me["state"] == "0x00404410" and me["position"] is not None
    assert me["physics_desc"]["timestamps"][8] == 397
    pyreal = objs[0x80103CDB]
    assert pyreal["table"] is None and pyreal["position"] is None
    creates = [e for e in r["events"] if "create" in e]
    assert len(creates) == 136
    assert [e["t"] for e in r["events"]] == sorted(e["t"] for e in r["events"])


def test_effects_burst_uncreated_objects_still_list_their_effects():
    r = replay_events(CAPS / "effects-burst.pcap")
    plays = [e for e in r["events"] if "play" in e]
    assert len(plays) == 515
    assert plays[0] == {"t": plays[0]["t"], "object": 0x50002B16, "play": 0x37,
                        "intensity": 0.05, "intensity_bits": "0x3D4CCCCD"}
    assert all(o["created"] is False and o["setup"] is None for o in r["objects"])


def test_guid_selection():
    r = replay_events(CAPS / "effects-burst.pcap", 0x50002B16)
    assert {e["object"] for e in r["events"]} == {0x50002B16}
    assert [o["id"] for o in r["objects"]] == [0x50002B16]


def test_without_uncreated():
    r = replay_events(CAPS / "effects-burst.pcap", include_uncreated=False)
    assert r["objects"] == [] and r["events"] == []


def test_capture_scenario_only_in_world_objects_and_loads_as_a_scenario():
    from viewer.sim.scenario import Scenario
    from viewer.wire.replay import capture_scenario, replay_events
    r = replay_events(CAPS / "enter-world.pcap")
    in_world = [o for o in r["objects"] if o["physics_desc"]["position"] is not None
                and o["physics_desc"]["parent"] is None]
    s = capture_scenario(CAPS / "enter-world.pcap")
    creates = [e for e in s["events"] if "create" in e]
    assert len(creates) == len(in_world) and 0 < len(creates) < 136
    first = creates[0]["create"]
    assert first["position"] == [0.0, 0.0, 0.0]
    assert Scenario.from_json(s).events  # contract section 4 vocabulary only


def test_heading_convention():
    import math

    from viewer.wire.replay import heading_deg
    assert heading_deg((1.0, 0.0, 0.0, 0.0)) == 0.0
    # rotation of +90 deg about Z (counter-clockwise) faces west: heading 270
    h = math.sqrt(0.5)
    assert heading_deg((h, 0.0, 0.0, h)) == 270.0


def test_capture_scenario_stand_in_for_a_mid_session_capture():
    from viewer.sim.scenario import Scenario
    from viewer.wire.replay import capture_scenario
    assert capture_scenario(CAPS / "effects-burst.pcap", 0x50002B16)["events"] == []
    s = capture_scenario(CAPS / "effects-burst.pcap", 0x50002B16,
                         stand_in=(0x02000001, 0x34000004))
    first, *rest = s["events"]
    assert first["t"] == 0.0 and first["create"]["stand_in"] is True
    assert first["create"]["setup"] == "0x02000001" and first["create"]["table"] == "0x34000004"
    plays = [e for e in rest if "play" in e]
    descs = [e for e in rest if "objdesc" in e]  # the player's 60 ObjDescEvents (0xF625)
    assert len(descs) == 60 and len(plays) + len(descs) == len(rest)
    assert plays[0]["play"] == 0x37
    assert Scenario.from_json(s).events
