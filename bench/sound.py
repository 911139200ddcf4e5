"""Sound (issue 20): decoding each synthetic Wave form, mixing a long track of many sounds,
the viewer's per-frame mix (SoundPlayer.update), and the audio alignment's FFT.

Run: ``.venv/bin/python bench/sound.py [--sounds N] [--seconds S]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from viewer import synthetic as S
from viewer.audio_out import SilentSink, SoundPlayer
from viewer.compare.align import estimate_audio_offset
from viewer.dat.database import AssetDatabase
from viewer.dat.wave import decode_wave
from viewer.sim.mixer import SAMPLE_RATE, SoundMixer

WAVES = [S.WAVE_CHIME, S.WAVE_WHOOSH, S.WAVE_BOOM] + [getattr(S, n) for n, *_ in S.WAVE_FORMS]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sounds", type=int, default=2000)
    ap.add_argument("--seconds", type=float, default=120.0)
    args = ap.parse_args()
    with AssetDatabase([str(S.SYNTHETIC_DAT)]) as db:
        for did in WAVES:
            w = db.get(did)
            t0 = time.perf_counter()
            for _ in range(20):
                pcm = decode_wave(w)
            dt = (time.perf_counter() - t0) / 20
            print(f"decode 0x{did:08X} tag 0x{w.format_tag:04X}: {dt * 1e3:7.3f} ms "
                  f"({pcm.duration:.2f} s of sound)")
        rng = np.random.default_rng(0)
        events = [{"event": "sound", "t": float(t), "start": float(t), "played": True,
                   "wave": int(rng.choice(WAVES)), "gain": 0.5, "pan": int(rng.integers(-15, 16)),
                   "voice": i % 16, "owner": 1, "type": "Sound"}
                  for i, t in enumerate(np.sort(rng.uniform(0, args.seconds, args.sounds)))]
        mixer = SoundMixer(db)
        mixer.mix(events[:1], 0.0, 0.1)                        # decode cache warm
        t0 = time.perf_counter()
        track = mixer.mix(events, 0.0, args.seconds)
        dt = time.perf_counter() - t0
        print(f"mix {args.sounds} sounds into {args.seconds:g} s at {SAMPLE_RATE} Hz: "
              f"{dt:6.3f} s ({args.seconds / dt:.0f}x real time)")
        player = SoundPlayer(db, SilentSink())
        for k, e in enumerate(events[:200]):
            player.record(k, [e])
        t0 = time.perf_counter()
        for f in range(300):
            player.update(f, 30.0, playing=True, advanced=1 if f else None)
        dt = (time.perf_counter() - t0) / 300
        print(f"viewer per-frame mix (200 sounds known, 30 fps): {dt * 1e3:6.3f} ms a frame")
        rec = np.concatenate([np.zeros(12345, np.float32), track.mean(axis=1)])
        t0 = time.perf_counter()
        off, _ = estimate_audio_offset(track.mean(axis=1), rec, SAMPLE_RATE)
        dt = time.perf_counter() - t0
        print(f"align {args.seconds:g} s by sound: {dt:6.3f} s (offset {off:.4f} s, "
              f"true {12345 / SAMPLE_RATE:.4f})")


if __name__ == "__main__":
    main()
