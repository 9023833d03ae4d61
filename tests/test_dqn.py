"""examples/dqn_cartpole.py: the target network gets no gradient, both target modes agree,
the target sync copies exactly, and a short seeded run learns CartPole."""
import importlib.util
import pathlib
import sys

import numpy as np
import pytest

import flowgrad.compat.v1 as tf

_PATH = pathlib.Path(__file__).resolve().parents[1] / "examples" / "dqn_cartpole.py"
_spec = importlib.util.spec_from_file_location("dqn_cartpole", _PATH)
dqn_cartpole = importlib.util.module_from_spec(_spec)
sys.modules["dqn_cartpole"] = dqn_cartpole   # dataclasses look their module up there
_spec.loader.exec_module(dqn_cartpole)

OBS_DIM, N_ACTIONS = 4, 2


def _batch(seed: int = 0, n: int = 32) -> dict:
    rng = np.random.default_rng(seed)
    return {"o": rng.normal(size=(n, OBS_DIM)).astype(np.float32),
            "a": rng.integers(0, N_ACTIONS, n).astype(np.int32),
            "r": rng.uniform(0.0, 1.0, n).astype(np.float32),
            "o2": rng.normal(size=(n, OBS_DIM)).astype(np.float32),
            "done": (rng.random(n) < 0.2).astype(np.float32)}


def _build(mode: str, huber: bool = False, seed: int = 0) -> tuple:
    """A DQNGraph in its own graph and an initialized session (target = main after sync)."""
    graph = tf.Graph()
    with graph.as_default():
        tf.set_random_seed(seed)
        dqn = dqn_cartpole.DQNGraph(OBS_DIM, N_ACTIONS, hidden=(16, 16), target_mode=mode,
                                    huber=huber)
        init = tf.global_variables_initializer()
    sess = tf.Session(graph=graph)
    sess.run(init)
    return graph, dqn, sess


def _perturb_target(dqn, sess) -> None:
    """Target weights unlike the main ones, so the two networks give different Q values."""
    rng = np.random.default_rng(1)
    for v in dqn.target_vars:
        v.load(rng.normal(size=v.shape.as_list()).astype(np.float32), sess)


@pytest.mark.parametrize("mode", ["stop_gradient", "placeholder"])
@pytest.mark.parametrize("huber", [False, True])
def test_no_gradient_into_target_network(mode, huber):
    graph, dqn, sess = _build(mode, huber)
    with graph.as_default():
        assert len(dqn.target_vars) == 6 and len(dqn.main_vars) == 6
        assert all(v.name.startswith("target/") for v in dqn.target_vars)
        grads = tf.gradients(dqn.loss, dqn.target_vars)
        assert grads == [None] * len(dqn.target_vars)
        main_grads = tf.gradients(dqn.loss, dqn.main_vars)
    assert all(g is not None for g in main_grads)
    values = sess.run(main_grads, dqn.loss_feed(sess, _batch()))
    assert all(np.all(np.isfinite(v)) and np.any(v != 0) for v in values)


def test_without_stop_gradient_the_target_network_gets_gradient():
    graph, dqn, _ = _build("stop_gradient")
    with graph.as_default():
        assert dqn.target.op.type == "StopGradient"
        unstopped = dqn.target.op.inputs[0]
        loss = tf.reduce_mean(tf.squared_difference(dqn.q_a, unstopped))
        grads = tf.gradients(loss, dqn.target_vars)
    assert all(g is not None for g in grads)


@pytest.mark.parametrize("huber", [False, True])
def test_stop_gradient_and_placeholder_modes_give_the_same_main_gradients(huber):
    g1, sg, s1 = _build("stop_gradient", huber)
    g2, ph, s2 = _build("placeholder", huber, seed=7)
    _perturb_target(sg, s1)
    for v1, v2 in zip(sg.main_vars + sg.target_vars, ph.main_vars + ph.target_vars):
        v2.load(s1.run(v1), s2)
    batch = _batch(3)
    with g1.as_default():
        grads_sg = tf.gradients(sg.loss, sg.main_vars)
    with g2.as_default():
        grads_ph = tf.gradients(ph.loss, ph.main_vars)
    feed_ph = ph.loss_feed(s2, batch)
    assert set(feed_ph) == {ph.o, ph.a, ph.target_ph}
    loss_sg, *vals_sg = s1.run([sg.loss] + grads_sg, sg.loss_feed(s1, batch))
    loss_ph, *vals_ph = s2.run([ph.loss] + grads_ph, feed_ph)
    assert loss_sg == loss_ph and loss_sg > 0
    for a, b in zip(vals_sg, vals_ph):
        np.testing.assert_array_equal(a, b)
        assert np.any(a != 0)
    # One training step moves both main networks the same way and leaves the targets alone.
    target_before = s1.run(sg.target_vars)
    sg.train_step(s1, batch)
    ph.train_step(s2, batch)
    for a, b in zip(s1.run(sg.main_vars), s2.run(ph.main_vars)):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)
    for a, b in zip(target_before, s1.run(sg.target_vars)):
        np.testing.assert_array_equal(a, b)


def test_td_target_and_q_a_values():
    graph, dqn, sess = _build("stop_gradient")
    _perturb_target(dqn, sess)
    batch = _batch(5)
    q, q_targ, q_a, target = sess.run([dqn.q, dqn.q_targ, dqn.q_a, dqn.target],
                                      dqn.loss_feed(sess, batch))
    np.testing.assert_allclose(q_a, q[np.arange(len(q)), batch["a"]], rtol=1e-6)
    expected = batch["r"] + 0.99 * (1.0 - batch["done"]) * q_targ.max(1)
    np.testing.assert_allclose(target, expected, rtol=1e-5, atol=1e-6)
    assert q.shape == (32, N_ACTIONS) and q_a.dtype == np.float32


def test_target_sync_copies_main_exactly():
    graph, dqn, sess = _build("stop_gradient")
    _perturb_target(dqn, sess)
    for k in range(3):
        dqn.train_step(sess, _batch(k))
    main = sess.run(dqn.main_vars)
    assert not all(np.array_equal(m, t) for m, t in zip(main, sess.run(dqn.target_vars)))
    sess.run(dqn.sync_op)
    for m, t in zip(main, sess.run(dqn.target_vars)):
        assert t.dtype == np.float32
        np.testing.assert_array_equal(m, t)
    dqn.train_step(sess, _batch(9))     # main moves on, the target keeps the synced copy
    for m, t in zip(main, sess.run(dqn.target_vars)):
        np.testing.assert_array_equal(m, t)
    assert not all(np.array_equal(m, m_new) for m, m_new in zip(main, sess.run(dqn.main_vars)))


def test_replay_buffer_wraps_around():
    buf = dqn_cartpole.ReplayBuffer(capacity=5, obs_dim=2)
    for i in range(7):
        buf.add([i, -i], i % 2, float(i), [i + 1, -i - 1], i == 6)
    assert buf.size == 5 and buf.next == 2
    np.testing.assert_array_equal(buf.r, [5, 6, 2, 3, 4])
    np.testing.assert_array_equal(buf.done, [0, 1, 0, 0, 0])
    batch = buf.sample(100, np.random.default_rng(0))
    assert batch["o"].shape == (100, 2) and batch["o"].dtype == np.float32
    assert set(batch["r"]) == {2.0, 3.0, 4.0, 5.0, 6.0}
    np.testing.assert_array_equal(batch["o2"][:, 0], batch["r"] + 1)


def test_epsilon_decays_linearly():
    cfg = dqn_cartpole.Config(eps_start=1.0, eps_end=0.1, eps_decay_steps=100)
    assert [dqn_cartpole.epsilon(cfg, s) for s in (0, 50, 100, 1000)] == \
        pytest.approx([1.0, 0.55, 0.1, 0.1])


def test_bad_target_mode_is_rejected():
    with pytest.raises(ValueError, match="target_mode must be 'stop_gradient' or 'placeholder'"):
        dqn_cartpole.DQNGraph(OBS_DIM, N_ACTIONS, target_mode="feed")


def test_missing_gymnasium_names_the_install_command(monkeypatch):
    import builtins
    real_import = builtins.__import__

    def no_gym(name, *args, **kwargs):
        if name == "gymnasium":
            raise ImportError("No module named 'gymnasium'")
        return real_import(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", no_gym)
    with pytest.raises(SystemExit, match=r'pip install "flowgrad\[rl\]"'):
        dqn_cartpole.make_env()


def _random_policy_returns(episodes: int, seed: int) -> list:
    env = dqn_cartpole.make_env()
    rng = np.random.default_rng(seed)
    returns = []
    for k in range(episodes):
        env.reset(seed=seed + k)
        total, over = 0.0, False
        while not over:
            _, r, terminated, truncated, _ = env.step(int(rng.integers(N_ACTIONS)))
            total, over = total + r, terminated or truncated
        returns.append(total)
    return returns


def test_short_seeded_run_beats_a_random_policy():
    pytest.importorskip("gymnasium")
    cfg = dqn_cartpole.Config(seed=0, max_steps=4000, eval_episodes=10, log_every=0,
                              stop_when_solved=False)
    result = dqn_cartpole.train(cfg, log=lambda msg: None)
    assert result.steps == 4000 and result.solved_at_step is None
    assert sum(result.returns) <= 4000 and result.episode_end_steps[-1] <= 4000
    # The same evaluation episodes under a uniformly random policy average about 22.
    random_mean = np.mean(_random_policy_returns(10, cfg.seed + 10_000))
    assert random_mean < 40
    assert np.mean(result.eval_returns) > max(100, 4 * random_mean)


def test_command_line_runs_the_placeholder_mode(capsys):
    pytest.importorskip("gymnasium")
    rc = dqn_cartpole.main(["--seed", "1", "--max-steps", "600", "--learning-starts", "200",
                            "--target-mode", "placeholder", "--log-every", "5",
                            "--eval-episodes", "1"])
    out = capsys.readouterr().out
    assert rc == 1 and "not solved within 600 steps" in out
    assert "episode    5  step" in out and "greedy evaluation over 1 episodes" in out


def test_learning_curve_png(tmp_path):
    pytest.importorskip("matplotlib")
    returns = [float(20 + i) for i in range(150)]
    result = dqn_cartpole.Result(returns=returns, episode_end_steps=list(np.cumsum(returns)),
                                 steps=int(sum(returns)), seconds=1.0, solved_at_step=20000)
    path = tmp_path / "curve.png"
    dqn_cartpole.plot_learning_curve(result, str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
