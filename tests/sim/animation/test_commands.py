"""Both MotionCommand catalogs and scenario command parsing."""

from __future__ import annotations

import pytest

from viewer.errors import ScenarioError
from viewer.sim.animation.commands import (
    ACE_MODERN,
    DEFAULT_CATALOG,
    RETAIL_2013,
    CommandCatalog,
    resolve_command,
)


def test_ace_modern_is_the_runtime_default():
    assert DEFAULT_CATALOG is ACE_MODERN


def test_retail_2013_table_has_408_entries_indexed_by_low_word():
    assert len(RETAIL_2013.entries) == 408
    assert all(v & 0xFFFF == i for i, (_, v) in enumerate(RETAIL_2013.entries))


@pytest.mark.parametrize("wire, full", [(0x0153, 0x10000153), (0x0166, 0x10000166),
                                        (0x0171, 0x10000171), (0x0173, 0x10000173)])
def test_ace_modern_reconstructs_recall_family(wire, full):
    assert ACE_MODERN.reconstruct_full_command(wire) == full


@pytest.mark.parametrize("wire, full", [(0x0150, 0x10000150), (0x0163, 0x10000163),
                                        (0x016E, 0x1000016E), (0x0170, 0x10000170)])
def test_retail_2013_reconstructs_recall_family(wire, full):
    assert RETAIL_2013.reconstruct_full_command(wire) == full


@pytest.mark.parametrize("name, ace, retail", [
    ("LifestoneRecall", 0x10000153, 0x10000150),
    ("MarketplaceRecall", 0x10000166, 0x10000163),
    ("AllegianceHometownRecall", 0x10000171, 0x1000016E),
    ("OffhandSlashHigh", 0x10000173, 0x10000170),
    ("HouseRecall", 0x1000013A, 0x10000137),
])
def test_names_map_to_each_catalogs_value(name, ace, retail):
    assert ACE_MODERN.command(name) == ace
    assert RETAIL_2013.command(name) == retail


def test_shift_begins_at_SnowAngelState():
    """The +3 low-word shift starts at SnowAngelState (0x43000115 -> 0x43000118),
    not at AllegianceHometownRecall; ClosestPlayer, just before it, is unshifted."""
    assert RETAIL_2013.command("ClosestPlayer") == ACE_MODERN.command("ClosestPlayer") == 0x09000114
    assert RETAIL_2013.command("SnowAngelState") == 0x43000115
    assert ACE_MODERN.command("SnowAngelState") == 0x43000118
    # The same wire value means different commands in the two catalogs from there on.
    assert RETAIL_2013.reconstruct_full_command(0x0118) == 0x43000118   # AFKState
    assert RETAIL_2013.name_of(0x43000118) == "AFKState"
    assert ACE_MODERN.name_of(ACE_MODERN.reconstruct_full_command(0x0118)) == "SnowAngelState"
    # Every name from SnowAngelState on that both catalogs share is exactly 3 above.
    start = [n for n, _ in RETAIL_2013.entries].index("SnowAngelState")
    shared = [(n, v) for n, v in RETAIL_2013.entries[start:] if ACE_MODERN.command(n)]
    assert len(shared) > 100
    assert all(ACE_MODERN.command(n) - v == 3 for n, v in shared)
    before = [(n, v) for n, v in RETAIL_2013.entries[1:start]
              if ACE_MODERN.command(n) is not None]
    assert all(ACE_MODERN.command(n) == v for n, v in before)


def test_wire_collision_lower_class_byte_wins():
    cat = CommandCatalog("t", (("Sub", 0x41000042), ("Act", 0x10000042), ("Sty", 0x80000042),
                               ("Ui", 0x09000043), ("Act2", 0x10000043)))
    assert cat.reconstruct_full_command(0x42) == 0x10000042
    assert cat.reconstruct_full_command(0x43) == 0x09000043
    assert cat.reconstruct_full_command(0x44) == 0


def test_wire_value_without_entry_is_zero():
    assert RETAIL_2013.reconstruct_full_command(0x0198) == 0
    assert ACE_MODERN.reconstruct_full_command(0xFFFF) == 0


@pytest.mark.parametrize("value, expected", [
    ("0x10000153", 0x10000153), (0x10000153, 0x10000153), ("268435795", 0x10000153),
    ("LifestoneRecall", 0x10000153), ("lifestonerecall", 0x10000153),
    ("0x0153", 0x10000153), (0x0003, 0x41000003), ("Ready", 0x41000003),
])
def test_resolve_command_accepts_full_values_names_and_wire_values(value, expected):
    assert resolve_command(value) == expected


def test_resolve_command_uses_the_given_catalog():
    assert resolve_command("LifestoneRecall", RETAIL_2013) == 0x10000150
    assert resolve_command(0x0150, RETAIL_2013) == 0x10000150


@pytest.mark.parametrize("bad", ["NoSuchMotion", 1.5, None, True, -1, 0x1_0000_0000, "0x0198"])
def test_resolve_command_rejects_unknown_input_with_ScenarioError(bad):
    with pytest.raises(ScenarioError):
        resolve_command(bad, RETAIL_2013)
