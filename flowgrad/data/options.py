"""``tf.data.Options`` and the ``tf.data.experimental`` policy enums: the settings a pipeline
carries. flowgrad's pipelines run in order on the calling thread, so the optimization,
threading and sharding settings are kept (``dataset.options()`` gives them back) and change
nothing."""
from __future__ import annotations

import enum
from typing import Any


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


class _OptionGroup:
    """A group of options: attributes named at construction, None until set."""

    _names: tuple = ()

    def __init__(self) -> None:
        for n in self._names:
            object.__setattr__(self, n, None)

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in self._names:
            raise AttributeError("Cannot set the property %s on %s." % (name, type(self).__name__))
        object.__setattr__(self, name, value)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and vars(self) == vars(other)

    __hash__ = None


class OptimizationOptions(_OptionGroup):
    """``options.experimental_optimization``."""
    _names = ("apply_default_optimizations", "filter_fusion", "map_and_batch_fusion",
              "map_and_filter_fusion", "map_fusion", "map_parallelization", "noop_elimination",
              "parallel_batch", "shuffle_and_repeat_fusion", "filter_parallelization",
              "inject_prefetch", "seq_interleave_prefetch")


class DistributeOptions(_OptionGroup):
    """``options.experimental_distribute``."""
    _names = ("auto_shard_policy", "num_devices")


class ThreadingOptions(_OptionGroup):
    """``options.threading``."""
    _names = ("max_intra_op_parallelism", "private_threadpool_size")


class Options(_OptionGroup):
    """The options of a pipeline (``dataset.with_options(options)``)."""
    _names = ("autotune", "deterministic", "experimental_deterministic",
              "experimental_distribute", "experimental_external_state_policy",
              "experimental_optimization", "experimental_slack", "experimental_symbolic_checkpoint",
              "experimental_threading", "experimental_warm_start", "threading", "framework_type",
              "dataset_name")

    def __init__(self) -> None:
        super().__init__()
        object.__setattr__(self, "experimental_optimization", OptimizationOptions())
        object.__setattr__(self, "experimental_distribute", DistributeOptions())
        object.__setattr__(self, "threading", ThreadingOptions())
        object.__setattr__(self, "experimental_threading", self.threading)

    def merge(self, options: Options) -> Options:
        """These options with the ones ``options`` sets (``options`` wins)."""
        out = Options()
        for src in (self, options):
            for name, value in vars(src).items():
                if isinstance(value, _OptionGroup):
                    group = getattr(out, name)
                    for k, v in vars(value).items():
                        if v is not None:
                            object.__setattr__(group, k, v)
                elif value is not None:
                    object.__setattr__(out, name, value)
        return out


__all__ = ["AutoShardPolicy", "DistributeOptions", "ExternalStatePolicy", "OptimizationOptions",
           "Options", "ThreadingOptions"]
