"""The retail random source: Numerical Recipes ``ran2`` as in Random.c (Random::rand 0x0042C4C0).

Retail seeds it from ``time(0)``; we seed it from the scenario so runs are reproducible.
Every random draw of the runtime goes through one ``RetailRandom`` in retail's draw order,
so the same seed gives the same run.
"""

from __future__ import annotations

import numpy as np

_IM1 = 2147483563
_IM2 = 2147483399
_IA1 = 40014
_IA2 = 40692
_IQ1 = 53668
_IQ2 = 52774
_NTAB = 32
_NDIV = 1 + (_IM1 - 1) // _NTAB  # 67108862
# rand() spells these constants as literals; a test holds them equal
_AM = 4.656613057391769e-10
RNMX = 0.99999988


def _step1(s: int) -> int:
    v = _IA1 * s - _IM1 * int(s / _IQ1)  # Schrage's method, written as the client does
    return v + _IM1 if v < 0 else v


class RetailRandom:
    """``Random::Seed`` 0x0042C450 / ``Random::rand`` 0x0042C4C0 / ``RollDice`` 0x0042C600."""

    def __init__(self, seed: int = 0) -> None:
        self.seed(seed)

    # The compiled particle update (viewer.sim.particle_kernel) draws from the same stream
    # through an int64 array [seed, idum2, iy, draws, iv[32]]: ``kernel_state()`` moves the
    # state into it (and keeps it there across kernel calls); the next Python draw moves it
    # back. Either way there is one state and one draw order.
    _karr = None
    # A compiled update queued but not run yet (``ParticlePool.flush``) draws before
    # anything after it: ``set_barrier`` makes the next draw, state read or kernel call run
    # it first (it moves the state into the array, so a Python draw passes through _sync).
    _barrier = None

    def set_barrier(self, fn) -> None:
        self.kernel_state()
        self._barrier = fn

    def _run_barrier(self) -> None:
        fn, self._barrier = self._barrier, None
        fn()

    def kernel_state(self) -> np.ndarray:
        if self._barrier is not None:
            self._run_barrier()
        if self._karr is None:
            self._karr = np.array([self._seed, self._idum2, self._iy,
                                   self.__dict__["_draws"], *self._iv], dtype=np.int64)
        return self._karr

    def _sync(self) -> None:
        if self._barrier is not None:
            self._run_barrier()
        a = self._karr
        if a is not None:
            self._karr = None
            v = a.tolist()
            self._seed, self._idum2, self._iy, self.__dict__["_draws"] = v[:4]
            self._iv = v[4:]

    @property
    def draws(self) -> int:
        self._sync()
        return self.__dict__["_draws"]

    @draws.setter
    def draws(self, value: int) -> None:
        self._sync()
        self.__dict__["_draws"] = value

    def seed(self, seed: int) -> None:
        if self._barrier is not None:
            self._run_barrier()
        self._karr = None
        # Random::Seed 0x0042C450: 0 -> 1; 8 warm-up steps, then fill the 32-entry table
        s = int(seed) % _IM1
        if s == 0:
            s = 1
        self._idum2 = s
        self._iv = [0] * _NTAB
        for j in range(_NTAB + 7, -1, -1):
            s = _step1(s)
            if j < _NTAB:
                self._iv[j] = s
        self._iy = self._iv[0]
        self._seed = s
        self.draws = 0

    def rand(self) -> float:
        """Random::rand 0x0042C4C0: a double in [0, 0.99999988]."""
        # Schrage steps written as the client does (no 32-bit overflow); the state is never
        # negative here, so s // IQ equals the client's int(s / IQ). Literals, not module
        # constants: this is the hottest function of a busy tick.
        if self._karr is not None:
            self._sync()
        s = self._seed
        s = 40014 * s - 2147483563 * (s // 53668)          # _IA1, _IM1, _IQ1
        if s < 0:
            s += 2147483563
        v = self._idum2
        v = 40692 * v - 2147483399 * (v // 52774)          # _IA2, _IM2, _IQ2
        if v < 0:
            v += 2147483399
        self._seed = s
        self._idum2 = v
        iv = self._iv
        j = self._iy // 67108862                           # _NDIV
        iy = iv[j] - v
        iv[j] = s
        if iy < 1:
            iy += 2147483562                               # _IM1 - 1
        self._iy = iy
        self.__dict__["_draws"] += 1
        r = iy * 4.656613057391769e-10                     # _AM
        return r if r < 0.99999988 else 0.99999988         # RNMX

    def roll_dice(self, lower: float, upper: float) -> float:
        """Random::RollDice(float, float) 0x0042C600: no draw when the bounds are equal."""
        if lower == upper:
            return float(lower)
        if upper < lower:
            lower, upper = upper, lower
        return self.rand() * (upper - lower) + lower

    def state(self) -> tuple:
        self._sync()
        return (self._seed, self._idum2, self._iy, tuple(self._iv), self.draws)


class CrtRand:
    """The C runtime's ``rand()`` (MSVC: ``holdrand = holdrand * 214013 + 2531011``, the
    result is bits 16..30). The sound manager rolls its play probabilities with it
    (SoundManager::PlayProbability 0x005500E0), a generator separate from ``Random``.
    Retail seeds it with ``srand(time(0))`` in SoundManager::Init 0x00550640; we seed it
    from the scenario so runs are reproducible."""

    RAND_MAX = 0x7FFF

    def __init__(self, seed: int = 1) -> None:
        self.srand(seed)

    def srand(self, seed: int) -> None:
        self._holdrand = int(seed) & 0xFFFFFFFF
        self.draws = 0

    def rand(self) -> int:
        self._holdrand = (self._holdrand * 214013 + 2531011) & 0xFFFFFFFF
        self.draws += 1
        return (self._holdrand >> 16) & 0x7FFF
