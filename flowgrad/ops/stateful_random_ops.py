"""``tf.random.Generator``: a random number generator whose state is a variable.

TensorFlow's design and numbers: the state is the int64 vector ``[counter lo, counter hi,
key]`` of Philox (``from_seed(n)`` chops ``n`` into those three 64-bit words, as
``create_rng_state`` does); each draw of ``shape`` reserves ``256 * prod(shape)`` counter
values (an ``AssignAddVariableOp``, so draws inside a ``tf.function`` advance it too) and
feeds the key and the counter before it to the matching stateless V2 op
(``StatelessRandomNormalV2``, ...). ``split`` and ``make_seeds`` use ``uniform_full_int``
draws as TensorFlow's do. Saving the state variable in a checkpoint saves the position in
the stream. (A counter's carry out of its low 64 bits is not propagated, which TensorFlow
does after 2**56 draws.)"""
from __future__ import annotations

import enum

import secrets
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _NO_GRADIENT, register_op
from flowgrad.framework.shape_rules import constant_value, shape_from_value
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.trackable import Trackable
from flowgrad.ops import stateless_random_ops as stateless
from flowgrad.ops.arithmetic_ops import add, floordiv, maximum, multiply, subtract
from flowgrad.ops.array_ops import _as_value, stack, zeros_like
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.manip_ops import bitcast, broadcast_dynamic_shape
from flowgrad.ops.shape_ops import shape_of
from flowgrad.ops.reduction_ops import reduce_prod
from flowgrad.ops.state_ops import Variable
from flowgrad.framework.type_hints import DTypeLike, ShapeLike, TensorLike

_MASK64 = (1 << 64) - 1
_STATE_SIZE = 3     # Philox: two counter words and the key
_ALGS = {"philox": 1, "autoselect": 3, "threefry": 2}


class Algorithm(enum.Enum):
    """The counter-based generators of ``tf.random`` (``alg`` of the stateless ops and of
    ``tf.random.Generator``); on the CPU, ``AUTO_SELECT`` is Philox."""

    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


def _alg_id(alg: Any) -> int:
    if alg is None:
        return 1
    if isinstance(alg, str):
        canon = alg.strip().lower().replace("-", "").replace("_", "")
        if canon not in _ALGS:
            raise ValueError("Argument `alg` got unsupported value %s. Supported values are "
                             "philox for the Philox algorithm, threefry for the ThreeFry "
                             "algorithm, and auto_select for auto-selection." % alg)
        alg = _ALGS[canon]
    alg = int(getattr(alg, "value", alg))
    if alg == 2:
        raise NotImplementedError("flowgrad's tf.random.Generator has the Philox algorithm "
                                  "only, not ThreeFry")
    return alg


def _shape_tensor(shape: Any) -> Any:
    """A shape as an integer tensor (int64 when empty, int32 otherwise), as TensorFlow's."""
    shape = _as_value(shape)
    if isinstance(shape, (tuple, list)) and not shape:
        return convert_to_tensor(np.zeros([0], np.int64), name="shape")
    t = convert_to_tensor(shape, name="shape")
    return t if t.dtype.is_integer else cast(t, dtypes.int32)


def _int64(n: int) -> int:
    n &= _MASK64
    return n - (1 << 64) if n >= 1 << 63 else n


def _stateful_binomial_kernel(state: Any, algorithm: Any, shape: Any, counts: Any,
                              probs: Any, *, dtype: dtypes.DType) -> np.ndarray:
    """StatefulRandomBinomial at the generator state ``[counter lo, counter hi, key]`` it was
    given (flowgrad passes the state's value before the draw's advance, which
    ``Generator.binomial`` makes with an AssignAddVariableOp)."""
    if int(algorithm) not in (1, 3):
        raise InvalidArgumentError(None, None, "StatefulRandomBinomial: Unsupported algorithm "
                                   "id: %d" % int(algorithm))
    words = np.asarray(state).astype(np.uint64)
    return stateless.binomial_samples("StatefulRandomBinomial", int(words[2]),
                                      int(words[0]) | int(words[1]) << 64, shape, counts,
                                      probs, dtype)


def _static_pairs(counts: Any, probs: Any, shape: Any) -> Any:
    """The number of (count, prob) pairs when the shapes are static, after the kernel's checks
    (so that a bad call fails before the state advances); None otherwise."""
    cs, ps = counts.shape.as_tuple(), probs.shape.as_tuple()
    if cs is None or ps is None or None in cs or None in ps:
        return None
    try:
        batch = np.broadcast_shapes(cs, ps)
    except ValueError:
        raise InvalidArgumentError(None, None, "StatefulRandomBinomial: counts and probs must "
                                   "have compatible batch dimensions: %s vs. %s"
                                   % (list(cs), list(ps))) from None
    dims = constant_value(shape)
    if dims is not None:
        stateless._per_param(dims, np.zeros(batch), "StatefulRandomBinomial")
    return np.int64(np.prod(batch, dtype=np.int64))


register_op("StatefulRandomBinomial", _stateful_binomial_kernel,
            lambda ins, attrs: (attrs["dtype"], shape_from_value(ins[2])), grad=_NO_GRADIENT,
            stateful=True, input_names=("resource", "algorithm", "shape", "counts", "probs"))


class Generator(Trackable):
    """A random number generator whose position in its stream is a variable (``state``).

    Use :meth:`from_seed` for a reproducible stream, :meth:`from_non_deterministic_state`
    for a fresh one; :meth:`split` makes independent generators. A checkpoint saves its
    state as TensorFlow's does (``<name>/_state_var``).
    """

    def __init__(self, copy_from: Generator | None = None, state: Any = None,
                 alg: Any = None) -> None:
        """Makes a generator from another's state, or from a state ``[counter lo, counter hi,
        key]``.

        Args:
          copy_from: A generator whose current state to copy.
          state: An int64 vector ``[counter lo, counter hi, key]``.
          alg: ``"philox"`` (1) or ``"auto_select"`` (3, Philox on CPU).

        Raises:
          ValueError: if neither or both of ``copy_from`` and ``state`` are given.
        """
        if (copy_from is None) == (state is None):
            raise ValueError("Generator needs exactly one of copy_from and state")
        self._alg = copy_from.algorithm if copy_from is not None else _alg_id(alg)
        init = copy_from.state.numpy() if copy_from is not None else np.asarray(
            _as_value(state), np.int64)
        if init.shape != (3,):
            raise ValueError("Generator state must have shape [3], got %s" % (list(init.shape),))
        self._state = Variable(init.astype(np.int64), trainable=False, dtype=dtypes.int64,
                               name="StateVar")

    @classmethod
    def from_seed(cls, seed: int | None, alg: Any = None) -> Generator:
        """A generator whose stream is determined by ``seed`` (an int or int array)."""
        return cls(state=create_rng_state(seed, alg if alg is not None else 1), alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg: Any = None) -> Generator:
        """A generator seeded from the operating system's entropy."""
        return cls(state=[_int64(secrets.randbits(64)) for _ in range(_STATE_SIZE)], alg=alg)

    @classmethod
    def from_state(cls, state: Any, alg: Any = None) -> Generator:
        """A generator continuing from ``state`` (as :attr:`state` returns it)."""
        return cls(state=state, alg=alg)

    @classmethod
    def from_key_counter(cls, key: Any, counter: Any, alg: Any = None) -> Generator:
        """A generator with the given key (a scalar) and counter (two int64 words)."""
        counter = np.ravel(np.asarray(_as_value(counter), np.int64)).tolist()
        if len(counter) != _STATE_SIZE - 1:
            raise ValueError("Shapes (%d,) and (2,) are incompatible" % len(counter))
        return cls(state=counter + [int(np.asarray(_as_value(key), np.int64))], alg=alg)

    @property
    def state(self) -> Variable:
        """The state variable ``[counter lo, counter hi, key]`` (int64)."""
        return self._state

    def _trackable_children(self, save_type: str = "checkpoint", **kwargs: Any) -> dict:
        """The state variable, under TensorFlow's name for it."""
        return {"_state_var": self._state}

    @property
    def algorithm(self) -> int:
        """TensorFlow's id of the algorithm: 1 (Philox) or 3 (auto-select)."""
        return self._alg

    @property
    def key(self) -> Any:
        """The key part of the state."""
        return self._state[2]

    def reset_from_seed(self, seed: int | None) -> None:
        """Restarts the stream as :meth:`from_seed` would."""
        self._state.assign(create_rng_state(seed, self._alg))

    def reset(self, state: Any) -> None:
        """Sets the state."""
        self._state.assign(state)

    def reset_from_key_counter(self, key: Any, counter: Any) -> None:
        """Sets the key and the counter."""
        self._state.assign(np.ravel(np.asarray(_as_value(counter), np.int64)).tolist()
                           + [int(np.asarray(_as_value(key), np.int64))])

    def skip(self, delta: TensorLike) -> Any:
        """Advances the counter as ``delta`` draws would (by ``256 * delta``).

        Returns:
          The state before the skip.
        """
        step = multiply(cast(delta, dtypes.int64), np.int64(256))
        new = convert_to_tensor(self._state.assign_add(stack([step, np.int64(0),
                                                              np.int64(0)])))
        return stack([subtract(new[0], step), new[1], new[2]])

    def _key_counter(self, shape: Any) -> tuple:
        """(key, counter) of a draw of ``shape``: the state's before it skips past it."""
        old = self.skip(reduce_prod(shape))
        return bitcast(old[2:3], dtypes.uint64), bitcast(old[0:2], dtypes.uint64)

    def _draw(self, op_type: str, shape: Any, dtype: Any, extra: tuple = ()) -> Any:
        s = _shape_tensor(shape)
        key, counter = self._key_counter(s)
        attrs = {} if extra else {"dtype": dtypes.as_dtype(dtype)}
        return apply_op(op_type, (s, key, counter, np.int32(self._alg)) + extra, attrs)

    def normal(self, shape: ShapeLike | TensorLike, mean: TensorLike = 0.0,
               stddev: TensorLike = 1.0, dtype: DTypeLike = dtypes.float32,
               name: str | None = None) -> Any:
        """Normal numbers; see ``tf.random.stateless_normal``."""
        with name_scope(name, "stateful_normal", [shape, mean, stddev]) as scope:
            mean = convert_to_tensor(_as_value(mean), dtype, name="mean")
            stddev = convert_to_tensor(_as_value(stddev), dtype, name="stddev")
            rnd = self._draw("StatelessRandomNormalV2", shape, dtype)
            return add(multiply(rnd, stddev), mean, name=scope)

    def truncated_normal(self, shape: ShapeLike | TensorLike, mean: TensorLike = 0.0,
                         stddev: TensorLike = 1.0, dtype: DTypeLike = dtypes.float32,
                         name: str | None = None) -> Any:
        """Normal numbers within two standard deviations; see
        ``tf.random.stateless_truncated_normal``."""
        with name_scope(name, "truncated_normal", [shape, mean, stddev]) as scope:
            mean = convert_to_tensor(_as_value(mean), dtype, name="mean")
            stddev = convert_to_tensor(_as_value(stddev), dtype, name="stddev")
            rnd = self._draw("StatelessTruncatedNormalV2", shape, dtype)
            return add(multiply(rnd, stddev), mean, name=scope)

    def uniform(self, shape: ShapeLike | TensorLike, minval: TensorLike = 0,
                maxval: TensorLike | None = None, dtype: DTypeLike = dtypes.float32,
                name: str | None = None) -> Any:
        """Uniform numbers in ``[minval, maxval)``; see ``tf.random.stateless_uniform``.

        Raises:
          ValueError: for an integer ``dtype`` with only one of the bounds.
        """
        dtype = dtypes.as_dtype(dtype)
        if dtype.is_integer:
            if (minval is None) != (maxval is None):
                raise ValueError("For integer dtype %s, minval and maxval must be both `None` "
                                 "or both non-`None`; got minval=%s and maxval=%s"
                                 % (dtype, minval, maxval))
        elif maxval is None:
            maxval = 1
        with name_scope(name, "stateful_uniform", [shape, minval, maxval]) as scope:
            if dtype.is_integer and minval is None:
                return self._draw("StatelessRandomUniformFullIntV2", shape, dtype)
            lo = convert_to_tensor(_as_value(minval), dtype, name="min")
            hi = convert_to_tensor(_as_value(maxval), dtype, name="max")
            if dtype.is_integer:
                return self._draw("StatelessRandomUniformIntV2", shape, dtype, (lo, hi))
            rnd = self._draw("StatelessRandomUniformV2", shape, dtype)
            return add(multiply(rnd, subtract(hi, lo)), lo, name=scope)

    def uniform_full_int(self, shape: ShapeLike | TensorLike, dtype: DTypeLike = dtypes.uint64,
                         name: str | None = None) -> Any:
        """Integers over the whole range of ``dtype``."""
        with name_scope(name, "stateful_uniform_full_int", [shape]):
            return self._draw("StatelessRandomUniformFullIntV2", shape, dtype)

    def binomial(self, shape: ShapeLike | TensorLike, counts: Any, probs: TensorLike,
                 dtype: DTypeLike = dtypes.int32, name: str | None = None) -> Any:
        """Binomial samples: successes in ``counts`` trials of probability ``probs``
        (broadcast against each other; ``shape`` ends with their broadcast shape), as
        TensorFlow's ``StatefulRandomBinomial``: the samples are the stateless sampler's
        from the Philox stream at the generator's state, which then advances by
        ``256 * (pairs * 200 * (samples per pair + 3) // 4)``, the kernel's reservation.

        Args:
          shape: The output shape.
          counts: The trial counts (a floating tensor).
          probs: The success probabilities, of ``counts``' dtype.
          dtype: The output dtype.
          name: A name for the operation (optional).
        """
        dtype = dtypes.as_dtype(dtype)
        with name_scope(name, "binomial", [shape, counts, probs]) as scope:
            counts = convert_to_tensor(_as_value(counts), name="counts")
            probs = convert_to_tensor(_as_value(probs), name="probs")
            s = _shape_tensor(shape)
            pairs = _static_pairs(counts, probs, s)
            if pairs is None:       # shapes known when the op runs only
                pairs = cast(reduce_prod(broadcast_dynamic_shape(shape_of(counts),
                                                                 shape_of(probs))), dtypes.int64)
            per_pair = floordiv(cast(reduce_prod(s), dtypes.int64), maximum(pairs, 1))
            reserved = multiply(floordiv(pairs * 200 * (per_pair + 3), np.int64(4)),
                                np.int64(256))
            new = convert_to_tensor(self._state.assign_add(
                stack([reserved, np.int64(0), np.int64(0)])))
            old = stack([subtract(new[0], reserved), new[1], new[2]])
            return apply_op("StatefulRandomBinomial",
                            (old, np.int64(self._alg), s, counts, probs), {"dtype": dtype},
                            name=scope)

    def make_seeds(self, count: int = 1) -> Any:
        """``count`` seeds for the stateless functions: an int64 ``[2, count]`` tensor of
        ``uniform_full_int`` keys over zeros."""
        keys = self.uniform_full_int([count], dtype=dtypes.int64)
        return stack([keys, zeros_like(keys)])

    def split(self, count: int = 1) -> list:
        """``count`` new generators with streams independent of this one's (and advances it):
        their states are ``[0, 0, key]`` for ``uniform_full_int`` keys.

        Returns:
          A list of ``count`` generators.
        """
        keys = self.uniform_full_int([count], dtype=dtypes.int64).numpy()
        return [Generator(state=[0, 0, int(k)], alg=self._alg) for k in keys]


class _GlobalGenerator:
    """The generator ``get_global_generator`` returns (made on first use)."""

    generator: Generator | None = None


def get_global_generator() -> Generator:
    """The global generator (from non-deterministic state unless one was set)."""
    if _GlobalGenerator.generator is None:
        _GlobalGenerator.generator = Generator.from_non_deterministic_state()
    return _GlobalGenerator.generator


def set_global_generator(generator: Generator) -> None:
    """Replaces the global generator.

    Args:
        generator: The ``tf.random.Generator`` that ``get_global_generator`` returns from now on.
    """
    _GlobalGenerator.generator = generator


def create_rng_state(seed: int | None, alg: Any) -> np.ndarray:
    """The state ``Generator.from_seed(seed, alg)`` starts from: an int ``seed`` chopped into
    three 64-bit words (lowest first), an int vector front-padded with zeros to three.

    Args:
        seed: An integer (any size) or a 1-D integer array.
        alg: ``"philox"``, ``"auto_select"`` or their ids 1 and 3.
    """
    _alg_id(alg)
    seed = _as_value(seed)
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        seed = int(seed)
        words = []
        for _ in range(_STATE_SIZE):
            words.append(_int64(seed))
            seed >>= 64
        return np.array(words, np.int64)
    words = [_int64(int(w)) for w in np.ravel(np.asarray(seed))][:_STATE_SIZE]
    return np.array([0] * (_STATE_SIZE - len(words)) + words, np.int64)
