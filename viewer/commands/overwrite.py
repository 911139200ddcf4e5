"""An output that would overwrite one of the command's own inputs is bad usage.

``replay c.pcap --scenario-out c.pcap`` wrote the scenario over the capture it was reading
and then blamed the capture; ``render x.png ... --out x.png``, ``screenshot`` and
``compare --reference r.mp4 --csv r.mp4`` replaced their input and exited 0. Every command
that writes checks, before any work, that no output (``--out``, ``--csv``, ``--json``,
``--scenario-out``, ``--screenshot``, ``--dump-state``) is the same file as an input (a DAT,
the scenario, the scenario's DATs and reference, a capture, a reference recording, an
actions file), and that no two outputs name one file. "The same file" is what the file
system says (``os.path.samefile``: symbolic and hard links included); an output that does
not exist yet cannot be an input. Two outputs are compared by their resolved paths.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from viewer.commands.selection import usage_error

#: (what it is, path): ``("--out", "x.png")``, ``("DAT", "client_portal.dat")``
Named = tuple[str, "str | os.PathLike | None"]


def _same(a, b) -> bool:
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):  # one does not exist (or a NUL in a name): not the same
        return False


def clash(outputs: Iterable[Named], inputs: Iterable[Named]) -> str | None:
    """Why the outputs cannot be written (one of them is an input, or two are one file),
    or None."""
    outs = [(what, p) for what, p in outputs if p is not None and str(p).strip()]
    ins = [(what, p) for what, p in inputs if p is not None and str(p).strip()]
    for option, out in outs:
        for what, path in ins:
            if _same(out, path):
                return (f"{option} {out} is the {what} {path}: writing it would destroy an "
                        "input; give another path")
    seen: dict[str, str] = {}
    for option, out in outs:
        key = os.path.realpath(Path(out))
        if key in seen:
            return f"{option} {out} and {seen[key]} name one file: give each its own path"
        seen[key] = f"{option} {out}"
    return None


def refuse_clash(prog: str, outputs: Iterable[Named], inputs: Iterable[Named]) -> int | None:
    """2 after the usage line when ``clash`` finds one, else None."""
    problem = clash(outputs, inputs)
    return None if problem is None else usage_error(prog, problem)


def check_outputs(prog: str, outputs: Iterable[Named],
                  inputs: Iterable[Named]) -> list | None:
    """Every output checked before any work, in one order for every command: none is an
    input nor two one file (``refuse_clash``: None after the usage line), then each given
    one can be written (viewer.commands.output.check_output: an OutputError). The outputs'
    Paths (None where not given)."""
    from viewer.commands.output import check_output
    outputs = list(outputs)
    if refuse_clash(prog, outputs, inputs) is not None:
        return None
    return [check_output(p, what) if p else None
            for what, p in outputs]


def scenario_inputs(scenario_path, scenario=None, *, dats: bool = True,
                    reference: bool = True) -> list[Named]:
    """The scenario file and the files it names that the command reads: its DATs (unless a
    DAT on the command line replaces them) and its ``reference`` recording (relative to the
    scenario's folder, as docs/cli.md section 4 reads them)."""
    out: list[Named] = [("scenario", scenario_path)]
    if scenario is None:
        return out
    if dats:
        out.extend(("DAT", p) for p in scenario.dat_paths())
    ref = scenario.extra.get("reference") if reference else None
    if isinstance(ref, dict) and isinstance(ref.get("path"), str) and ref["path"].strip():
        path = Path(ref["path"])
        if not path.is_absolute() and scenario.path is not None:
            path = Path(scenario.path).parent / path
        out.append(("reference", path))
    return out
