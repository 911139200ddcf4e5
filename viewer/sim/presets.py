"""Named projectile presets: the retail projectiles by name (Arrow ... Tusker Fist).

A preset is a WCID of ``viewer.dat.retail_facts.PROJECTILES``: its Setup and its
PhysicsScriptTable (None for the four without a table in their weenie template; Tusker
Fist's Setup plays its own DefaultScript). Scenarios name them (an object's ``"preset"``,
a launch's ``"preset"``) and the Launch panel offers them; both find the DIDs in the open
DATs or say which one is missing.
"""

from __future__ import annotations

from viewer.dat.retail_facts import PROJECTILES, PROJECTILES_BY_NAME, Projectile
from viewer.errors import ScenarioError

PRESET_NAMES: tuple[str, ...] = tuple(p.name for p in PROJECTILES)


def preset(name, field: str = "preset", file: str | None = None) -> Projectile:
    """The preset called ``name``; ScenarioError naming ``field`` when there is none."""
    p = PROJECTILES_BY_NAME.get(name) if isinstance(name, str) else None
    if p is None:
        raise ScenarioError(f"{field}: unknown projectile preset {name!r} (known: "
                            f"{', '.join(PRESET_NAMES)})", file=file)
    return p


def missing(db, p: Projectile) -> list[tuple[str, int]]:
    """(what, DID) for each record of the preset that the open DATs lack."""
    need = [("Setup", p.setup)] + ([("PhysicsScriptTable", p.table)] if p.table else [])
    return [(what, did) for what, did in need if did not in db]


def require(db, p: Projectile, field: str = "preset", file: str | None = None) -> None:
    """ScenarioError naming the field and the first missing DID, if any."""
    gone = missing(db, p)
    if gone:
        what, did = gone[0]
        raise ScenarioError(f"{field}: {p.name} needs {what} 0x{did:08X}, which is not in "
                            f"the open DATs", file=file, did=did)


def status(db) -> tuple[tuple[str, str], ...]:
    """(name, "" when available else which DIDs the open DATs lack) for every preset."""
    return tuple((p.name, ", ".join(f"{what} 0x{did:08X} missing"
                                    for what, did in missing(db, p)))
                 for p in PROJECTILES)
