"""Contract section 7: ``vfxviewer replay CAPTURE [--guid 0x...] [--dat DAT] [--json]`` on
the real captures in tests/data/captures (MIT, attribution in their README): one JSON
line per decoded message with ``t`` (capture seconds from the first packet), ``opcode``
(hex string), ``dir`` (``s2c`` / ``c2s``) and the decoded fields, in capture time."""

from __future__ import annotations

import json
import re

import pytest

from .conftest import (
    CAPTURES,
    SYN,
    assert_input_failure,
    assert_no_raw_nonfinite,
    assert_usage_error,
)

BURST = CAPTURES / "effects-burst.pcap"
ENTER = CAPTURES / "enter-world.pcap"
OPCODE_RE = re.compile(r"^0x[0-9A-F]{4,8}$")


@pytest.fixture(scope="module")
def burst_lines():
    import contextlib
    import io

    from viewer.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["replay", str(BURST), "--json"]) == 0
    return out.getvalue()


def _lines(text):
    assert_no_raw_nonfinite(text)
    return [json.loads(ln) for ln in text.splitlines()]


@pytest.mark.parametrize("capture", [BURST, ENTER], ids=["burst", "enter"])
def test_json_lines_have_t_opcode_dir(cli, capture):
    r = cli("replay", capture, "--json")
    assert r.rc == 0 and r.err == "", r
    lines = _lines(r.out)
    assert lines
    for d in lines:
        assert type(d["t"]) is float or type(d["t"]) is int
        assert d["t"] >= 0.0
        assert isinstance(d["opcode"], str) and OPCODE_RE.match(d["opcode"]), d["opcode"]
        assert d["dir"] in ("s2c", "c2s")
    ts = [d["t"] for d in lines]
    assert ts == sorted(ts), "capture time order"


def test_burst_test_vector_F755_decoded_fields(burst_lines):
    """A known F755 from the capture: guid 0x50002B16, PlayScript 0x37, mod 0.05."""
    f755 = [d for d in _lines(burst_lines) if d["opcode"] == "0xF755"]
    assert len(f755) == 515
    first = f755[0]
    assert first["dir"] == "s2c" and first["guid"] == "0x50002B16"
    assert first["script_type"] == 0x37 and abs(first["intensity"] - 0.05) < 1e-7


def test_burst_message_counts_match_the_capture_readme(burst_lines):
    lines = _lines(burst_lines)
    count = {}
    for d in lines:
        count[d["opcode"]] = count.get(d["opcode"], 0) + 1
    assert (count["0xF74C"], count["0xF625"], count["0xF74A"], count["0xF750"]) == (12, 60, 30,
                                                                                     60)
    assert "0xF745" not in count  # starts mid-session


def test_enter_world_creates_136_objects(cli):
    lines = _lines(cli("replay", ENTER, "--json").out)
    creates = [d for d in lines if d["opcode"] == "0xF745"]
    assert len(creates) == 136 and all(d["dir"] == "s2c" for d in creates)
    assert any(d["opcode"] == "0xF753" and d["dir"] == "c2s" for d in lines)


def test_t_is_seconds_from_the_first_packet(burst_lines):
    """The burst capture's first packet carries a decoded message: its t is 0."""
    assert _lines(burst_lines)[0]["t"] == 0.0


@pytest.mark.parametrize("guid", ["0x50002B16", str(0x50002B16), "0X50002b16"])
def test_guid_filter_hex_or_decimal(cli, burst_lines, guid):
    r = cli("replay", BURST, "--json", "--guid", guid)
    assert r.rc == 0
    kept = _lines(r.out)
    assert kept and all("0x50002B16" in json.dumps(d) for d in kept)
    assert len(kept) < len(_lines(burst_lines))


def test_plain_output_one_line_per_message(cli, burst_lines):
    r = cli("replay", BURST)
    assert r.rc == 0
    assert len(r.lines) == len(burst_lines.splitlines())


def test_dat_option_keeps_the_message_lines(cli, burst_lines):
    r = cli("replay", BURST, "--json", "--dat", SYN)
    assert r.rc == 0 and r.out == burst_lines


# --- failures -------------------------------------------------------------------------------
def test_missing_capture_names_the_file(cli, tmp_path):
    assert_input_failure(cli("replay", tmp_path / "gone.pcap", "--json"), "gone.pcap")


@pytest.mark.parametrize("content", [b"", b"\x00\x01", SYN.read_bytes()[:4096]],
                         ids=["empty", "two_bytes", "a_DAT"])
def test_not_a_capture_names_file_and_offset(cli, tmp_path, content):
    path = tmp_path / "bad.pcap"
    path.write_bytes(content)
    assert_input_failure(cli("replay", path, "--json"), "bad.pcap", "offset 0")


@pytest.mark.parametrize("cut", [24, 30])
def test_capture_with_no_packets_is_input_failure(cli, tmp_path, cut):
    path = tmp_path / "hdr.pcap"
    path.write_bytes(BURST.read_bytes()[:cut])
    assert_input_failure(cli("replay", path, "--json"), "hdr.pcap")


@pytest.mark.parametrize("cut", [100, 5000, 40000, 150001])
def test_truncated_capture_prints_what_precedes_then_exits_1(cli, tmp_path, burst_lines, cut):
    """A capture cut short is a failure of the input: the messages before the cut print (a
    prefix of the full run), then one line on stderr naming the file; exit 1."""
    path = tmp_path / "cut.pcap"
    path.write_bytes(BURST.read_bytes()[:cut])
    r = cli("replay", path, "--json")
    assert_input_failure(r, "cut.pcap", "truncated")
    assert burst_lines.startswith(r.out)


@pytest.mark.parametrize("argv", [["--guid", "zz"], ["--guid"], [], ["--ports", "x"]])
def test_bad_usage(cli, argv):
    capture = [] if argv == [] else [BURST]
    assert_usage_error(cli("replay", *capture, *argv))


@pytest.mark.parametrize("capture", [BURST, ENTER], ids=["burst", "enter"])
def test_t_is_a_packet_time_relative_to_the_first_packet(cli, capture):
    """A message's time is the capture time of the datagram that completed it;
    the contract counts it from the first packet of the capture (not the first message)."""
    import dpkt
    with capture.open("rb") as fh:
        stamps = [ts for ts, _ in dpkt.pcap.Reader(fh)]
    rel = [ts - stamps[0] for ts in stamps]
    for d in _lines(cli("replay", capture, "--json").out):
        assert min(abs(d["t"] - r) for r in rel) < 2e-6, d["t"]
