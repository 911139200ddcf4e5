"""Contract conventions: "Integers given on the command line accept decimal or 0x hex" --
for every integer option of every command, the decimal and the 0x spellings of one value
give the same output; a value that is neither is bad usage (exit 2)."""

from __future__ import annotations

import pytest

from viewer import synthetic as S

from .conftest import CAPTURES, SYN, assert_usage_error

BURST = CAPTURES / "effects-burst.pcap"
MARKER = S.SETUP_MARKER


def _spellings(v: int) -> list[str]:
    return [f"0x{v:X}", f"0x{v:08x}", str(v), f"0{v}"]


CASES = {
    "dat_ls_type": (lambda x: ["dat", "ls", SYN, "--type", x], 0x34),
    "dat_show_DID": (lambda x: ["dat", "show", SYN, x], S.PES_ALL_HOOKS),
    "resolve_table": (lambda x: ["resolve", SYN, x, "Launch", "0.5"], S.PST_FLAME),
    "resolve_playscript": (lambda x: ["resolve", SYN, f"0x{S.PST_FLAME:08X}", x, "0.5"], 4),
    "trace_setup": (lambda x: ["trace", SYN, "--setup", x, "--seconds", "0.1"], MARKER),
    "trace_table": (lambda x: ["trace", SYN, "--setup", str(MARKER), "--table", x, "--play",
                               "Launch:0.5", "--seconds", "0.1"], S.PST_FLAME),
    "trace_script": (lambda x: ["trace", SYN, "--setup", str(MARKER), "--script", x,
                                "--seconds", "0.1"], S.PES_COLLISION_FLASH),
    "trace_seed": (lambda x: ["trace", SYN, "--setup", str(MARKER), "--script",
                              str(S.PES_EMITTER_LIMITS), "--seed", x, "--seconds", "0.3",
                              "--particles"], 12),
    "trace_play_type": (lambda x: ["trace", SYN, "--setup", str(MARKER), "--table",
                                   str(S.PST_FLAME), "--play", f"{x}:0.5", "--seconds",
                                   "0.1"], 4),
    "replay_guid": (lambda x: ["replay", BURST, "--json", "--guid", x], 0x50002B16),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_decimal_and_hex_spellings_are_the_same_value(cli, name):
    build, value = CASES[name]
    outs = set()
    for spelling in _spellings(value):
        r = cli(*build(spelling))
        assert r.rc == 0, (spelling, r)
        outs.add(r.out)
    assert len(outs) == 1 and outs.pop()


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("bad", ["0xG1", "12abc", "1.5", "0x"])
def test_not_an_integer_is_usage_error(cli, name, bad):
    build, _ = CASES[name]
    if name == "resolve_playscript" and bad in ("0x",):
        pytest.skip("'0x' could be a PlayScript name lookup; covered by the resolve tests")
    assert_usage_error(cli(*build(bad)))


@pytest.mark.parametrize("name", ["dat_show_DID", "resolve_table", "trace_setup",
                                  "replay_guid", "resolve_playscript"])
def test_u32_out_of_range_is_usage_error(cli, name):
    build, _ = CASES[name]
    assert_usage_error(cli(*build("0x100000000")))
