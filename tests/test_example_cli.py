"""The pre-existing examples' command lines: every flag's default in --help, progress lines
that go above a tqdm bar, no 'loss nan' before DQN's first training step."""
from __future__ import annotations

import importlib.util
import io
import re
import sys
import types
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def load(name):
    spec = importlib.util.spec_from_file_location("cli_" + name, EXAMPLES / (name + ".py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module            # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["mnist_softmax", "clip_and_apply", "gradient_accumulation",
                                  "dqn_cartpole", "keras_mnist", "a3c_cartpole",
                                  "distributed_mnist", "rnn_mnist"])
def test_help_documents_every_flag_with_its_default(name, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    with pytest.raises(SystemExit) as info:
        load(name).main(["--help"])
    assert info.value.code == 0
    text = capsys.readouterr().out.split("options:", 1)[1]
    entries = [" ".join(e.split()) for e in re.split(r"\n(?=  -)", text) if e.strip()]
    assert len(entries) >= 4
    for entry in entries:
        if not entry.startswith("-h, --help"):
            assert re.search(r"\S \S+.*\(default: [^)]*\)$", entry), entry  # help, then default


def test_mnist_softmax_epoch_lines_go_through_the_tqdm_bar(monkeypatch):
    written = []

    class FakeTqdm:
        def __init__(self, total, **kwargs):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def update(self, n=1):
            pass

        def write(self, line, file=None):
            written.append(line)

    monkeypatch.setitem(sys.modules, "tqdm", types.SimpleNamespace(tqdm=FakeTqdm))
    out = io.StringIO()
    import flowgrad.compat.v1 as tf
    tf.disable_v2_behavior()
    load("mnist_softmax").train(epochs=1, progress=True, out=out)
    assert written == ["Epoch: 0001 cost= 1.182139039"]
    assert "Epoch" not in out.getvalue() and "Accuracy" in out.getvalue()


def test_dqn_log_shows_no_nan_loss_before_training_starts():
    pytest.importorskip("gymnasium")
    dqn = load("dqn_cartpole")
    lines = []
    cfg = dqn.Config(seed=0, max_steps=400, learning_starts=200, log_every=1, eval_episodes=0,
                     stop_when_solved=False)
    dqn.train(cfg, log=lines.append)
    episodes = [line for line in lines if line.startswith("episode")]
    assert episodes and not any("nan" in line for line in episodes)
    assert "loss        -" in episodes[0]
    assert re.search(r"loss +\d+\.\d{4}", episodes[-1])
