"""Sound in the viewer: the playback's sounds mixed (viewer.sim.mixer) and sent to an audio
device, or to a silent sink when there is none (CI, headless, no sound card): never an
error.

Device library: miniaudio (pyminiaudio). Its wheels carry the miniaudio C library with
its backends built in (ALSA / PulseAudio / JACK found at run time, WASAPI, Core Audio), so
nothing has to be installed beside the wheel; sounddevice would need the PortAudio system
library, which a plain ``pip install`` does not bring.

``SoundPlayer`` is the GL-free model the viewer drives once per drawn frame: while the
playback plays forward at speed 1 it mixes the sim time just played and queues it on the
sink (master volume, mute); a seek, a scrub, a step, a pause or another speed plays nothing
and drops what was queued, and playing again resumes in sync (a sound begun before the
resume point is heard from its middle).
"""

from __future__ import annotations

import collections
import contextlib
import os
import threading

import numpy as np

from viewer.sim.mixer import SAMPLE_RATE, SoundMixer, takes_voice


class SilentSink:
    """Discards the audio (no device); counts what it was given."""

    name = "silent"

    def __init__(self, reason: str = "") -> None:
        self.reason = reason
        self.frames_written = 0

    def write(self, samples: np.ndarray) -> None:
        self.frames_written += len(samples)

    def flush(self) -> None:
        pass

    def close(self) -> None:
        pass


@contextlib.contextmanager
def _quiet_stderr():
    """ALSA prints its probing to the process's stderr; keep that off the terminal."""
    try:
        fd = os.dup(2)
    except OSError:
        yield
        return
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(fd, 2)
        os.close(fd)


class MiniaudioSink:
    """A miniaudio playback device (float32 stereo) pulling from a queue; silence when the
    queue runs dry."""

    name = "miniaudio"

    def __init__(self, sample_rate: int = SAMPLE_RATE, buffer_ms: int = 40) -> None:
        import miniaudio
        self._lock = threading.Lock()
        self._queue: collections.deque[np.ndarray] = collections.deque()
        self.frames_written = 0
        with _quiet_stderr():
            self._device = miniaudio.PlaybackDevice(
                output_format=miniaudio.SampleFormat.FLOAT32, nchannels=2,
                sample_rate=sample_rate, buffersize_msec=buffer_ms)
        gen = self._pull()
        next(gen)
        self._device.start(gen)

    def _pull(self):
        required = yield b""
        while True:
            out = np.zeros((required, 2), np.float32)
            filled = 0
            with self._lock:
                while filled < required and self._queue:
                    chunk = self._queue[0]
                    take = min(len(chunk), required - filled)
                    out[filled:filled + take] = chunk[:take]
                    filled += take
                    if take == len(chunk):
                        self._queue.popleft()
                    else:
                        self._queue[0] = chunk[take:]
            required = yield out.tobytes()

    def write(self, samples: np.ndarray) -> None:
        with self._lock:
            self._queue.append(np.ascontiguousarray(samples, np.float32))
        self.frames_written += len(samples)

    def flush(self) -> None:
        with self._lock:
            self._queue.clear()

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._device.close()


_shared = None


def use_device(enabled: bool = True) -> None:
    """Open the audio device the viewer's sessions share (once per process; the window
    calls this, tests and headless commands do not and so stay silent)."""
    global _shared
    if _shared is not None:
        _shared.close()
    _shared = open_sink(enabled=enabled)


def shared_sink():
    """The device ``use_device`` opened, or a silent sink."""
    return _shared if _shared is not None else SilentSink()


def open_sink(sample_rate: int = SAMPLE_RATE, *, enabled: bool = True):
    """The default audio device, or a ``SilentSink`` (with the reason) when there is none,
    the library is missing, or ``enabled`` is False."""
    if not enabled:
        return SilentSink("audio off")
    try:
        return MiniaudioSink(sample_rate)
    except Exception as err:  # no library, no backend, no device: play silently
        return SilentSink(f"no audio device ({type(err).__name__}: {err})")


class SoundPlayer:
    """What the viewer hears. ``record(frame, events)`` takes the playback's events (every
    simulated frame, as ``Playback.on_events`` reports them); ``update(...)`` runs once per
    drawn frame."""

    def __init__(self, db, sink=None, *, sample_rate: int = SAMPLE_RATE, volume: float = 1.0,
                 muted: bool = False) -> None:
        self.mixer = SoundMixer(db, sample_rate)
        self.sink = sink if sink is not None else SilentSink()
        self.volume = float(volume)        # master volume, 0..1
        self.muted = bool(muted)
        self._by_frame: dict[int, list[dict]] = {}
        self._last: int | None = None      # the frame the queued audio reaches
        self.error: Exception | None = None  # a Wave that could not be mixed (kept, not raised)

    def record(self, frame: int, events) -> None:
        sounds = [e for e in events if takes_voice(e)]
        if sounds:
            self._by_frame[frame] = sounds
        else:
            self._by_frame.pop(frame, None)

    def events(self) -> list[dict]:
        return [e for f in sorted(self._by_frame) for e in self._by_frame[f]]

    def spans(self):
        """The sounds as heard (start, end, wave, ...): the timeline's sound lane."""
        try:
            return self.mixer.spans(self.events())
        except Exception as err:  # an undecodable Wave: say so, keep the viewer running
            self.error = err
            return []

    def set_volume(self, volume: float) -> None:
        if np.isfinite(volume):
            self.volume = min(max(float(volume), 0.0), 1.0)

    def reset(self) -> None:
        """The scenario changed: forget its sounds and drop what was queued."""
        self._by_frame.clear()
        self._last = None
        self.error = None
        self.sink.flush()

    def update(self, frame: int, fps: float, *, playing: bool, speed: float = 1.0,
               advanced: int | None = None) -> int:
        """Queue the audio of frames (last, frame] when they were just played forward at
        speed 1 (``advanced``: the frames the playback clock stepped, when known, so a seek
        is never taken for playing); otherwise drop the queue and play nothing. Returns
        the samples queued."""
        last, self._last = self._last, frame
        jumped = advanced is not None and last is not None and frame - last != advanced
        if not playing or speed != 1.0 or last is None or frame <= last or jumped:
            if last != frame or not playing:
                self.sink.flush()
            return 0
        sr = self.mixer.sample_rate   # whole samples from the start: no drift at any fps
        a, b = round(last / fps * sr), round(frame / fps * sr)
        try:
            block = self.mixer.mix(self.events(), a / sr, (b - a) / sr)
        except Exception as err:  # an undecodable Wave: silence and a message, no crash
            self.error = err
            return 0
        gain = 0.0 if self.muted else self.volume
        self.sink.write(block * np.float32(gain))
        return len(block)

    def close(self) -> None:
        self.sink.close()
