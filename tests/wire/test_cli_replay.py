"""``vfxviewer replay`` per contracts/cli.md section 7."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import CAPTURES as CAPS
from tests.wire.pcapgen import ac_packet, ethernet, fragment, pcap, udp_ipv4
from viewer.cli import main


def run(capsys, *argv):
    code = main(["replay", *map(str, argv)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_json_lines_have_t_opcode_dir_and_fields(capsys):
    code, out, _ = run(capsys, CAPS / "effects-burst.pcap", "--json")
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert all({"t", "opcode", "dir"} <= set(d) for d in lines)
    f755 = [d for d in lines if d["opcode"] == "0xF755"]
    assert len(f755) == 515
    first = f755[0]
    assert first == {**first, "dir": "s2c", "name": "PlayScriptType", "guid": "0x50002B16",
                     "script_type": 55, "intensity": 0.05, "intensity_bits": "0x3D4CCCCD"}
    assert lines[0]["t"] == min(d["t"] for d in lines) >= 0


def test_json_CreateObject_fields(capsys):
    _, out, _ = run(capsys, CAPS / "enter-world.pcap", "--json", "--guid", "0x80103CDB")
    lines = [json.loads(line) for line in out.splitlines()]
    (create,) = [d for d in lines if d["opcode"] == "0xF745"]
    assert create["physics"]["setup"] == "0x02000B77"
    assert create["physics"]["physics_script_table"] is None   # absent, not zero
    assert create["weenie"]["name"] == "Pyreal"
    assert all("0x80103CDB" in json.dumps(d) for d in lines)


def test_guid_filter_keeps_only_that_object(capsys):
    _, out, _ = run(capsys, CAPS / "effects-burst.pcap", "--json", "--guid", "0x50002B16")
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines and all(d.get("guid") == "0x50002B16" for d in lines)


def test_nan_intensity_written_as_string(tmp_path, capsys):
    f755 = bytes.fromhex("55F70000 42000050 A5A5A5A5 3412C07F".replace(" ", ""))
    pkt = ethernet(udp_ipv4(ac_packet([fragment(1, f755)]), 9000, 5))
    p = tmp_path / "nan.pcap"
    p.write_bytes(pcap([(1.0, pkt)]))
    _, out, _ = run(capsys, p, "--json")
    d = json.loads(out)
    assert d["intensity"] == "nan" and d["intensity_bits"] == "0x7FC01234"
    assert d["script_type"] == 0xA5A5A5A5


def test_plain_output_one_line_per_event(capsys):
    code, out, _ = run(capsys, CAPS / "enter-world.pcap")
    assert code == 0
    assert any("CreateObject guid=0x80103CDB name='Pyreal' setup=0x02000B77" in line
               for line in out.splitlines())


def test_bad_capture_exits_1_with_one_line_naming_the_file(tmp_path, capsys):
    p = tmp_path / "bad.pcap"
    p.write_bytes(b"not a capture at all")
    code, _, err = run(capsys, p)
    assert code == 1 and "bad.pcap" in err and len(err.strip().splitlines()) == 1


def test_dat_option_keeps_the_message_lines(tmp_path, capsys):
    _, plain, _ = run(capsys, CAPS / "enter-world.pcap", "--json")
    code, with_dat, _ = run(capsys, CAPS / "enter-world.pcap", "--json", "--dat",
                            tmp_path / "none.dat")
    assert code == 0 and with_dat == plain


def _synthetic_capture(tmp_path):
    from tests.render import dat_fixture
    from tests.wire.builders import create_object
    from viewer.wire.descs import PD_CSETUP, PD_POSITION
    guid = 0x80000042
    create = create_object(guid, PD_CSETUP | PD_POSITION, setup=dat_fixture.SETUP,
                           stamps=(0,) * 9)
    f754 = (bytes.fromhex("54F70000") + guid.to_bytes(4, "little")
            + dat_fixture.SCRIPT.to_bytes(4, "little"))
    recs = [(10.0, ethernet(udp_ipv4(ac_packet([fragment(1, create)], seq=1), 9000, 5))),
            (10.5, ethernet(udp_ipv4(ac_packet([fragment(2, f754)], seq=2), 9000, 5)))]
    cap = tmp_path / "syn.pcap"
    cap.write_bytes(pcap(recs))
    return cap, dat_fixture.write(tmp_path / "fixture.dat"), guid


def test_scenario_out_then_trace_drives_the_simulation(tmp_path, capsys):
    cap, dat, guid = _synthetic_capture(tmp_path)
    out_path = tmp_path / "scen.json"
    code, _, _ = run(capsys, cap, "--scenario-out", out_path)
    assert code == 0
    scen = json.loads(out_path.read_text())
    assert scen["events"][0]["create"]["setup"] == "0x02000100"
    assert scen["events"][1] == {"t": 0.5, "object": guid, "play_script": "0x33000100"}
    code, out, _ = run(capsys, cap, "--dat", dat, "--trace")
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    scripts = [d for d in lines if d.get("event") == "script" and d.get("owner") == guid
               and d.get("script") == "0x33000100"]
    # t = 0: the Setup's default script at creation; t = 0.5: the captured F754
    assert [d["t"] for d in scripts if d["action"] == "queued"] == [0.0, 0.5]


def test_bad_guid_is_usage_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["replay", str(CAPS / "enter-world.pcap"), "--guid", "zz"])
    assert exc.value.code == 2


def test_ports_option_changes_the_AC_filter(capsys):
    _, out, _ = run(capsys, CAPS / "enter-world.pcap", "--json", "--ports", "7000-7001")
    assert out == ""
    _, out, _ = run(capsys, CAPS / "enter-world.pcap", "--json", "--ports", "9000-9001")
    assert out.count("0xF745") == 136


def test_scenario_out_dat_is_relative_to_the_scenario_file(tmp_path, capsys, monkeypatch):
    """A DAT named relative to the working folder still opens from the saved scenario,
    whose "dat" is relative to the scenario file (contract section 4)."""
    cap, dat, guid = _synthetic_capture(tmp_path)
    dat = Path(dat)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "out").mkdir()
    code, _, _ = run(capsys, cap, "--dat", dat.name, "--scenario-out", "out/scen.json")
    assert code == 0
    scen = json.loads((tmp_path / "out" / "scen.json").read_text())
    assert scen["dat"] == ["../" + dat.name]
    monkeypatch.chdir(tmp_path / "out")
    assert main(["trace", "--scenario", "scen.json", "--seconds", "0.6"]) == 0
    assert any(json.loads(x).get("owner") == guid for x in capsys.readouterr().out.splitlines())
