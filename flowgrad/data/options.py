"""``tf.data.Options`` and the ``tf.data.experimental`` policy enums: the settings a pipeline
carries, as TensorFlow 2.21's: typed options (a value of another type is a TypeError naming
the option), None until set except the groups and ``auto_shard_policy`` (AUTO), options merged
along a pipeline (a later setting wins, with TensorFlow's warning), and the options a dataset
reports immutable. flowgrad's pipelines run in order on the calling thread, so the
optimization, threading and sharding settings are kept and change nothing."""
from __future__ import annotations

import enum
import logging
from collections.abc import Callable
from typing import Any

_log = logging.getLogger("absl")


class AutotuneAlgorithm(enum.Enum):
    """The algorithm autotuning uses."""
    DEFAULT = 0
    HILL_CLIMB = 1
    GRADIENT_DESCENT = 2
    MAX_PARALLELISM = 3
    STAGE_BASED = 4


class AutoShardPolicy(enum.IntEnum):
    """How a dataset is sharded over workers."""
    OFF = -1
    AUTO = 0
    FILE = 1
    DATA = 2
    HINT = 3


class ExternalStatePolicy(enum.Enum):
    """What serializing a pipeline with external state does."""
    WARN = 0
    IGNORE = 1
    FAIL = 2


def _option(name: str, ty: Any, default: Callable[[], Any] = lambda: None) -> property:
    """A property holding a value of type ``ty`` (its default made on first read)."""

    def get(self: OptionsBase) -> Any:
        values = self._options
        if name not in values:
            values[name] = default()
        return values[name]

    def put(self: OptionsBase, value: Any) -> None:
        if not isinstance(value, ty):
            raise TypeError('Property "%s" must be of type %s, got: %s (type: %s)'
                            % (name, ty, value, type(value)))
        self._options[name] = value

    return property(get, put)


class OptionsBase:
    """A set of typed options (TensorFlow's ``tf.data`` ``OptionsBase``)."""

    def __init__(self) -> None:
        object.__setattr__(self, "_options", {})
        object.__setattr__(self, "_mutable", True)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, type(self)):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n)
                   for n in set(self._options) | set(other._options))

    __hash__ = None

    def __setattr__(self, name: str, value: Any) -> None:
        if not self._mutable:
            raise ValueError("Mutating `tf.data.Options()` returned by `tf.data.Dataset."
                             "options()` has no effect. Use `tf.data.Dataset.with_options("
                             "options)` to set or update dataset options.")
        if not hasattr(self, name):
            raise AttributeError("Cannot set the property %s on %s."
                                 % (name, type(self).__name__))
        object.__setattr__(self, name, value)

    def _set_mutable(self, mutable: bool) -> None:
        object.__setattr__(self, "_mutable", mutable)
        for value in self._options.values():
            if isinstance(value, OptionsBase):
                value._set_mutable(mutable)


def merge_options(*options_list: OptionsBase) -> OptionsBase:
    """The options of ``options_list`` merged: a setting that differs from the default wins
    over earlier ones (TensorFlow logs a warning where it changes a set value).

    Args:
        *options_list: Options of one type.

    Returns:
        A new options object.

    Raises:
        TypeError: options of different types.
    """
    result_type = type(options_list[0])
    for options in options_list:
        if not isinstance(options, result_type):
            raise TypeError("Could not merge incompatible options of type %s and %s."
                            % (type(options), result_type))
    default, result = result_type(), result_type()
    for options in options_list:
        for name in list(options._options):
            this, that, base = getattr(result, name), getattr(options, name), getattr(
                default, name)
            if that == base:
                continue
            if this == base:
                setattr(result, name, that)
            elif isinstance(this, OptionsBase):
                setattr(result, name, merge_options(this, that))
            elif name == "framework_type":
                setattr(result, name, this + that)
            elif this != that:
                _log.warning(
                    "Changing the value of option %s from %r to %r.", name, this, that)
                setattr(result, name, that)
    return result


class AutotuneOptions(OptionsBase):
    """``options.autotune``."""
    enabled = _option("enabled", bool)
    cpu_budget = _option("cpu_budget", int)
    ram_budget = _option("ram_budget", int)
    autotune_algorithm = _option("autotune_algorithm", AutotuneAlgorithm)
    initial_parallelism = _option("initial_parallelism", int)
    min_parallelism = _option("min_parallelism", int)


class DistributeOptions(OptionsBase):
    """``options.experimental_distribute``."""
    auto_shard_policy = _option("auto_shard_policy", AutoShardPolicy,
                                lambda: AutoShardPolicy.AUTO)
    num_devices = _option("num_devices", int)


class OptimizationOptions(OptionsBase):
    """``options.experimental_optimization``."""
    apply_default_optimizations = _option("apply_default_optimizations", bool)
    filter_fusion = _option("filter_fusion", bool)
    filter_parallelization = _option("filter_parallelization", bool)
    inject_prefetch = _option("inject_prefetch", bool)
    seq_interleave_prefetch = _option("seq_interleave_prefetch", bool)
    map_and_batch_fusion = _option("map_and_batch_fusion", bool)
    map_and_filter_fusion = _option("map_and_filter_fusion", bool)
    map_fusion = _option("map_fusion", bool)
    map_parallelization = _option("map_parallelization", bool)
    noop_elimination = _option("noop_elimination", bool)
    parallel_batch = _option("parallel_batch", bool)
    shuffle_and_repeat_fusion = _option("shuffle_and_repeat_fusion", bool)


class ServiceOptions(OptionsBase):
    """``options.experimental_service``."""
    pinned = _option("pinned", bool)


class ThreadingOptions(OptionsBase):
    """``options.threading``."""
    max_intra_op_parallelism = _option("max_intra_op_parallelism", int)
    private_threadpool_size = _option("private_threadpool_size", int)


class Options(OptionsBase):
    """The options of a pipeline (``dataset.with_options(options)``)."""
    autotune = _option("autotune", AutotuneOptions, AutotuneOptions)
    deterministic = _option("deterministic", bool)
    experimental_distribute = _option("experimental_distribute", DistributeOptions,
                                      DistributeOptions)
    experimental_external_state_policy = _option("experimental_external_state_policy",
                                                 ExternalStatePolicy)
    experimental_optimization = _option("experimental_optimization", OptimizationOptions,
                                        OptimizationOptions)
    experimental_slack = _option("experimental_slack", bool)
    experimental_symbolic_checkpoint = _option("experimental_symbolic_checkpoint", bool)
    experimental_service = _option("experimental_service", ServiceOptions, ServiceOptions)
    experimental_warm_start = _option("experimental_warm_start", bool)
    threading = _option("threading", ThreadingOptions, ThreadingOptions)
    dataset_name = _option("dataset_name", str)
    framework_type = _option("framework_type", list)

    @property
    def experimental_deterministic(self) -> bool | None:
        """The deprecated name of ``deterministic``."""
        return self.deterministic

    @experimental_deterministic.setter
    def experimental_deterministic(self, value: bool) -> None:
        self.deterministic = value

    @property
    def experimental_threading(self) -> ThreadingOptions:
        """The deprecated name of ``threading``."""
        _log.warning("options.experimental_threading is deprecated. Use options.threading "
                     "instead.")
        return self.threading

    @experimental_threading.setter
    def experimental_threading(self, value: ThreadingOptions) -> None:
        _log.warning("options.experimental_threading is deprecated. Use options.threading "
                     "instead.")
        self.threading = value

    def merge(self, options: Options) -> Options:
        """These options with the ones ``options`` sets (``options`` wins).

        Args:
            options: A ``tf.data.Options``.

        Returns:
            A new ``tf.data.Options``.
        """
        return merge_options(self, options)


__all__ = ["AutoShardPolicy", "AutotuneAlgorithm", "AutotuneOptions", "DistributeOptions",
           "ExternalStatePolicy", "OptimizationOptions", "Options", "ThreadingOptions"]
