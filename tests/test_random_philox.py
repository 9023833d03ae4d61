"""flowgrad's Philox4x32-10 (flowgrad/framework/philox.py) and float math
(flowgrad/ops/libm_float.py): the Random123 known answers, the skip-ahead TensorFlow's
sharded kernels rely on, the 128-bit counter's carries, and the C library's logf/sincosf."""
import ctypes
import ctypes.util
import platform

import numpy as np
import pytest

from flowgrad.framework import philox
from flowgrad.ops import libm_float


def _counter(words):
    return words[0] | words[1] << 32 | words[2] << 64 | words[3] << 96


@pytest.mark.parametrize("key,counter,expected", [
    (0, 0, [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]),
    (2**64 - 1, 2**128 - 1, [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]),
    (0xA4093822 | 0x299F31D0 << 32, _counter([0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344]),
     [0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1]),
])
def test_random123_known_answers(key, counter, expected):
    assert philox.philox_blocks(key, counter, 1)[0].tolist() == expected


def test_skip_ahead_equals_the_sequential_stream():
    seq = philox.philox_blocks(123, 5 << 64, 40000)       # more than one cache-sized chunk
    offsets = np.array([0, 7, 16384, 39999], np.uint64)
    np.testing.assert_array_equal(philox.philox_blocks(123, 5 << 64, 0, offsets),
                                  seq[offsets.astype(np.int64)])
    np.testing.assert_array_equal(philox.philox_words(123, 5 << 64, 10), seq.reshape(-1)[:10])


def test_counter_carries_into_the_high_words():
    low = 2**64 - 2
    blocks = philox.philox_blocks(9, low, 4)
    for i in range(4):      # each block is the one at the exact 128-bit counter
        np.testing.assert_array_equal(blocks[i], philox.philox_blocks(9, low + i, 1)[0])
    wrap = philox.philox_blocks(9, 2**128 - 1, 2)
    np.testing.assert_array_equal(wrap[1], philox.philox_blocks(9, 0, 1)[0])


def test_stream_reserves_and_continues():
    s = philox.PhiloxStream(1, 2)
    assert (s.key, s.counter) == (1, 2 << 64)
    assert s.reserve_outputs(3) == (1, 2 << 64)     # 256 samples per output, as TensorFlow
    assert s.reserve32(5) == (1, (2 << 64) + 768)
    assert s.counter == (2 << 64) + 770
    fresh = philox.PhiloxStream(0, 0)               # both seeds 0: random seeds
    assert (fresh.key, fresh.counter) != (0, 0)
    words = philox.PhiloxWords(7, 3)
    np.testing.assert_array_equal([words.next() for _ in range(300)],
                                  philox.philox_words(7, 3, 300))


def test_stateless_key_is_tensorflows_scramble():
    # GenerateKey: the seed as the counter of one block under key 0x02461e29_3ec8f720.
    b = philox.philox_blocks(philox.STATELESS_KEY, 1 | 2 << 64, 1)[0].tolist()
    key, counter = philox.stateless_key_counter(1, 2)
    assert key == b[0] | b[1] << 32 and counter == (b[2] | b[3] << 32) << 64
    assert philox.stateless_key_counter(-1, 0)[0] == philox.stateless_key_counter(
        2**64 - 1, 0)[0]     # int32/int64 seeds are sign-extended


_LIBM = ctypes.util.find_library("m") if platform.system() == "Linux" else None


@pytest.mark.skipif(not _LIBM or platform.libc_ver()[0] != "glibc",
                    reason="compares with glibc's libm")
def test_logf_and_sincosf_are_the_c_librarys():
    libm = ctypes.CDLL(_LIBM)
    libm.logf.restype, libm.logf.argtypes = ctypes.c_float, [ctypes.c_float]
    libm.sincosf.argtypes = [ctypes.c_float, ctypes.POINTER(ctypes.c_float),
                             ctypes.POINTER(ctypes.c_float)]
    rng = np.random.default_rng(0)
    u = np.maximum(rng.random(3000, dtype=np.float32), np.float32(1e-7))
    u[:4] = [1e-7, 0.5, 0.75, np.float32(1) - np.float32(2**-24)]
    want = np.array([libm.logf(float(v)) for v in u], np.float32)
    np.testing.assert_array_equal(libm_float.logf(u), want)
    v = (2 * np.pi * u.astype(np.float64)).astype(np.float32)
    v[:3] = [0.0, 2**-13, 0.7499]
    s, c = ctypes.c_float(), ctypes.c_float()
    want_s, want_c = [], []
    for x in v:
        libm.sincosf(float(x), ctypes.byref(s), ctypes.byref(c))
        want_s.append(s.value)
        want_c.append(c.value)
    got_s, got_c = libm_float.sincosf(v)
    np.testing.assert_array_equal(got_s, np.array(want_s, np.float32))
    np.testing.assert_array_equal(got_c, np.array(want_c, np.float32))
