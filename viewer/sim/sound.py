"""Retail's sound manager as far as it decides what is heard (SoundManager.obj).

The three sound hooks (CAnimHook.c) call ``SoundManager::PlaySound``:

* Sound 0x00526A20 -> PlaySound(wave, obj) 0x00550730: no probability roll; the volume
  handed on is the effects slider itself (``effect_sound_volume``, 1.0), which
  GetAttenuation multiplies in a second time.
* SoundTweaked 0x00526A80 -> PlaySound(wave, obj, prio, prob, vol) 0x005507A0: one
  PlayProbability roll on ``prob``; ``vol`` is the volume; ``prio`` is not used at all.
* SoundTable 0x00526AB0 -> PlaySound(type, obj) 0x00550B70: GetSound 0x00550680 picks an
  entry of the object's SoundTable (one ``Random::RollDice(0, 1)`` draw, index
  ``trunc((n - 1) * roll)``, so the last of several entries is never chosen), then one
  PlayProbability roll on the entry's probability; the entry's volume is the volume.

PlayProbability 0x005500E0 draws the C runtime's ``rand()`` (``CrtRand``), not ``Random``.
PlaySoundInternal(ref, pos, volume) 0x00550170 takes the distance and compass heading from
the listener (the viewer/camera position), a pan in [-15, 15] (none closer than 5 m) and an
attenuation in whole dB (GetAttenuation 0x00550020); a sound below ``VOL_MIN`` is not
played. PlaySoundInternal(ref, pan, att) 0x0054FEC0 then places it in one of 16 voices,
round robin from ``curr_playing_buffer_``.

Voice priority: a voice stores its SoundBufRef's own SoundData priority, which the
SoundData constructor (0x00551CB0) sets to 0 and nothing ever writes (GetSound copies the
table entry into a local SoundData, and PlaySound drops SoundTweaked's ``prio``). The first
pass of 0x0054FEC0 takes a slot whose stored priority is 0 at once, so every new sound
takes the next slot of the ring and stops the sound that slot still held (the priority
steal pass is unreachable). So: a sound already playing keeps playing when the same wave
starts again (each play is its own duplicate buffer) until the 16th later sound reuses its
voice. Nothing follows a moving owner after the start (position read once at play time).

Not in the decompile (DirectSound's own): how the hardware mixes, resamples and pans. We
mix by adding the samples, gain = 10 ** (dB / 20), and pan as DirectSound documents it
(the far channel attenuated by |pan| dB).
"""

from __future__ import annotations

import math

from viewer.sim.frame import heading_of
from viewer.sim.rng import CrtRand

NUM_VOICES = 16                 # SoundManager::playing_sounds_[16]
VOL_MIN = -50                   # SoundManager::VOL_MIN (whole dB)
VOL_MIN_DIST_SQ = 25.0          # attenuation starts at 5 m
RAND_SCALE = 0.000030518509     # PlayProbability: rand() * (1 / 32767)


def get_attenuation(distance: float, volume: float, effect_volume: float = 1.0
                    ) -> tuple[bool, int]:
    """SoundManager::GetAttenuation 0x00550020 (not ambient): inverse square beyond 5 m,
    clamped to 1, times the effects slider, to whole dB rounded up; (False, VOL_MIN) when
    the gain is not positive or the dB fall below VOL_MIN."""
    g = VOL_MIN_DIST_SQ * volume / (distance * distance) if distance >= 5.0 else volume
    g = min(g, 1.0) * effect_volume
    if not g > 0.0:
        return False, VOL_MIN
    att = int(math.ceil(math.log2(g) * 6.0206))
    if att < VOL_MIN:
        return False, VOL_MIN
    return True, att


def audible_distance(volume: float, effect_volume: float = 1.0) -> float:
    """The distance at which GetAttenuation 0x00550020 turns a sound of ``volume`` from
    played to not played (its gain falls to 2 ** (-51 / 6.0206): whole dB below VOL_MIN);
    0 for a sound never played, inf for one played at any distance."""
    g = min(volume, 1.0) * effect_volume
    floor = 2.0 ** ((VOL_MIN - 1) / 6.0206)
    if not g > floor:
        return 0.0
    if not math.isfinite(volume):
        return math.inf
    return max(5.0, 5.0 * math.sqrt(volume * effect_volume / floor))


def heading_deg(src, dst) -> float:
    """Position::heading 0x005A9520: compass heading (0 = +Y, 90 = +X) of the horizontal
    offset from ``src`` to ``dst`` (Position::get_offset 0x00509F60 is ``dst - src``); 0
    for a (near) zero offset. The same formula as Frame::get_heading, so the two compare
    (viewer.sim.frame.heading_of: the decompile prints atan2's operands in x87 order)."""
    dx, dy = float(dst[0]) - float(src[0]), float(dst[1]) - float(src[1])
    if math.hypot(dx, dy) < 1e-4:   # normalize_check_small
        return 0.0
    return heading_of((dx, dy, 0.0))


def frame_heading(forward) -> float:
    """Frame::get_heading 0x00535760 of a frame whose +Y axis points along ``forward``:
    the compass heading of its horizontal part (0 looking along +Y, 90 along +X)."""
    return heading_of((float(forward[0]), float(forward[1]), 0.0))


def pan_of(source, listener, listener_heading: float, distance: float) -> int:
    """The pan of PlaySoundInternal(ref, pos, volume) 0x00550170 (Stereo): the angle from
    the listener's heading to the heading from the source to the listener,
    ``trunc(sin(angle) * -15)``, 0 closer than 5 m (the distance truncated to whole
    metres). A source on the listener's right (+X when it looks along +Y) has the heading
    to the listener 270 against 0: angle -90, pan +15 (DirectSound: the left channel
    attenuated, heard on the right); ahead or behind, 0."""
    a = math.fmod(heading_deg(source, listener) - listener_heading, 360.0)
    if a > 180.0:
        a -= 360.0
    if abs(int(distance)) < 5:
        return 0
    return int(math.sin(a * 0.017453292) * -15.0)


def gain_of(attenuation_db: int) -> float:
    """Linear amplitude of a DirectSound volume in dB (SoundBuf::Play sets 100 * dB)."""
    return 10.0 ** (attenuation_db / 20.0)


class SoundManager:
    """The per-run state: the voice ring and the CRT generator (deepcopy-safe)."""

    def __init__(self, seed: int = 1, *, effect_volume: float = 1.0) -> None:
        self.crt = CrtRand(seed)
        self.effect_volume = float(effect_volume)   # SoundManager::effect_sound_volume
        self.curr_playing_buffer = 0                 # SoundManager::curr_playing_buffer_
        self.listener_heading = 0.0                  # the viewer's compass heading (deg)
        self.margin = math.inf   # least |distance - audible_distance| of a sound so far

    def play_probability(self, probability: float) -> bool:
        """SoundManager::PlayProbability 0x005500E0: one CRT rand() draw."""
        return self.crt.rand() * RAND_SCALE < probability

    @staticmethod
    def get_sound(rng, node) -> tuple[int, object] | None:
        """SoundManager::GetSound 0x00550680: (index, entry) of the node's entries, one
        Random::RollDice(0, 1) draw when the node has entries; None for no node, no
        entries or a zero wave."""
        if node is None or not node.entries:
            return None
        n = len(node.entries)
        i = int((n - 1) * rng.roll_dice(0.0, 1.0))
        if i >= n:
            return None
        e = node.entries[i]
        return (i, e) if e.wave_id else None

    def play_internal(self, source, listener, volume: float) -> dict:
        """PlaySoundInternal(ref, pos, volume, 0) 0x00550170 then (ref, pan, att) 0x0054FEC0:
        the fields of the ``sound`` event (played, distance, pan, dB, gain, voice)."""
        distance = math.dist(tuple(map(float, source)), tuple(map(float, listener)))
        pan = pan_of(source, listener, self.listener_heading, distance)
        ok, att = get_attenuation(distance, volume, self.effect_volume)
        self.margin = min(self.margin, abs(distance - audible_distance(volume,
                                                                       self.effect_volume)))
        out = {"distance": distance, "pan": pan, "attenuation_db": att}
        if not ok:
            return {**out, "played": False, "gain": 0.0, "voice": None}
        voice = self.curr_playing_buffer
        self.curr_playing_buffer = (voice + 1) % NUM_VOICES
        return {**out, "played": True, "gain": gain_of(att), "voice": voice}
