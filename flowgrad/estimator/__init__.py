"""``tf.estimator`` as TensorFlow 2.15 had it (TF 2.16+ removed the API): Estimator and its
``model_fn`` contract, RunConfig, train_and_evaluate, the canned estimators, the numpy and
pandas ``input_fn``\\ s, serving exports, built on flowgrad's TF1 graph machinery
(MonitoredTrainingSession, Saver, hooks, tf.compat.v1.metrics).

The faces show it as ``tf.estimator`` and ``tf.compat.v1.estimator``
(flowgrad/api/exports.py)."""
