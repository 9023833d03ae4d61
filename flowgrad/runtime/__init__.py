"""The execution layer: graphs run as compiled plans.

``plan`` compiles a graph's ops into one Python function (pruned, folded, ordered, updated in
place where that is safe); ``session`` runs plans for TF1's ``Session.run``; ``function``
traces Python into graphs for ``tf.function`` and runs them the same way; ``session_config``
holds TF1's session option messages. Nothing here knows about gradients: the autodiff layer
(``flowgrad/autodiff/``) sits above."""
