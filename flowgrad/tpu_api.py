"""``tf.tpu``: flowgrad has no TPUs; the calls programs make to find one fail as they do on
TensorFlow on a machine without one (see ``flowgrad.cluster_resolver_api``)."""
import types

from flowgrad.cluster_resolver_api import initialize_tpu_system, shutdown_tpu_system

experimental = types.ModuleType("flowgrad.tpu_api.experimental",
                                "``tf.tpu.experimental``: TPU system set-up (no TPUs here).")
experimental.initialize_tpu_system = initialize_tpu_system
experimental.shutdown_tpu_system = shutdown_tpu_system
experimental.__all__ = ["initialize_tpu_system", "shutdown_tpu_system"]

__all__ = ["experimental"]
