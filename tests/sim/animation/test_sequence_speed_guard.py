"""An absurd motion speed is reported, never a hang (CSequence::update_internal 0x005255D0
would loop once per animation pass): the scenario field is outside its documented range
(viewer/bounds.py MOTION_SPEED), so the error names the scenario and the field, not the
DAT."""

from __future__ import annotations

import json

from viewer import synthetic
from viewer.cli import main


def test_absurd_motion_speed_is_an_input_error_not_a_hang(tmp_path, capsys):
    sc = {"dat": [str(synthetic.SYNTHETIC_DAT)], "seconds": 0.5,
          "objects": [{"id": 1, "setup": f"0x{synthetic.SETUP_HUMANOID:08X}",
                       "table": f"0x{synthetic.PST_FLAME:08X}"}],
          "events": [{"t": 0.0, "object": 1, "motion": f"0x{synthetic.MOTION_WALK_FORWARD:08X}",
                      "speed": 1e30}]}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(sc))
    assert main(["trace", "--scenario", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}: events[0].speed: " in err and "DID" not in err
