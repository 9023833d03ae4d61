"""TensorFlow's candidate samplers (``tf.random.log_uniform_candidate_sampler``, ...) and
``tf.nn.compute_accidental_hits``, the ops behind ``nce_loss`` and ``sampled_softmax_loss``.

The samplers are TensorFlow's kernels (tensorflow/core/kernels/range_sampler.cc and
candidate_sampler_ops.cc) on TensorFlow's random stream: each run reserves
``2048 * num_sampled`` 32-bit samples of the op's Philox stream (``GuardedPhiloxRandom``,
keyed by the ``seed``/``seed2`` attrs) and draws from them one word at a time as
``SimplePhilox`` does, so with the same seeds the log-uniform, uniform, all and fixed-unigram
samplers draw TensorFlow's candidates, run after run. The learned-unigram sampler keeps
TensorFlow's distribution (every class starts at weight 1, each true class seen adds 1) but
picks from it with its own method, not TensorFlow's ``WeightedPicker``.

Expected counts are TensorFlow's float32 formulas: ``p * num_sampled`` without ``unique``,
else ``1 - (1 - p) ** num_tries`` (``-expm1(num_tries * log1p(-p))``), where ``num_tries``
is how many draws it took to find ``num_sampled`` distinct candidates. None of these ops has
a gradient, as in TensorFlow."""
from __future__ import annotations

import math
import os
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.errors import InvalidArgumentError, NotFoundError
from flowgrad.framework.op_call import apply_op, argument_error
from flowgrad.framework.philox import PhiloxStream, PhiloxWords
from flowgrad.framework.registry import _NO_GRADIENT, register_op
from flowgrad.framework.tensor import TensorBase, convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.random_ops import get_seed
from flowgrad.framework.type_hints import TensorLike

_F32 = np.float32

# --------------------------------------------------------------------------------------
# SimplePhilox: TensorFlow's imperative interface to a Philox stream


class _SimplePhilox:
    """``random::SimplePhilox`` over the words of (key, counter)."""

    def __init__(self, key: int, counter: int) -> None:
        self._words = PhiloxWords(key, counter)

    def rand32(self) -> int:
        return self._words.next()

    def rand64(self) -> int:
        lo = self._words.next()
        return lo | self._words.next() << 32

    def rand_float(self) -> np.float32:
        """``Uint32ToFloat``: 23 random mantissa bits, in [0, 1)."""
        w = self._words.next()
        return np.array((w & 0x7FFFFF) | 127 << 23, np.uint32).view(np.float32) - _F32(1)

    def rand_double(self) -> float:
        """``Uint64ToDouble`` of two words (the first gives the high mantissa bits)."""
        hi = self._words.next()
        lo = self._words.next()
        bits = (hi & 0xFFFFF) << 32 | lo | 1023 << 52
        return float(np.array(bits, np.uint64).view(np.float64)) - 1.0

    def uniform(self, n: int, bits: int = 32) -> int:
        """``ExactUniformInt``: a uniform integer in [0, n) by rejection sampling."""
        draw = self.rand32 if bits == 32 else self.rand64
        if n == 0:
            draw()
            return 0
        if n & (n - 1) == 0:
            return draw() & (n - 1)
        rem = ((1 << bits) - 1) % n + 1
        while True:
            r = draw()
            if r >= rem:
                return r % n


# --------------------------------------------------------------------------------------
# The range samplers: Sample and Probability of each


class _LogUniform:
    def __init__(self, range_max: int) -> None:
        self.range = range_max
        self._log_range = math.log1p(range_max)

    def sample(self, rnd: _SimplePhilox) -> int:
        return (int(math.exp(rnd.rand_double() * self._log_range)) - 1) % self.range

    def probability(self, values: np.ndarray) -> np.ndarray:
        v = values.astype(np.float64)
        return (np.log((v + 2.0) / (v + 1.0)) / self._log_range).astype(np.float32)


class _Uniform:
    def __init__(self, range_max: int) -> None:
        self.range = range_max
        self._p = _F32(1.0 / range_max)

    def sample(self, rnd: _SimplePhilox) -> int:
        return rnd.uniform(self.range, bits=64)

    def probability(self, values: np.ndarray) -> np.ndarray:
        return np.full(values.shape, self._p, np.float32)


class _FixedUnigram:
    """``FixedUnigramSampler``: Walker's alias method (``DistributionSampler``) over the
    distorted weights."""

    def __init__(self, range_max: int, weights: list, distortion: float,
                 num_reserved_ids: int, num_shards: int, shard: int) -> None:
        self.range = range_max
        w = [_F32(0.0) for i in range(num_reserved_ids) if i % num_shards == shard]
        for word_id, weight in enumerate(weights, start=num_reserved_ids):
            if word_id % num_shards == shard:
                w.append(np.power(_F32(weight), _F32(distortion), dtype=np.float32))
        self.weights = np.array(w, np.float32)
        if self.weights.size != range_max:
            raise InvalidArgumentError(None, None, "range is %d must be equal to weights size  "
                                       "%d" % (range_max, self.weights.size))
        self._total = np.cumsum(self.weights, dtype=np.float32)[-1]
        self._prob, self._alt = _alias_table(self.weights)

    def sample(self, rnd: _SimplePhilox) -> int:
        r = rnd.rand_float()
        idx = rnd.uniform(len(self._prob))
        return idx if r < self._prob[idx] else self._alt[idx]

    def probability(self, values: np.ndarray) -> np.ndarray:
        return (self.weights[values] / self._total).astype(np.float32)


def _alias_table(weights: np.ndarray) -> tuple:
    """``DistributionSampler``'s (prob, alt) table, with its pairing order."""
    n = weights.size
    total = 0.0
    for w in weights.tolist():
        total += w
    pr = [(w * n) / total for w in weights.tolist()]
    alt = [-1] * n
    low = [i for i in range(n) if pr[i] < 1.0]
    high = [i for i in range(n) if pr[i] >= 1.0]
    while high and low:
        lo, hi = low.pop(), high.pop()
        alt[lo] = hi
        pr[hi] = pr[hi] - (1.0 - pr[lo])
        (low if pr[hi] < 1.0 else high).append(hi)
    prob = np.array(pr, np.float32)
    for idx in high + low:
        prob[idx] = 1.0
        alt[idx] = idx
    return prob.tolist(), alt


class _LearnedUnigram:
    """``UnigramSampler``'s distribution: weight 1 per class, plus 1 per true class seen
    (the picking itself is flowgrad's: the first class whose running weight passes a uniform
    draw)."""

    def __init__(self, range_max: int) -> None:
        self.range = range_max
        self.weights = np.ones(range_max, np.int64)

    def sample(self, rnd: _SimplePhilox) -> int:
        total = int(self.weights.sum())
        return int(np.searchsorted(np.cumsum(self.weights), rnd.uniform(total), side="right"))

    def probability(self, values: np.ndarray) -> np.ndarray:
        return (self.weights[values].astype(np.float32)
                / _F32(self.weights.sum())).astype(np.float32)

    def update(self, values: np.ndarray) -> None:
        np.add.at(self.weights, values, 1)


def _expected_counts(p: np.ndarray, batch_size: int, num_tries: int) -> np.ndarray:
    """``ExpectedCountHelper`` in float32."""
    p = p.astype(np.float32)
    if num_tries == batch_size:
        return p * _F32(batch_size)
    return -np.expm1(_F32(num_tries) * np.log1p(-p))


def _sample_batch(sampler: Any, rnd: _SimplePhilox, unique: bool, num_sampled: int,
                  true: np.ndarray) -> tuple:
    """``SampleBatchGetExpectedCount``: the candidates and both expected counts."""
    if unique:
        used: set = set()
        batch: list = []
        tries = 0
        while len(batch) < num_sampled:
            tries += 1
            value = sampler.sample(rnd)
            if value not in used:
                used.add(value)
                batch.append(value)
    else:
        batch = [sampler.sample(rnd) for _ in range(num_sampled)]
        tries = num_sampled
    sampled = np.array(batch, np.int64)
    return (sampled, _expected_counts(sampler.probability(true), num_sampled, tries),
            _expected_counts(sampler.probability(sampled), num_sampled, tries))


#: The per-op sampler of the learned-unigram op, which learns from run to run (TensorFlow's
#: kernel object), kept with the op's random stream.
_LEARNED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _candidate_kernel(op_type: str, make: Callable) -> Callable:
    def kernel(rng: PhiloxStream, true_classes: Any, *, num_true: int, num_sampled: int,
               unique: bool, seed: int, seed2: int, **attrs: Any) -> tuple:
        true = np.asarray(true_classes)
        if true.ndim != 2:
            raise InvalidArgumentError(None, None, "true_classes must be a matrix")
        if true.shape[1] != num_true:
            raise InvalidArgumentError(None, None, "true_classes must have num_true columns, "
                                       "expected: %d was: %d" % (true.shape[1], num_true))
        if op_type == "LearnedUnigramCandidateSampler":
            sampler = _LEARNED.get(rng)
            if sampler is None:
                sampler = _LEARNED[rng] = make(num_sampled=num_sampled, **attrs)
        else:
            sampler = make(num_sampled=num_sampled, **attrs)
        if unique and num_sampled > sampler.range:
            raise InvalidArgumentError(None, None, "Sampler's range is too small.")
        flat = true.reshape(-1)
        bad = flat[(flat < 0) | (flat >= sampler.range)]
        if bad.size:
            raise InvalidArgumentError(None, None, "`true_candidate` out of range [0, %d), "
                                       "received %d" % (sampler.range, int(bad[0])))
        rnd = _SimplePhilox(*rng.reserve32(2048 * num_sampled))
        sampled, true_count, sampled_count = _sample_batch(sampler, rnd, unique, num_sampled,
                                                           flat)
        if op_type == "LearnedUnigramCandidateSampler":
            sampler.update(flat)
        return sampled, true_count.reshape(true.shape), sampled_count
    return kernel


class _All:
    def __init__(self, range_max: int) -> None:
        self.range = range_max


def _all_kernel(rng: PhiloxStream, true_classes: Any, *, num_true: int, num_sampled: int,
                unique: bool, seed: int, seed2: int) -> tuple:
    true = np.asarray(true_classes)
    if true.ndim != 2 or true.shape[1] != num_true:
        raise InvalidArgumentError(None, None, "true_classes must be a matrix with num_true "
                                   "columns")
    rng.reserve32(2048 * num_sampled)
    return (np.arange(num_sampled, dtype=np.int64), np.ones(true.shape, np.float32),
            np.ones(num_sampled, np.float32))


def _vocab_weights(vocab_file: str) -> list:
    """The weights of a vocabulary file: the last comma-separated field of each line."""
    if not os.path.exists(vocab_file):
        raise NotFoundError(None, None, "%s; No such file or directory" % vocab_file)
    weights = []
    with open(vocab_file, encoding="utf-8") as f:
        for line in f.read().splitlines():
            cols = line.split(",")
            try:
                weights.append(float(cols[-1]))
            except ValueError:
                raise InvalidArgumentError(None, None, "Wrong vocabulary format at line: %s"
                                           % line) from None
    return weights


def _fixed_unigram(num_sampled: int, range_max: int, vocab_file: str, distortion: float,
                   num_reserved_ids: int, num_shards: int, shard: int,
                   unigrams: list) -> _FixedUnigram:
    if not vocab_file and not unigrams:
        raise InvalidArgumentError(None, None, "Must provide either vocab_file or unigrams.")
    if vocab_file and unigrams:
        raise InvalidArgumentError(None, None, "Must only provide one of vocab_file and "
                                   "unigrams.")
    weights = _vocab_weights(vocab_file) if vocab_file else list(unigrams)
    return _FixedUnigram(range_max, weights, distortion, num_reserved_ids, num_shards, shard)


def _sampler_infer(ins: list, attrs: dict) -> list:
    true = ins[0].shape
    if true.rank not in (None, 2):
        raise ValueError("Shape must be rank 2 but is rank %d for true_classes" % true.rank)
    n = attrs["num_sampled"]
    return [(dtypes.int64, TensorShape([n])),
            (dtypes.float32, TensorShape([None if true.rank is None else true[0],
                                          attrs["num_true"]])),
            (dtypes.float32, TensorShape([n]))]


_SAMPLER = dict(num_outputs=3, input_names=("true_classes",), grad=_NO_GRADIENT, rng=True,
                stateful=True)
register_op("LogUniformCandidateSampler", _candidate_kernel(
    "LogUniformCandidateSampler", lambda num_sampled, range_max: _LogUniform(range_max)),
    _sampler_infer, **_SAMPLER)
register_op("UniformCandidateSampler", _candidate_kernel(
    "UniformCandidateSampler", lambda num_sampled, range_max: _Uniform(range_max)),
    _sampler_infer, **_SAMPLER)
register_op("LearnedUnigramCandidateSampler", _candidate_kernel(
    "LearnedUnigramCandidateSampler", lambda num_sampled, range_max: _LearnedUnigram(range_max)),
    _sampler_infer, **_SAMPLER)
register_op("FixedUnigramCandidateSampler", _candidate_kernel(
    "FixedUnigramCandidateSampler", _fixed_unigram), _sampler_infer, **_SAMPLER)
register_op("AllCandidateSampler", _all_kernel, _sampler_infer, **_SAMPLER)


def _accidental_hits_kernel(true_classes: Any, sampled: Any, *, num_true: int,
                            seed: int, seed2: int) -> tuple:
    true = np.asarray(true_classes)
    if true.ndim != 2 or true.shape[1] != num_true:
        raise InvalidArgumentError(None, None, "true_candidates must be a batch_size * "
                                   "num_true matrix")
    s = np.asarray(sampled)
    if s.ndim != 1:
        raise InvalidArgumentError(None, None, "sampled_candidates must be a vector, which is "
                                   "typically an output from CandidateSampler")
    pos = {int(c): i for i, c in enumerate(s.tolist())}       # the last position wins
    indices, ids = [], []
    for i, row in enumerate(true.tolist()):
        for c in row:
            if c in pos:
                indices.append(i)
                ids.append(pos[c])
    return (np.array(indices, np.int32), np.array(ids, np.int64),
            np.full(len(ids), -np.finfo(np.float32).max, np.float32))


def _accidental_hits_infer(ins: list, attrs: dict) -> list:
    return [(dtypes.int32, TensorShape([None])), (dtypes.int64, TensorShape([None])),
            (dtypes.float32, TensorShape([None]))]


register_op("ComputeAccidentalHits", _accidental_hits_kernel, _accidental_hits_infer,
            num_outputs=3, input_names=("true_classes", "sampled_candidates"),
            grad=_NO_GRADIENT)


# --------------------------------------------------------------------------------------
# Public functions


def _sampler(op_type: str, true_classes: Any, num_true: int, num_sampled: int, unique: bool,
             seed: int | None, name: str | None, **attrs: Any) -> tuple:
    s1, s2 = get_seed(seed)
    attrs.update(num_true=int(num_true), num_sampled=int(num_sampled), unique=bool(unique),
                 seed=s1 or 0, seed2=s2 or 0)
    true = _int64_input(true_classes, op_type, 0, "true_classes")
    return tuple(apply_op(op_type, [true], attrs, name=name))


def _int64_input(value: Any, op_type: str, k: int, name: str) -> Any:
    """An int64 input: an int32 tensor is TensorFlow's TypeError (InvalidArgumentError when
    executing eagerly), as the ops take int64 only."""
    t = value if isinstance(value, TensorBase) else convert_to_tensor(value, dtypes.int64,
                                                                      name=name)
    if t.dtype.base_dtype is not dtypes.int64:
        raise argument_error("cannot compute %s as input #%d(zero-based) was expected to be a "
                             "int64 tensor but is a %s tensor (%s)"
                             % (op_type, k, t.dtype.base_dtype.name, name), TypeError)
    return t


_RETURNS = """
    Returns:
        ``(sampled_candidates, true_expected_count, sampled_expected_count)``: an int64
        ``[num_sampled]`` tensor, a float32 ``[batch_size, num_true]`` one and a float32
        ``[num_sampled]`` one.

    Raises:
        InvalidArgumentError: (when run) if a true class is out of range, or ``unique`` and
            ``num_sampled`` exceeds ``range_max``.
"""
_ARGS = """
    Args:
        true_classes: An int64 ``[batch_size, num_true]`` tensor of the target classes.
        num_true: The number of target classes per example.
        num_sampled: How many classes to sample.
        unique: Whether the sampled classes are all different (sampling without replacement).
        range_max: The number of classes."""


def log_uniform_candidate_sampler(true_classes: TensorLike, num_true: int, num_sampled: int,
                                  unique: bool, range_max: int, seed: int | None = None,
                                  name: str | None = None) -> tuple:
    return _sampler("LogUniformCandidateSampler", true_classes, num_true, num_sampled, unique,
                    seed, name, range_max=int(range_max))


log_uniform_candidate_sampler.__doc__ = """Samples classes from the log-uniform (Zipfian)
    distribution ``P(class) = (log(class + 2) - log(class + 1)) / log(range_max + 1)``.
""" + _ARGS + """
        seed: The op seed (with the graph seed, as ``tf.random`` ops).
        name: A name for the operation (optional).
""" + _RETURNS


def uniform_candidate_sampler(true_classes: TensorLike, num_true: int, num_sampled: int,
                              unique: bool, range_max: int, seed: int | None = None,
                              name: str | None = None) -> tuple:
    return _sampler("UniformCandidateSampler", true_classes, num_true, num_sampled, unique,
                    seed, name, range_max=int(range_max))


uniform_candidate_sampler.__doc__ = """Samples classes uniformly from [0, range_max).
""" + _ARGS + """
        seed: The op seed (with the graph seed, as ``tf.random`` ops).
        name: A name for the operation (optional).
""" + _RETURNS


def learned_unigram_candidate_sampler(true_classes: TensorLike, num_true: int, num_sampled: int,
                                      unique: bool, range_max: int, seed: int | None = None,
                                      name: str | None = None) -> tuple:
    return _sampler("LearnedUnigramCandidateSampler", true_classes, num_true, num_sampled,
                    unique, seed, name, range_max=int(range_max))


learned_unigram_candidate_sampler.__doc__ = """Samples classes from the unigram distribution
    the op learns from the true classes it has seen (each class starts with weight 1).
""" + _ARGS + """
        seed: The op seed (with the graph seed, as ``tf.random`` ops).
        name: A name for the operation (optional).
""" + _RETURNS


def fixed_unigram_candidate_sampler(true_classes: TensorLike, num_true: int, num_sampled: int,
                                    unique: bool, range_max: int, vocab_file: str = "",
                                    distortion: float = 1.0, num_reserved_ids: int = 0,
                                    num_shards: int = 1, shard: int = 0, unigrams: Any = (),
                                    seed: int | None = None, name: str | None = None) -> tuple:
    return _sampler("FixedUnigramCandidateSampler", true_classes, num_true, num_sampled,
                    unique, seed, name, range_max=int(range_max), vocab_file=str(vocab_file),
                    distortion=float(distortion), num_reserved_ids=int(num_reserved_ids),
                    num_shards=int(num_shards), shard=int(shard),
                    unigrams=[float(u) for u in unigrams])


fixed_unigram_candidate_sampler.__doc__ = """Samples classes from given unigram weights
    (``unigrams``, or the last comma-separated field of each line of ``vocab_file``), each
    raised to ``distortion``.
""" + _ARGS + """
        vocab_file: A vocabulary file with one class per line.
        distortion: The power the weights are raised to.
        num_reserved_ids: Classes [0, num_reserved_ids) get weight 0 (before the file's).
        num_shards: The number of shards the classes are split into (by class modulo it).
        shard: The shard this op samples from.
        unigrams: The weights, if there is no ``vocab_file``.
        seed: The op seed (with the graph seed, as ``tf.random`` ops).
        name: A name for the operation (optional).
""" + _RETURNS


def all_candidate_sampler(true_classes: TensorLike, num_true: int, num_sampled: int, unique: bool,
                          seed: int | None = None, name: str | None = None) -> tuple:
    """Samples every class: ``sampled_candidates`` is ``range(num_sampled)``, every expected
    count is 1 (for tests and small vocabularies).

    Args:
        true_classes: An int64 ``[batch_size, num_true]`` tensor of the target classes.
        num_true: The number of target classes per example.
        num_sampled: The number of classes (all are sampled).
        unique: Ignored (TensorFlow's signature).
        seed: The op seed.
        name: A name for the operation (optional).

    Returns:
        ``(sampled_candidates, true_expected_count, sampled_expected_count)``.
    """
    return _sampler("AllCandidateSampler", true_classes, num_true, num_sampled, unique, seed,
                    name)


def compute_accidental_hits(true_classes: TensorLike, sampled_candidates: Any, num_true: int,
                            seed: int | None = None, name: str | None = None) -> tuple:
    """Where a sampled class is one of an example's true classes.

    Args:
        true_classes: An int64 ``[batch_size, num_true]`` tensor of the target classes.
        sampled_candidates: The int64 ``[num_sampled]`` output of a candidate sampler.
        num_true: The number of target classes per example.
        seed: The op seed (unused by the op, as in TensorFlow).
        name: A name for the operation (optional).

    Returns:
        ``(indices, ids, weights)``: for each hit, the example (int32), the position in
        ``sampled_candidates`` (int64) and ``-FLT_MAX`` (float32), to add to its logit.
    """
    s1, s2 = get_seed(seed)
    true = _int64_input(true_classes, "ComputeAccidentalHits", 0, "true_classes")
    sampled = _int64_input(sampled_candidates, "ComputeAccidentalHits", 1, "sampled_candidates")
    return tuple(apply_op("ComputeAccidentalHits", [true, sampled],
                          {"num_true": int(num_true), "seed": s1 or 0, "seed2": s2 or 0},
                          name=name))


__all__ = ["log_uniform_candidate_sampler", "uniform_candidate_sampler",
           "learned_unigram_candidate_sampler", "fixed_unigram_candidate_sampler",
           "all_candidate_sampler", "compute_accidental_hits"]
