"""TF 1.15's ``tf.contrib.factorization.KMeans`` (TensorFlow's ``clustering_ops``): the graph of
k-means clustering over one input tensor (or a list of them) -- distances to the centers, each
row's nearest center, the centers' initialization (random rows, k-means++ or given centers) and
the training op (Lloyd's full-batch update, or the mini-batch update that moves each center by
``(sum(new points) - k * center) / (old count + k)``). Squared Euclidean or cosine distance
(inputs and centers l2-normalized, distance 1 - cosine), as TensorFlow's ``clustering_ops``."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.compat import v1 as _tf

SQUARED_EUCLIDEAN_DISTANCE = "squared_euclidean"
COSINE_DISTANCE = "cosine"
RANDOM_INIT = "random"
KMEANS_PLUS_PLUS_INIT = "kmeans_plus_plus"
KMC2_INIT = "kmc2"
CLUSTERS_VAR_NAME = "clusters"

__all__ = ["KMeans", "SQUARED_EUCLIDEAN_DISTANCE", "COSINE_DISTANCE", "RANDOM_INIT",
           "KMEANS_PLUS_PLUS_INIT", "KMC2_INIT", "CLUSTERS_VAR_NAME"]


def _kmeans_plus_plus(data: np.ndarray, k: int, seed: int, retries: int) -> np.ndarray:
    """k-means++ (Arthur & Vassilvitskii): each next center drawn with probability
    proportional to the squared distance to the nearest chosen one, the best of
    ``retries + 1`` draws (the one lowering the total distance most) kept."""
    rng = np.random.RandomState(seed)
    data = np.asarray(data, np.float64)
    n = data.shape[0]
    centers = [data[rng.randint(n)]]
    closest = ((data - centers[0]) ** 2).sum(1)
    for _ in range(1, k):
        total = closest.sum()
        probs = closest / total if total > 0 else np.full(n, 1.0 / n)
        trials = rng.choice(n, size=retries + 1, p=probs)
        best, best_cost, best_dist = None, np.inf, None
        for t in trials:
            dist = np.minimum(closest, ((data - data[t]) ** 2).sum(1))
            if dist.sum() < best_cost:
                best, best_cost, best_dist = t, dist.sum(), dist
        centers.append(data[best])
        closest = best_dist
    return np.stack(centers)


class KMeans:
    """The graph of k-means clustering (``tf.contrib.factorization.KMeans``).

    Args:
      inputs: A [num_points, dims] float tensor, or a list of them.
      num_clusters: The number of clusters (an int), or a [num_clusters, dims] tensor of
        initial centers (then ``initial_clusters`` is ignored).
      initial_clusters: ``"random"`` (random input rows), ``"kmeans_plus_plus"``, ``"kmc2"``
        (here k-means++ itself, which KMC2 approximates), a [num_clusters, dims] array, or a
        function ``(inputs, num_clusters) -> centers``.
      distance_metric: ``"squared_euclidean"`` or ``"cosine"``.
      use_mini_batch: Whether the training op makes mini-batch updates (else full-batch
        Lloyd steps).
      mini_batch_steps_per_iteration: Accepted for TensorFlow's signature: each step updates
        the centers (TensorFlow's synchronization of replicas every N steps concerns
        distributed training).
      random_seed: The seed of the initialization.
      kmeans_plus_plus_num_retries: The extra draws per k-means++ center.
      kmc2_chain_length: Accepted for TensorFlow's signature.

    Raises:
      ValueError: an unknown distance metric or initialization, or inputs of unknown depth.
    """

    def __init__(self, inputs: Any, num_clusters: Any, initial_clusters: Any = RANDOM_INIT,
                 distance_metric: str = SQUARED_EUCLIDEAN_DISTANCE,
                 use_mini_batch: bool = False, mini_batch_steps_per_iteration: int = 1,
                 random_seed: int = 0, kmeans_plus_plus_num_retries: int = 2,
                 kmc2_chain_length: int = 200):
        if distance_metric not in (SQUARED_EUCLIDEAN_DISTANCE, COSINE_DISTANCE):
            raise ValueError("Unsupported distance metric %s" % distance_metric)
        if isinstance(initial_clusters, str) and initial_clusters not in (
                RANDOM_INIT, KMEANS_PLUS_PLUS_INIT, KMC2_INIT):
            raise ValueError("Unsupported initialization %s" % initial_clusters)
        self._inputs = [_tf.convert_to_tensor(x) for x in
                        (inputs if isinstance(inputs, (list, tuple)) else [inputs])]
        self._num_clusters = num_clusters
        self._initial_clusters = initial_clusters
        self._distance_metric = distance_metric
        self._use_mini_batch = use_mini_batch
        self._mini_batch_steps_per_iteration = int(mini_batch_steps_per_iteration)
        self._random_seed = random_seed
        self._kmeans_plus_plus_num_retries = kmeans_plus_plus_num_retries
        self._kmc2_chain_length = kmc2_chain_length
        depth = self._inputs[0].shape.as_list()[-1]
        if depth is None:
            raise ValueError("KMeans needs inputs of known depth, saw shape %s"
                             % self._inputs[0].shape)
        self._depth = depth

    def _l2_normalized(self) -> bool:
        return self._distance_metric == COSINE_DISTANCE

    def _clusters_l2_normalized(self) -> bool:
        return self._l2_normalized() and (not self._use_mini_batch
                                          or self._mini_batch_steps_per_iteration > 1)

    def _distances(self, inputs: Any, clusters: Any) -> list:
        """(all_scores, cluster_idx, scores) per input: distances to every center, the
        nearest center and the distance to it (for cosine, against the l2-normalized
        centers, which mini-batch training does not keep normalized)."""
        if self._distance_metric == COSINE_DISTANCE and not self._clusters_l2_normalized():
            clusters = _tf.nn.l2_normalize(clusters, 1)
        all_scores, idx, scores = [], [], []
        for inp in inputs:
            if self._distance_metric == SQUARED_EUCLIDEAN_DISTANCE:
                dist = (_tf.reduce_sum(_tf.square(inp), 1, keepdims=True)
                        - 2 * _tf.matmul(inp, clusters, transpose_b=True)
                        + _tf.transpose(_tf.reduce_sum(_tf.square(clusters), 1,
                                                       keepdims=True)))
            else:
                dist = 1.0 - _tf.matmul(inp, clusters, transpose_b=True)
            all_scores.append(dist)
            idx.append(_tf.argmin(dist, 1))
            scores.append(_tf.maximum(_tf.reduce_min(dist, 1), 0.0))
        return all_scores, idx, scores

    def _initial_centers(self, inputs: Any) -> Any:
        k = self._num_clusters
        init = self._initial_clusters
        if not isinstance(k, int):
            return _tf.convert_to_tensor(k, _tf.float32)
        if callable(init):
            return init(inputs, k)
        if not isinstance(init, str):
            return _tf.convert_to_tensor(init, inputs[0].dtype)
        data = _tf.concat(inputs, 0)
        if init == RANDOM_INIT:
            indices = _tf.random_uniform([k], minval=0,
                                         maxval=_tf.cast(_tf.shape(data)[0], _tf.int64),
                                         seed=self._random_seed, dtype=_tf.int64)
            return _tf.gather(data, indices)
        seed, retries = self._random_seed, self._kmeans_plus_plus_num_retries
        centers = _tf.numpy_function(
            lambda d: _kmeans_plus_plus(d, k, seed, retries).astype(d.dtype), [data],
            data.dtype)
        centers.set_shape([k, self._depth])
        return centers

    def training_graph(self) -> tuple:
        """The clustering graph.

        Returns:
          ``(all_scores, cluster_idx, scores, cluster_centers_initialized, init_op,
          training_op)``, TF 1.15's six (TF 1.4 had the centers variable as a fifth; it is
          ``tf.global_variables()``' ``clusters``): lists (one entry per input) of the [n, k]
          distances, the [n] int64 nearest centers and the [n] nearest distances; the bool
          variable saying the centers are set; the op that sets them (once); the training op.
        """
        inputs = self._inputs
        if self._l2_normalized():
            inputs = [_tf.nn.l2_normalize(x, 1) for x in inputs]
        k = self._num_clusters if isinstance(self._num_clusters, int) else int(
            np.shape(self._num_clusters)[0])
        dtype = inputs[0].dtype.base_dtype
        cluster_centers = _tf.Variable(_tf.zeros([k, self._depth], dtype),
                                       name=CLUSTERS_VAR_NAME, trainable=False)
        initialized = _tf.Variable(False, dtype=_tf.bool, name="initialized", trainable=False)
        counts = (_tf.Variable(_tf.ones([k], dtype=_tf.int64), trainable=False)
                  if self._use_mini_batch else None)
        init_op = self._init_op(inputs, cluster_centers, initialized)
        all_scores, cluster_idx, scores = self._distances(inputs, cluster_centers)
        if self._use_mini_batch:
            training_op = self._mini_batch_training_op(inputs, cluster_idx, cluster_centers,
                                                       counts)
        else:
            training_op = self._full_batch_training_op(inputs, k, cluster_idx,
                                                       cluster_centers)
        return all_scores, cluster_idx, scores, initialized, init_op, training_op

    def _init_op(self, inputs: list, cluster_centers: Any, initialized: Any) -> Any:
        def set_centers() -> Any:
            centers = self._initial_centers(inputs)
            if self._clusters_l2_normalized():
                centers = _tf.nn.l2_normalize(centers, 1)
            with _tf.control_dependencies([_tf.assign(cluster_centers, centers)]):
                return _tf.assign(initialized, True)
        return _tf.cond(initialized, lambda: _tf.identity(initialized), set_centers).op

    def _full_batch_training_op(self, inputs: list, k: int, cluster_idx: list,
                                cluster_centers: Any) -> Any:
        epsilon = _tf.constant(1e-6, dtype=inputs[0].dtype)
        sums = [_tf.unsorted_segment_sum(inp, idx, k) for inp, idx in zip(inputs, cluster_idx)]
        counts = [_tf.unsorted_segment_sum(_tf.ones([_tf.shape(inp)[0], 1], inp.dtype), idx, k)
                  for inp, idx in zip(inputs, cluster_idx)]
        new_centers = _tf.add_n(sums) / (_tf.add_n(counts) + epsilon)
        if self._clusters_l2_normalized():
            new_centers = _tf.nn.l2_normalize(new_centers, 1)
        return _tf.assign(cluster_centers, new_centers).op

    def _mini_batch_training_op(self, inputs: list, cluster_idx: list, cluster_centers: Any,
                                total_counts: Any) -> Any:
        update_ops = []
        for inp, idx in zip(inputs, cluster_idx):
            idx = _tf.reshape(idx, [-1])
            unique_ids, unique_idx = _tf.unique(idx)
            num_unique = _tf.size(unique_ids)
            old_counts = _tf.gather(total_counts, unique_ids)
            old_centers = _tf.gather(cluster_centers, unique_ids)
            count_updates = _tf.unsorted_segment_sum(
                _tf.ones_like(unique_idx, dtype=total_counts.dtype.base_dtype), unique_idx,
                num_unique)
            center_updates = _tf.unsorted_segment_sum(inp, unique_idx, num_unique)
            center_updates -= _tf.cast(_tf.reshape(count_updates, [-1, 1]),
                                       inp.dtype) * old_centers
            learning_rate = _tf.reciprocal(_tf.cast(old_counts + count_updates, inp.dtype))
            center_updates *= _tf.reshape(learning_rate, [-1, 1])
            update_ops.append(_tf.scatter_add(total_counts, unique_ids, count_updates))
            update_ops.append(_tf.scatter_add(cluster_centers, unique_ids, center_updates))
        return _tf.group(*update_ops)
