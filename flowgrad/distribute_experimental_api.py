"""``tf.distribute.experimental``: ParameterServerStrategy (on Ray), its coordinator and
partitioners, and MultiWorkerMirroredStrategy."""
from flowgrad import distribute_coordinator_api as coordinator  # noqa: F401
from flowgrad.distribute import partitioners  # noqa: F401
from flowgrad.distribute.distribute_lib import ValueContext  # noqa: F401
from flowgrad.distribute.multi_worker import MultiWorkerMirroredStrategy  # noqa: F401
from flowgrad.distribute.ps_strategy import ParameterServerStrategy  # noqa: F401

__all__ = ["MultiWorkerMirroredStrategy", "ParameterServerStrategy", "ValueContext",
           "coordinator", "partitioners"]
