"""``tf.random.Generator``: a random number generator whose state is a variable.

Each draw advances the state's counter by one (an ``AssignAddVariableOp``, so draws inside a
``tf.function`` advance it too) and feeds ``[key, counter]`` as the seed of the matching
stateless op (``flowgrad.ops.stateless_random_ops``). So a generator made ``from_seed`` gives
the same sequence in every run, generators made from different seeds (or by ``split``) give
independent streams, and saving the state variable in a checkpoint saves the position in the
stream. The numbers differ from TensorFlow's (docs/differences.md); the distributions, shapes
and dtypes are TensorFlow's."""
from __future__ import annotations

import secrets
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops import stateless_random_ops as stateless
from flowgrad.ops.array_ops import stack
from flowgrad.ops.state_ops import Variable

_MASK64 = (1 << 64) - 1


def _key_of(seed: Any) -> int:
    """A 63-bit key from an int seed (or an int array, as TensorFlow's create_rng_state takes)."""
    words = np.ravel(np.asarray(seed, dtype=np.int64)).tolist()
    key = 0
    for w in words:     # mix every word in (a splitmix-style hash)
        key = (key * 0x9E3779B97F4A7C15 + (w & _MASK64) + 0x632BE59BD9B4E019) & _MASK64
        key ^= key >> 31
    return key & 0x7FFFFFFFFFFFFFFF


class Generator:
    """A random number generator whose position in its stream is a variable (``state``).

    Use :meth:`from_seed` for a reproducible stream, :meth:`from_non_deterministic_state`
    for a fresh one; :meth:`split` makes independent generators.
    """

    def __init__(self, copy_from: Generator | None = None, state: Any = None,
                 alg: Any = None) -> None:
        """Makes a generator from another's state, or from a state ``[counter, 0, key]``.

        Args:
          copy_from: A generator whose current state to copy.
          state: An int64 vector ``[counter, 0, key]``.
          alg: Accepted for TensorFlow's signature (one algorithm serves every choice).

        Raises:
          ValueError: if neither or both of ``copy_from`` and ``state`` are given.
        """
        del alg
        if (copy_from is None) == (state is None):
            raise ValueError("Generator needs exactly one of copy_from and state")
        init = copy_from.state.numpy() if copy_from is not None else np.asarray(state, np.int64)
        if init.shape != (3,):
            raise ValueError("Generator state must have shape [3], got %s" % (list(init.shape),))
        self._state = Variable(init.astype(np.int64), trainable=False, dtype=dtypes.int64,
                               name="StateVar")

    @classmethod
    def from_seed(cls, seed: Any, alg: Any = None) -> Generator:
        """A generator whose stream is determined by ``seed`` (an int or int array)."""
        return cls(state=[0, 0, _key_of(seed)], alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg: Any = None) -> Generator:
        """A generator seeded from the operating system's entropy."""
        return cls(state=[0, 0, secrets.randbits(63)], alg=alg)

    @classmethod
    def from_state(cls, state: Any, alg: Any = None) -> Generator:
        """A generator continuing from ``state`` (as :attr:`state` returns it)."""
        return cls(state=state, alg=alg)

    @classmethod
    def from_key_counter(cls, key: Any, counter: Any, alg: Any = None) -> Generator:
        """A generator with the given key and counter."""
        return cls(state=[int(np.ravel(counter)[0]), 0, int(np.ravel(key)[0])], alg=alg)

    @property
    def state(self) -> Variable:
        """The state variable ``[counter, 0, key]`` (int64)."""
        return self._state

    @property
    def algorithm(self) -> int:
        """TensorFlow's id of the Philox algorithm (1)."""
        return 1

    @property
    def key(self) -> Any:
        """The key part of the state."""
        return self._state[2]

    def reset_from_seed(self, seed: Any) -> None:
        """Restarts the stream as :meth:`from_seed` would."""
        self._state.assign([0, 0, _key_of(seed)])

    def reset(self, state: Any) -> None:
        """Sets the state."""
        self._state.assign(state)

    def skip(self, delta: int) -> Any:
        """Advances the counter by ``delta`` draws."""
        return self._state.assign_add([int(delta), 0, 0])

    def _seed(self) -> Any:
        """The seed of the next draw: [key, counter], after advancing the counter."""
        new = convert_to_tensor(self._state.assign_add(np.array([1, 0, 0], np.int64)))
        return stack([new[2], new[0]])

    def normal(self, shape: Any, mean: Any = 0.0, stddev: Any = 1.0,
               dtype: Any = dtypes.float32, name: str | None = None) -> Any:
        """Normal numbers; see ``tf.random.stateless_normal``."""
        return stateless.stateless_random_normal(shape, self._seed(), mean, stddev, dtype,
                                                 name)

    def truncated_normal(self, shape: Any, mean: Any = 0.0, stddev: Any = 1.0,
                         dtype: Any = dtypes.float32, name: str | None = None) -> Any:
        """Normal numbers within two standard deviations; see
        ``tf.random.stateless_truncated_normal``."""
        return stateless.stateless_truncated_normal(shape, self._seed(), mean, stddev, dtype,
                                                    name)

    def uniform(self, shape: Any, minval: Any = 0, maxval: Any = None,
                dtype: Any = dtypes.float32, name: str | None = None) -> Any:
        """Uniform numbers in ``[minval, maxval)``; see ``tf.random.stateless_uniform``."""
        return stateless.stateless_random_uniform(shape, self._seed(), minval, maxval, dtype,
                                                  name)

    def uniform_full_int(self, shape: Any, dtype: Any = dtypes.uint64,
                         name: str | None = None) -> Any:
        """Integers over the whole range of ``dtype``."""
        return stateless.stateless_random_uniform(shape, self._seed(), None, None, dtype, name)

    def binomial(self, shape: Any, counts: Any, probs: Any, dtype: Any = dtypes.int32,
                 name: str | None = None) -> Any:
        """Binomial samples; see ``tf.random.stateless_binomial``."""
        return stateless.stateless_random_binomial(shape, self._seed(), counts, probs, dtype,
                                                   name)

    def make_seeds(self, count: int = 1) -> Any:
        """``count`` seeds for the stateless functions: an int64 ``[2, count]`` tensor."""
        return self.uniform_full_int([2, count], dtype=dtypes.int64)

    def split(self, count: int = 1) -> list:
        """``count`` new generators with streams independent of this one's (and advances it).

        Returns:
          A list of ``count`` generators.
        """
        seeds = self.make_seeds(count).numpy()
        return [Generator.from_seed(seeds[:, i].tolist()) for i in range(count)]


class _GlobalGenerator:
    """The generator ``get_global_generator`` returns (made on first use)."""

    generator: Generator | None = None


def get_global_generator() -> Generator:
    """The global generator (from non-deterministic state unless one was set)."""
    if _GlobalGenerator.generator is None:
        _GlobalGenerator.generator = Generator.from_non_deterministic_state()
    return _GlobalGenerator.generator


def set_global_generator(generator: Generator) -> None:
    """Replaces the global generator."""
    _GlobalGenerator.generator = generator


def create_rng_state(seed: Any, alg: Any) -> np.ndarray:
    """The state ``Generator.from_seed(seed)`` starts from (an int64 vector of 3)."""
    del alg
    return np.array([0, 0, _key_of(seed)], np.int64)
