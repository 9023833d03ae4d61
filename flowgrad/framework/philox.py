"""TensorFlow's Philox4x32-10 counter-based generator, vectorized in NumPy.

The same algorithm, constants, key/counter layout and skip-ahead as TensorFlow's
``tensorflow/core/lib/random/philox_random.h``: a generator is a 64-bit key and a 128-bit
counter; each call returns four uint32 words and adds one to the counter. Because a block is
a pure function of (key, counter), ``philox_blocks(key, counter, n)`` computes the ``n``
blocks a C++ loop (or TensorFlow's sharded threads, which skip ahead per group) would draw,
in one NumPy pass.

``PhiloxStream`` is TensorFlow's ``GuardedPhiloxRandom``: the per-kernel state of a stateful
random op, keyed by the op's ``seed`` and ``seed2`` attrs (both 0: random seeds), that
reserves a range of counters for each call so that the next call continues the stream."""
from __future__ import annotations

import secrets
import sys
import threading

import numpy as np

_M4x32A, _M4x32B = np.array(0xD2511F53, np.uint64), np.array(0xCD9E8D57, np.uint64)
_CHUNK = 16384      # blocks per pass: about 1 MiB of temporaries
# Where a uint64's low and high 32-bit words sit in its uint32 view.
_LO, _HI = (0, 1) if sys.byteorder == "little" else (1, 0)
_MASK64 = (1 << 64) - 1
_MASK128 = (1 << 128) - 1

# The fixed key TensorFlow's stateless ops scramble their seed with (GenerateKey).
STATELESS_KEY = 0x02461E29 << 32 | 0x3EC8F720


def philox_blocks(key: int, counter: int, n: int, offsets: np.ndarray | None = None
                  ) -> np.ndarray:
    """The Philox4x32-10 blocks at counters ``counter + i`` for ``i`` in ``range(n)``.

    Args:
        key: The 64-bit key (``key[0]`` in the low word).
        counter: The 128-bit counter of the first block (``counter[0]`` in the low word).
        n: How many blocks.
        offsets: Instead of ``range(n)``, these (uint64) offsets from ``counter``.

    Returns:
        A uint32 array of shape ``[n, 4]``: block ``i`` is what TensorFlow's
        ``PhiloxRandom`` returns on its ``i``-th call.
    """
    idx = np.arange(int(n), dtype=np.uint64) if offsets is None else offsets.astype(np.uint64)
    out = np.empty((idx.size, 4), np.uint32)
    for start in range(0, idx.size, _CHUNK):    # chunks that stay in the CPU's cache
        stop = min(start + _CHUNK, idx.size)
        out[start:stop] = _rounds(key, counter, idx[start:stop])
    return out


def _rounds(key: int, counter: int, idx: np.ndarray) -> np.ndarray:
    """The ten Philox rounds for the blocks at ``counter + idx``: four uint32 columns."""
    lo64 = np.array(counter & _MASK64, np.uint64)
    hi64 = np.array((counter >> 64) & _MASK64, np.uint64)
    with np.errstate(over="ignore"):
        lo = idx + lo64                     # wraps modulo 2**64
        hi = (lo < lo64).astype(np.uint64) + hi64
    # 32-bit halves as views: NumPy's uint64 shifts are many times slower.
    c0, c1 = lo.view(np.uint32)[_LO::2], lo.view(np.uint32)[_HI::2]
    c2, c3 = hi.view(np.uint32)[_LO::2], hi.view(np.uint32)[_HI::2]
    k0, k1 = key & 0xFFFFFFFF, (key >> 32) & 0xFFFFFFFF
    for r in range(10):
        p0 = (c0.astype(np.uint64) * _M4x32A).view(np.uint32)
        p1 = (c2.astype(np.uint64) * _M4x32B).view(np.uint32)
        c0 = p1[_HI::2] ^ c1
        c0 ^= np.array(k0, np.uint32)
        c1 = p1[_LO::2]
        c2 = p0[_HI::2] ^ c3
        c2 ^= np.array(k1, np.uint32)
        c3 = p0[_LO::2]
        if r < 9:
            k0 = (k0 + 0x9E3779B9) & 0xFFFFFFFF
            k1 = (k1 + 0xBB67AE85) & 0xFFFFFFFF
    return np.stack([c0, c1, c2, c3], axis=1)


def philox_words(key: int, counter: int, n: int) -> np.ndarray:
    """The first ``n`` uint32 words of the stream at (key, counter), block after block."""
    return philox_blocks(key, counter, (n + 3) // 4).reshape(-1)[:n]


def seeded_key_counter(seed: int, seed2: int) -> tuple[int, int]:
    """``PhiloxRandom(seed, seed2)``: the key is ``seed``, the counter's high half ``seed2``.

    Args:
        seed: The op's ``seed`` attr.
        seed2: The op's ``seed2`` attr.
    """
    return seed & _MASK64, (seed2 & _MASK64) << 64


def stateless_key_counter(seed0: int, seed1: int) -> tuple[int, int]:
    """TensorFlow's ``GenerateKey``: the (key, counter) of a stateless op's shape-[2] seed.

    The seed words (sign-extended to 64 bits) are the counter of one Philox block under the
    fixed key 0x3ec8f720, 0x02461e29; the block's first two words become the key, its last
    two the counter's high half.

    Args:
        seed0: The seed's first element.
        seed1: Its second element.
    """
    b = philox_blocks(STATELESS_KEY, (seed0 & _MASK64) | (seed1 & _MASK64) << 64, 1)[0]
    return int(b[0]) | int(b[1]) << 32, (int(b[2]) | int(b[3]) << 32) << 64


class PhiloxStream:
    """A stateful random op's generator (TensorFlow's ``GuardedPhiloxRandom``).

    Each call reserves a range of 128-bit samples and returns where it starts; the next call
    starts after it, so a random op's second run continues its first one's stream.

    Args:
        seed: The op's ``seed`` attr.
        seed2: The op's ``seed2`` attr; both 0 pick random seeds, as in TensorFlow.
    """

    def __init__(self, seed: int = 0, seed2: int = 0) -> None:
        if not seed and not seed2:
            seed, seed2 = secrets.randbits(64), secrets.randbits(64)
        self.key, self.counter = seeded_key_counter(seed, seed2)
        self._numpy: np.random.Generator | None = None
        self._lock = threading.Lock()       # concurrent runs of one op reserve apart

    def reserve128(self, samples: int) -> tuple[int, int]:
        """(key, counter) of ``samples`` 128-bit samples, then skips past them."""
        with self._lock:
            counter = self.counter
            self.counter = (counter + int(samples)) & _MASK128
        return self.key, counter

    def reserve32(self, samples: int) -> tuple[int, int]:
        """(key, counter) of ``samples`` 32-bit samples (``ReserveSamples32``)."""
        return self.reserve128((int(samples) + 3) // 4)

    def reserve_outputs(self, output_count: int, multiplier: int = 256) -> tuple[int, int]:
        """(key, counter) for ``output_count`` outputs (``ReserveRandomOutputs``)."""
        return self.reserve128(int(output_count) * multiplier)

    def numpy_generator(self) -> np.random.Generator:
        """A NumPy generator keyed by this stream, for kernels not yet on TensorFlow's
        sampling (it keeps its own state from call to call)."""
        if self._numpy is None:
            self._numpy = np.random.Generator(np.random.Philox(
                key=[self.key, self.counter >> 64]))
        return self._numpy


class PhiloxWords:
    """uint32 words one at a time from (key, counter), block after block (TensorFlow's
    ``SingleSampleAdapter<PhiloxRandom>``), computing blocks in batches.

    Args:
        key: The Philox key.
        counter: The counter of the first block.
    """

    _BATCH = 64     # blocks computed at a time

    def __init__(self, key: int, counter: int) -> None:
        self.key, self.counter = key, counter
        self._words: list = []
        self._at = 0

    def next(self) -> int:
        """The next word."""
        if self._at == len(self._words):
            self._words = philox_blocks(self.key, self.counter, self._BATCH).reshape(-1).tolist()
            self.counter = (self.counter + self._BATCH) & _MASK128
            self._at = 0
        self._at += 1
        return self._words[self._at - 1]
