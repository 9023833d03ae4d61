"""TensorFlow's rejection samplers (gamma, Poisson, binomial), vectorized in NumPy.

TensorFlow's CPU kernels (``RandomGamma``, ``StatelessRandomGammaV2/V3``,
``RandomPoissonV2``, ``StatelessRandomPoisson``, ``StatelessRandomBinomial``) draw each
output from its own stretch of the Philox stream: output ``i`` skips ``256 * i`` blocks
(binomial inversion: ``42 * i``) and then takes blocks one by one, as many as its rejection
loop needs, serving single values from the end of each block ("UNIFORM" macro and
``SampleBuffer``). Here every output's loop runs in lock step over NumPy arrays: a round
takes one step of every output still looping, so the draws, the arithmetic and the accepted
values are the kernels' own. The binomial and Poisson loops draw the same number of uniforms
a round for every output, so they keep compacted arrays of the outputs still looping and
compute each round's blocks from the round number (about twice as fast as buffered draws
into full-size arrays, bit for bit the same); the gamma loop's outputs draw unevenly and keep
per-output buffers.

All three compute in float64, as TensorFlow 2.21's kernels do for every sample dtype (its
normal and uniform draws are its double-precision ones); the samples are then cast. The
float64 ``log``, ``log1p``, ``pow`` and ``lgamma`` are the C library's, as TensorFlow's."""
from __future__ import annotations

import math

import numpy as np

from flowgrad.framework.philox import philox_blocks
from flowgrad.ops.random_distributions import _pairs, _uint64_to_double
from flowgrad.framework import dtypes

RESERVED_PER_OUTPUT = 256       # blocks each output may use (kReservedSamplesPerOutput)
_INVERSION_RESERVED = 42        # binomial inversion's reservation per output


class _Streams:
    """One Philox stream per output, with TensorFlow's buffered single-value draws of
    double-precision normal and uniform values.

    Args:
        key: The Philox key.
        counter: The counter of output 0's first block.
        n: How many outputs.
        skip: Blocks between the starts of consecutive outputs' streams.
    """

    def __init__(self, key: int, counter: int, n: int, skip: int):
        self.key, self.counter = key, counter
        self.start = np.arange(n, dtype=np.uint64) * np.uint64(skip)
        self.used = np.zeros(n, np.uint64)
        self.buffers = {kind: (np.zeros((n, 2)), np.zeros(n, np.int64))
                        for kind in ("normal", "uniform")}

    def _blocks(self, idx: np.ndarray) -> np.ndarray:
        blocks = philox_blocks(self.key, self.counter, 0, self.start[idx] + self.used[idx])
        self.used[idx] += np.uint64(1)
        return blocks

    def _fill(self, kind: str, blocks: np.ndarray) -> np.ndarray:
        if kind == "normal":
            return _pairs(blocks, dtypes.float64)
        return np.stack([_uint64_to_double(blocks[:, 0], blocks[:, 1]),
                         _uint64_to_double(blocks[:, 2], blocks[:, 3])], axis=1)

    def draw(self, kind: str, idx: np.ndarray) -> np.ndarray:
        """The next ``kind`` value ("normal" or "uniform") of each output in ``idx``."""
        values, left = self.buffers[kind]
        empty = idx[left[idx] == 0]
        if empty.size:
            values[empty] = self._fill(kind, self._blocks(empty))
            left[empty] = 2
        left[idx] -= 1
        return values[idx, left[idx]]

    def whole_block(self, idx: np.ndarray) -> np.ndarray:
        """A fresh block of uniform values for each output in ``idx`` (unbuffered)."""
        return self._fill("uniform", self._blocks(idx))


def _uniform_pairs(key: int, counter: int, offsets: np.ndarray) -> tuple:
    """(first, second) uniform double of the block at each offset, in the order a fresh
    ``_Streams`` buffer serves them (the block's last two words first).

    The lock-step loops below use it where every output still looping draws the same number
    of uniform values a round (binomial inversion and BTRS, Poisson's two regimes): output
    i's j-th draw is then a fixed value of block ``start_i + j // 2``, so no per-output
    buffer is needed and the loops keep compacted arrays of the outputs still looping."""
    b = philox_blocks(key, counter, 0, offsets)
    return _uint64_to_double(b[:, 2], b[:, 3]), _uint64_to_double(b[:, 0], b[:, 1])


class _OneUniformARound:
    """The uniform draws of outputs that each draw one a round: round j serves block
    ``start + j // 2``'s first value, round j + 1 its second; ``keep`` compacts the pending
    second values with the outputs."""

    def __init__(self, key: int, counter: int, start: np.ndarray):
        self.key, self.counter, self.start = key, counter, start
        self.round = 0
        self.second = None

    def draw(self) -> np.ndarray:
        j = self.round
        self.round += 1
        if j % 2:
            return self.second
        first, self.second = _uniform_pairs(self.key, self.counter,
                                            self.start + np.uint64(j // 2))
        return first

    def keep(self, mask: np.ndarray) -> None:
        self.start = self.start[mask]
        if self.round % 2:
            self.second = self.second[mask]


def _lgamma(x: np.ndarray) -> np.ndarray:
    return np.array([math.lgamma(v) for v in x.astype(np.float64)]).astype(x.dtype)


def _layout(flat: np.ndarray, per_param: int, n_params: int) -> np.ndarray:
    """Output ``i = param * per_param + sample`` sits at ``sample * n_params + param``."""
    return flat.reshape(n_params, per_param).T.reshape(-1)


def gamma(key: int, counter: int, alpha: np.ndarray, samples_per_alpha: int) -> np.ndarray:
    """Gamma(alpha, 1) samples, Marsaglia and Tsang's method as TensorFlow's kernels run it.

    Args:
        key: The Philox key.
        counter: The op's first counter.
        alpha: The concentrations, flat; their dtype is the samples'.
        samples_per_alpha: Samples of each concentration (``alpha == 1``: exponential
            samples, from the last value of one uniform block; 0: zeros; negative or NaN:
            NaN).

    Returns:
        A flat array in the output's layout (``[samples_per_alpha, alpha.size]``).
    """
    a = np.repeat(alpha.astype(np.float64).reshape(-1), samples_per_alpha)
    n = a.size
    out = np.zeros(n)
    streams = _Streams(key, counter, n, RESERVED_PER_OUTPUT)
    todo = np.arange(n)
    one = todo[a == 1]
    if one.size:
        out[one] = -np.log1p(-streams.whole_block(one)[:, -1])
    out[~(a >= 0)] = np.nan        # TensorFlow's stateful kernel; its stateless one never ends
    todo = todo[(a > 0) & (a != 1)]
    small = a < 1
    with np.errstate(divide="ignore", invalid="ignore"):
        d = a + np.where(small, 2.0 / 3, -1.0 / 3)
        c = 1.0 / 3 / np.sqrt(d)
    while todo.size:
        x = streams.draw("normal", todo)
        v = 1 + c[todo] * x
        ok = v > 0
        todo_v, x, v = todo[ok], x[ok], v[ok]
        v = v * v * v
        u = streams.draw("uniform", todo_v)
        with np.errstate(divide="ignore", invalid="ignore"):
            accept = u < 1 - 0.0331 * (x * x) * (x * x)
            rest = ~accept
            if rest.any():
                dv = d[todo_v[rest]]
                accept[rest] = np.log(u[rest]) < 0.5 * x[rest] * x[rest] + dv * (
                    1 - v[rest] + np.log(v[rest]))
        done = todo_v[accept]
        res = d[done] * v[accept]
        low = small[done]
        if low.any():
            b = streams.draw("uniform", done[low])
            with np.errstate(divide="ignore"):
                res[low] = res[low] * np.power(b, 1.0 / a[done[low]])
        out[done] = res
        finished = np.zeros(n, bool)
        finished[done] = True
        todo = todo[~finished[todo]]
    return _layout(out, samples_per_alpha, alpha.size).astype(alpha.dtype)


def poisson(key: int, counter: int, rate: np.ndarray, samples_per_rate: int) -> np.ndarray:
    """Poisson samples as TensorFlow's ``PoissonFunctor``: Knuth's product of uniforms for
    rates below 10, Hormann's transformed rejection above.

    Args:
        key: The Philox key.
        counter: The op's first counter.
        rate: The rates, flat (a NaN or infinite rate gives NaN or inf samples; a rate
            at or below 0 gives zeros).
        samples_per_rate: Samples of each rate.

    Returns:
        A flat float array in the output's layout (``[samples_per_rate, rate.size]``).
    """
    lam = np.repeat(rate.astype(np.float64).reshape(-1), samples_per_rate)
    n = lam.size
    out = np.zeros(n)
    if n == 0:
        return out
    todo = np.arange(n)
    start = todo.astype(np.uint64) * np.uint64(RESERVED_PER_OUTPUT)
    # Knuth: the number of uniforms whose running product stays above exp(-rate)
    knuth = todo[lam < 10]
    exp_neg = np.exp(-lam[knuth])
    prod = np.ones(knuth.size)
    draws = _OneUniformARound(key, counter, start[knuth])
    rounds = 0
    while knuth.size:
        prod = prod * draws.draw()
        going = ~(prod <= exp_neg)
        out[knuth[~going]] = rounds
        knuth, prod, exp_neg = knuth[going], prod[going], exp_neg[going]
        draws.keep(going)
        rounds += 1
    out[np.isnan(lam) | (lam == np.inf)] = lam[np.isnan(lam) | (lam == np.inf)]
    todo = todo[(lam >= 10) & (lam < np.inf)]     # NaN and inf: TensorFlow's loop never ends
    lam = lam[todo]
    with np.errstate(divide="ignore", invalid="ignore"):
        log_rate = np.log(lam)
        b = 0.931 + 2.53 * np.sqrt(lam)
        a = -0.059 + 0.02483 * b
        inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
        v_r = 0.9277 - 3.6224 / (b - 2)
    offsets = start[todo]
    while todo.size:        # two uniforms a round: one block each
        u, v = _uniform_pairs(key, counter, offsets)
        u = u - 0.5
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            us = 0.5 - np.abs(u)
            k = np.floor((2 * a / us + b) * u + lam + 0.43)
            accept = (us >= 0.07) & (v <= v_r)
            rest = ~accept & ~((k < 0) | ((us < 0.013) & (v > us)))
            if rest.any():
                r = np.flatnonzero(rest)
                s = np.log(v[r] * inv_alpha[r] / (a[r] / (us[r] * us[r]) + b[r]))
                t = -lam[r] + k[r] * log_rate[r] - _lgamma(k[r] + 1)
                accept[r] = s <= t
        out[todo[accept]] = k[accept]
        going = ~accept
        todo, lam, log_rate, b, a, inv_alpha, v_r = (
            x[going] for x in (todo, lam, log_rate, b, a, inv_alpha, v_r))
        offsets = offsets[going] + np.uint64(1)
    return _layout(out, samples_per_rate, rate.size)


def _stirling_tail(k: np.ndarray) -> np.ndarray:
    table = np.array([0.0810614667953272, 0.0413406959554092, 0.0276779256849983,
                      0.02079067210376509, 0.0166446911898211, 0.0138761288230707,
                      0.0118967099458917, 0.0104112652619720, 0.00925546218271273,
                      0.00833056343336287])
    kp1sq = (k + 1) * (k + 1)
    tail = (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)
    small = k <= 9
    tail[small] = table[k[small].astype(np.int64)]
    return tail


def _inversion(key: int, counter: int, start: np.ndarray, count: np.ndarray,
               prob: np.ndarray) -> np.ndarray:
    """Binomial inversion: the number of geometric jumps whose sum stays within ``count``."""
    num = np.zeros(count.size)
    act = np.arange(count.size)
    with np.errstate(divide="ignore"):
        log_q = np.log1p(-prob)
    geom_sum = np.zeros(count.size)
    draws = _OneUniformARound(key, counter, start)
    rounds = 0
    while act.size:
        u = draws.draw()
        with np.errstate(divide="ignore", invalid="ignore"):
            geom_sum = geom_sum + np.ceil(np.log(u) / log_q)
        going = ~(geom_sum > count)
        num[act[~going]] = rounds
        act, geom_sum, count, log_q = act[going], geom_sum[going], count[going], log_q[going]
        draws.keep(going)
        rounds += 1
    return num


def _btrs(key: int, counter: int, start: np.ndarray, count: np.ndarray,
          prob: np.ndarray) -> np.ndarray:
    """Hormann's BTRS: two uniforms (one block) a round."""
    stddev = np.sqrt(count * prob * (1 - prob))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = count * prob + 0.5
    v_r = 0.92 - 4.2 / b
    r = prob / (1 - prob)
    alpha = (2.83 + 5.1 / b) * stddev
    m = np.floor((count + 1) * prob)
    out = np.zeros(count.size)
    act = np.arange(count.size)
    offsets = start
    while act.size:
        u, v = _uniform_pairs(key, counter, offsets)
        u = u - 0.5
        us = 0.5 - np.abs(u)
        with np.errstate(divide="ignore", invalid="ignore"):
            k = np.floor((2 * a / us + b) * u + c)
        accept = (us >= 0.07) & (v <= v_r)
        rest = ~accept & ~((k < 0) | (k > count))
        if rest.any():
            i = np.flatnonzero(rest)
            kk, nn, mm, rr = k[i], count[i], m[i], r[i]
            with np.errstate(divide="ignore", invalid="ignore"):
                lv = np.log(v[i] * alpha[i] / (a[i] / (us[i] * us[i]) + b[i]))
                bound = ((mm + 0.5) * np.log((mm + 1) / (rr * (nn - mm + 1)))
                         + (nn + 1) * np.log((nn - mm + 1) / (nn - kk + 1))
                         + (kk + 0.5) * np.log(rr * (nn - kk + 1) / (kk + 1))
                         + _stirling_tail(mm) + _stirling_tail(nn - mm)
                         - _stirling_tail(kk) - _stirling_tail(nn - kk))
            accept[i] = lv <= bound
        out[act[accept]] = k[accept]
        going = ~accept
        act, count, b, a, c, v_r, r, alpha, m = (
            x[going] for x in (act, count, b, a, c, v_r, r, alpha, m))
        offsets = offsets[going] + np.uint64(1)
    return out


def binomial(key: int, counter: int, counts: np.ndarray, probs: np.ndarray,
             samples_per_batch: int) -> np.ndarray:
    """Binomial samples as TensorFlow's ``RandomBinomialFunctor``: inversion when the mean
    (of successes or failures, whichever side of 1/2 ``probs`` is) is below 10, Hormann's
    BTRS above; always in float64.

    Args:
        key: The Philox key.
        counter: The op's first counter.
        counts: The trial counts, flat (already broadcast against ``probs``).
        probs: The success probabilities, flat.
        samples_per_batch: Samples of each (count, prob) pair.

    Returns:
        A flat float64 array in the output's layout (``[samples_per_batch, counts.size]``).
    """
    n_batch = counts.size
    count_t = np.repeat(counts.reshape(-1), samples_per_batch)
    prob_t = np.repeat(probs.reshape(-1), samples_per_batch)
    count = count_t.astype(np.float64)
    prob = prob_t.astype(np.float64)
    out = np.full(count.size, np.nan)
    out[(count <= 0) | (prob_t <= 0)] = 0.0
    ones = (out != 0) & (prob_t >= 1)
    out[ones] = count[ones]
    q_t = (prob_t.dtype.type(1) - prob_t) if prob_t.dtype.kind == "f" else 1 - prob_t
    flip = (count > 0) & (prob_t > 0.5) & (prob_t < 1)
    keep = (count > 0) & (prob_t > 0) & (prob_t <= 0.5)
    p_side = np.where(flip, q_t.astype(np.float64), prob)
    mean = np.where(flip, (count_t * q_t), (count_t * prob_t))
    idx_all = np.arange(count.size)
    for use_btrs in (True, False):
        sel = (keep | flip) & ((mean >= 10) == use_btrs)
        idx = idx_all[sel]
        if not idx.size:
            continue
        skip = RESERVED_PER_OUTPUT if use_btrs else _INVERSION_RESERVED
        start = idx.astype(np.uint64) * np.uint64(skip)
        draw = _btrs if use_btrs else _inversion
        vals = draw(key, counter, start, count[idx], p_side[idx])
        out[idx] = np.where(flip[idx], count[idx] - vals, vals)
    return _layout(out, samples_per_batch, n_batch)
