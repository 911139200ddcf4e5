"""The sound track of a run: the played ``sound`` events mixed into stereo PCM (numpy, no
GL, no audio device).

Each played event's Wave (viewer.dat.wave) is resampled to the track's rate (only the part
the track covers: what is heard, not the whole Wave) and added at sample
``round((t - t0) * sample_rate)``, times its gain, panned. A voice ends when its
Wave ends or when a later sound takes the same voice (the 16-voice ring of
SoundManager::PlaySoundInternal 0x0054FEC0, viewer.sim.sound). How DirectSound resamples,
pans and mixes is not in the decompile: linear interpolation, the far channel attenuated by
|pan| dB (DirectSound's documented pan), plain addition clipped to [-1, 1].
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

SAMPLE_RATE = 48000


@dataclass(frozen=True)
class VoiceSpan:
    """One sound as heard: from ``start`` to ``end`` seconds (cut or natural end)."""

    start: float
    end: float
    wave: int
    gain: float
    pan: int
    voice: int
    owner: int
    type: str


def pan_gains(pan: int) -> tuple[float, float]:
    """(left, right) amplitudes of a pan index in [-15, 15] (SoundBuf::Play sets 100 * pan
    hundredths of a dB): positive attenuates the left channel, negative the right."""
    p = float(pan)
    return 10.0 ** (-max(p, 0.0) / 20.0), 10.0 ** (min(p, 0.0) / 20.0)


def resample(mono: np.ndarray, rate: int, out_rate: int) -> np.ndarray:
    """Linear interpolation from ``rate`` to ``out_rate`` (the first sample stays first)."""
    return resample_span(mono, rate, out_rate, 0, resampled_length(len(mono), rate, out_rate))


def resampled_length(frames: int, rate: int, out_rate: int) -> int:
    """How many samples ``frames`` samples at ``rate`` last at ``out_rate``."""
    return frames if rate == out_rate else int(round(frames * out_rate / rate))


def resample_span(mono: np.ndarray, rate: int, out_rate: int, j0: int, j1: int
                  ) -> np.ndarray:
    """Samples ``j0..j1`` of ``resample(mono, rate, out_rate)``, reading only the source
    samples they lie between: a sound is resampled only where it is heard."""
    if rate == out_rate:
        return mono[j0:j1].astype(np.float32, copy=False)
    if j1 <= j0 or not len(mono):
        return np.zeros(0, np.float32)
    x = np.arange(j0, j1, dtype=np.float64) * (rate / out_rate)
    i0 = min(int(x[0]), len(mono) - 1)
    i1 = min(len(mono), int(x[-1]) + 2)
    return np.interp(x, np.arange(i0, i1), mono[i0:i1]).astype(np.float32)


class SoundMixer:
    """Decodes (once per Wave, at its own rate) and mixes, resampling only the samples
    heard. ``db`` gives Wave records by DID. Decoded Waves are kept up to ``CACHE_BYTES``
    (least recently used dropped first; the one in use always kept)."""

    CACHE_BYTES = 256 << 20

    def __init__(self, db, sample_rate: int = SAMPLE_RATE) -> None:
        self.db = db
        self.sample_rate = int(sample_rate)
        self._pcm: OrderedDict[int, tuple[np.ndarray, int]] = OrderedDict()
        self._bytes = 0

    def wave_pcm(self, did: int) -> tuple[np.ndarray, int]:
        """The Wave's samples at its own rate, mono (float32), and that rate; a missing,
        undecodable or out-of-bounds Wave (viewer.dat.wave) is a DatError naming it."""
        got = self._pcm.get(did)
        if got is None:
            from viewer.dat import records as R
            from viewer.dat.wave import decode_wave
            # a DID of another type (the sim traces it and plays nothing): never decoded
            w = decode_wave(R.expect_record(self.db.get(did), did, R.Wave))
            mono = w.samples[:, 0] if w.samples.shape[1] == 1 else w.samples.mean(axis=1)
            got = (np.ascontiguousarray(mono, np.float32), w.sample_rate)
            self._pcm[did] = got
            self._bytes += got[0].nbytes
            while len(self._pcm) > 1 and self._bytes > self.CACHE_BYTES:
                _, (dropped, _) = self._pcm.popitem(last=False)
                self._bytes -= dropped.nbytes
        self._pcm.move_to_end(did)
        return got

    def wave_length(self, did: int) -> int:
        """The Wave's length in samples at the track's rate."""
        mono, rate = self.wave_pcm(did)
        return resampled_length(len(mono), rate, self.sample_rate)

    def wave_span(self, did: int, j0: int, j1: int) -> np.ndarray:
        """Samples ``j0..j1`` of the Wave at the track's rate, mono (float32)."""
        mono, rate = self.wave_pcm(did)
        return resample_span(mono, rate, self.sample_rate, j0, j1)

    def spans(self, events) -> list[VoiceSpan]:
        """The played sounds as heard, in start order: each ends at its Wave's end or when
        the next sound on its voice starts. A sound whose Wave no DAT holds took its voice
        all the same (``played`` false, ``voice`` set: SoundManager::PlaySoundInternal
        0x0054FEC0 stops what the voice held) and is not heard."""
        out: list[VoiceSpan] = []
        last_on_voice: dict[int, int] = {}
        for e in events:
            if not takes_voice(e):
                continue
            t = float(e.get("start", e["t"]))
            v = int(e["voice"])
            prev = last_on_voice.pop(v, None)
            if prev is not None and out[prev].end > t:
                out[prev] = _cut(out[prev], t)
            if not e.get("played"):
                continue
            dur = self.wave_length(int(e["wave"])) / self.sample_rate
            last_on_voice[v] = len(out)
            out.append(VoiceSpan(t, t + dur, int(e["wave"]), float(e["gain"]),
                                 int(e.get("pan", 0)), v, int(e.get("owner", 0)),
                                 str(e.get("type", ""))))
        return out

    def mix(self, events, t0: float, seconds: float, *, volume: float = 1.0) -> np.ndarray:
        """Stereo float32 (n, 2), n = round(seconds * rate), sample 0 at sim time ``t0``."""
        n = int(round(seconds * self.sample_rate))
        return next(self.blocks(events, t0, seconds, block=max(n, 1), volume=volume),
                    np.zeros((0, 2), np.float32))

    def blocks(self, events, t0: float, seconds: float, *, block: int = 48 * 1024,
               volume: float = 1.0) -> Iterator[np.ndarray]:
        """The track ``mix`` gives, as consecutive stereo blocks of ``block`` samples (the
        last shorter), the same samples bit for bit: a long track is written holding one
        block, never the whole."""
        sr = self.sample_rate
        n = int(round(seconds * sr))
        placed = []     # (first sample, length, span) in the spans' order
        for s in self.spans(events):
            a = int(round((s.start - t0) * sr))          # where the Wave's first sample goes
            placed.append((a, min(self.wave_length(s.wave), int(round((s.end - t0) * sr)) - a),
                           s))
        by_start = sorted(range(len(placed)), key=lambda k: placed[k][0])
        nxt, active = 0, set()
        for j0 in range(0, n, block):
            j1 = min(j0 + block, n)
            while nxt < len(by_start) and placed[by_start[nxt]][0] < j1:
                active.add(by_start[nxt])
                nxt += 1
            out = np.zeros((j1 - j0, 2), np.float32)
            for k in sorted(active):        # added in the spans' order: the same sums
                a, length, s = placed[k]
                lo, hi = max(a, j0), min(a + length, j1)
                if hi > lo:
                    self._add(out[lo - j0:hi - j0], s, lo - a, hi - a, volume)
            active = {k for k in active if placed[k][0] + placed[k][1] > j1}
            np.clip(out, -1.0, 1.0, out=out)
            yield out

    def _add(self, out: np.ndarray, s: VoiceSpan, j0: int, j1: int, volume: float) -> None:
        """Add samples ``j0..j1`` of the span's Wave into ``out``, with its gain and pan."""
        seg = self.wave_span(s.wave, j0, j1) * np.float32(s.gain * volume)
        gl, gr = pan_gains(s.pan)
        out[:, 0] += seg * np.float32(gl)
        out[:, 1] += seg * np.float32(gr)


def _cut(span: VoiceSpan, t: float) -> VoiceSpan:
    from dataclasses import replace
    return replace(span, end=t)


def takes_voice(ev: dict) -> bool:
    """A ``sound`` event that took one of the 16 voices: played, or silent for want of its
    Wave (it still stops what the voice held)."""
    return ev.get("event") == "sound" and (bool(ev.get("played"))
                                           or ev.get("voice") is not None)


class SoundCapture:
    """A World listener keeping the ``sound`` events that took a voice (for a render's
    track)."""

    def __init__(self) -> None:
        self.events: list[dict] = []
        self.t0: float | None = None     # sim time of the first frame written
        self.frames = 0

    def __call__(self, ev: dict) -> None:
        if takes_voice(ev):
            self.events.append(ev)

    def drawn(self, t: float) -> None:
        """A frame at sim time ``t`` went to the output."""
        if self.t0 is None:
            self.t0 = float(t)
        self.frames += 1

    def track(self, db, fps: float, sample_rate: int = SAMPLE_RATE) -> np.ndarray:
        """The mixed track under the frames written (their count / fps seconds)."""
        return SoundMixer(db, sample_rate).mix(self.events, self.t0 or 0.0,
                                               self.frames / float(fps))

    def track_blocks(self, db, fps: float, sample_rate: int = SAMPLE_RATE
                     ) -> Iterator[np.ndarray]:
        """``track`` as consecutive blocks (SoundMixer.blocks): for a writer that streams."""
        return SoundMixer(db, sample_rate).blocks(self.events, self.t0 or 0.0,
                                                  self.frames / float(fps))
