"""``tf.train`` (TF1): optimizers, the global step, learning-rate schedules, Saver."""
from flowgrad.train.adadelta import AdadeltaOptimizer
from flowgrad.train.adagrad import AdagradOptimizer
from flowgrad.train.adam import AdamOptimizer
from flowgrad.train.basic_session_run_hooks import (
    CheckpointSaverHook,
    CheckpointSaverListener,
    FeedFnHook,
    FinalOpsHook,
    GlobalStepWaiterHook,
    LoggingTensorHook,
    NanLossDuringTrainingError,
    NanTensorHook,
    SecondOrStepTimer,
    StepCounterHook,
    StopAtStepHook,
    SummarySaverHook,
)
from flowgrad.train.checkpoint import Checkpoint, CheckpointManager
from flowgrad.train.checkpoint_options import CheckpointOptions
from flowgrad.train.checkpoint_files import get_checkpoint_mtimes, remove_checkpoint
from flowgrad.train.checkpoint_utils import (
    NewCheckpointReader,
    checkpoints_iterator,
    init_from_checkpoint,
    list_variables,
    load_checkpoint,
    load_variable,
)
from flowgrad.train.checkpoint_management import (
    checkpoint_exists,
    get_checkpoint_state,
    latest_checkpoint,
    update_checkpoint_state,
)
from flowgrad.train.coordinator import Coordinator
from flowgrad.train.device_setter import replica_device_setter
from flowgrad.train.gradient_descent import GradientDescentOptimizer
from flowgrad.train.adagrad_da import AdagradDAOptimizer
from flowgrad.train.ftrl import FtrlOptimizer
from flowgrad.train.looper_thread import LooperThread
from flowgrad.train.learning_rate_decay import (
    cosine_decay,
    cosine_decay_restarts,
    exponential_decay,
    inverse_time_decay,
    linear_cosine_decay,
    natural_exp_decay,
    noisy_linear_cosine_decay,
    piecewise_constant,
    polynomial_decay,
)
from flowgrad.train.momentum import MomentumOptimizer
from flowgrad.train.monitored_session import (
    ChiefSessionCreator,
    MonitoredSession,
    MonitoredTrainingSession,
    Scaffold,
    SessionCreator,
    SingularMonitoredSession,
)
from flowgrad.train.moving_averages import ExponentialMovingAverage
from flowgrad.train.optimizer import Optimizer
from flowgrad.train.proximal_adagrad import ProximalAdagradOptimizer
from flowgrad.train.proximal_gradient_descent import ProximalGradientDescentOptimizer
from flowgrad.train.rmsprop import RMSPropOptimizer
from flowgrad.train.saver import Saver
from flowgrad.train.server_lib import Server
from flowgrad.train.session_manager import SessionManager
from flowgrad.train.supervisor import Supervisor
from flowgrad.train.summary_iterator import summary_iterator
from flowgrad.train.warm_start import warm_start
from flowgrad.train.session_run_hook import (
    SessionRunArgs,
    SessionRunContext,
    SessionRunHook,
    SessionRunValues,
)
from flowgrad.train.training_util import (
    assert_global_step,
    create_global_step,
    get_global_step,
    get_or_create_global_step,
    global_step,
)

from flowgrad.train import queue_runner
from flowgrad.train.queue_runner import QueueRunner, add_queue_runner, start_queue_runners
from flowgrad.train.input import (
    batch,
    batch_join,
    input_producer,
    limit_epochs,
    match_filenames_once,
    maybe_batch,
    maybe_batch_join,
    maybe_shuffle_batch,
    maybe_shuffle_batch_join,
    range_input_producer,
    shuffle_batch,
    shuffle_batch_join,
    slice_input_producer,
    string_input_producer,
)
from flowgrad.ops import example_protos
from flowgrad.ops.example_protos import MESSAGES as EXAMPLE_MESSAGES

piecewise_constant_decay = piecewise_constant  # TensorFlow 1 exports it under both names

__all__ = ["AdadeltaOptimizer", "AdagradOptimizer", "AdamOptimizer", "Checkpoint",
           "CheckpointManager", "CheckpointOptions", "ExponentialMovingAverage",
           "list_variables", "load_checkpoint",
           "load_variable", "NewCheckpointReader", "init_from_checkpoint",
           "checkpoints_iterator",
           "GradientDescentOptimizer", "MomentumOptimizer", "Optimizer", "RMSPropOptimizer",
           "Saver", "assert_global_step", "checkpoint_exists", "create_global_step",
           "exponential_decay", "get_checkpoint_state", "get_global_step",
           "get_or_create_global_step", "global_step", "inverse_time_decay",
           "latest_checkpoint", "piecewise_constant", "piecewise_constant_decay",
           "polynomial_decay",
           "update_checkpoint_state",
           # the training loop: MonitoredSession and its hooks
           "CheckpointSaverHook", "CheckpointSaverListener", "ChiefSessionCreator",
           "Coordinator", "FeedFnHook", "FinalOpsHook", "GlobalStepWaiterHook",
           "LoggingTensorHook", "MonitoredSession", "MonitoredTrainingSession",
           "NanLossDuringTrainingError", "NanTensorHook", "Scaffold", "SecondOrStepTimer",
           "SessionCreator", "SessionRunArgs", "SessionRunContext", "SessionRunHook",
           "SessionRunValues", "SingularMonitoredSession", "StepCounterHook",
           "StopAtStepHook", "SummarySaverHook",
           # TensorFlow 1's FTRL, proximal and dual-averaging optimizers, and decays
           "AdagradDAOptimizer", "FtrlOptimizer", "ProximalAdagradOptimizer",
           "ProximalGradientDescentOptimizer", "cosine_decay", "cosine_decay_restarts",
           "linear_cosine_decay", "natural_exp_decay", "noisy_linear_cosine_decay",
           "get_checkpoint_mtimes", "remove_checkpoint", "summary_iterator",
           "LooperThread", "replica_device_setter", "warm_start",
           # TensorFlow 1's queue-based input pipelines
           "QueueRunner", "add_queue_runner", "start_queue_runners", "queue_runner", "batch",
           "batch_join", "input_producer", "limit_epochs", "match_filenames_once",
           "maybe_batch", "maybe_batch_join", "maybe_shuffle_batch", "maybe_shuffle_batch_join",
           "range_input_producer", "shuffle_batch", "shuffle_batch_join",
           "slice_input_producer", "string_input_producer",
           "Server", "SessionManager", "Supervisor",
           ] + list(EXAMPLE_MESSAGES)


def __getattr__(name: str) -> type:
    """``tf.train.Example`` and the other Example protos, built on first use (protobuf)."""
    if name in EXAMPLE_MESSAGES:
        return getattr(example_protos, name)
    raise AttributeError("module 'flowgrad.train' has no attribute %r" % name)


def __dir__() -> list:
    """TensorFlow 1's tf.train names (the TF1 face shows this package; the TF2 face a subset)."""
    return sorted(__all__)
