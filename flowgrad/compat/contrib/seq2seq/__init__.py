"""TF 1.15's ``tf.contrib.seq2seq``: sampling helpers, ``BasicDecoder``, ``dynamic_decode``,
the Bahdanau and Luong attention mechanisms with ``AttentionWrapper``, ``BeamSearchDecoder``
with ``tile_batch`` and ``gather_tree``, and ``sequence_loss`` -- with TF 1.15's variable
names and defaults, so its checkpoints and numbers carry over."""
from __future__ import annotations

from flowgrad.compat.contrib.seq2seq.attention_wrapper import (AttentionMechanism,
                                                               AttentionWrapper,
                                                               AttentionWrapperState,
                                                               BahdanauAttention,
                                                               BahdanauMonotonicAttention,
                                                               LuongAttention,
                                                               LuongMonotonicAttention, hardmax,
                                                               monotonic_attention,
                                                               safe_cumprod)
from flowgrad.compat.contrib.seq2seq.basic_decoder import BasicDecoder, BasicDecoderOutput
from flowgrad.compat.contrib.seq2seq.beam_search_decoder import (BeamSearchDecoder,
                                                                 BeamSearchDecoderOutput,
                                                                 BeamSearchDecoderState,
                                                                 FinalBeamSearchDecoderOutput,
                                                                 gather_tree, tile_batch)
from flowgrad.compat.contrib.seq2seq.decoder import Decoder, dynamic_decode
from flowgrad.compat.contrib.seq2seq.helper import (CustomHelper, GreedyEmbeddingHelper, Helper,
                                                    InferenceHelper, SampleEmbeddingHelper,
                                                    ScheduledEmbeddingTrainingHelper,
                                                    ScheduledOutputTrainingHelper,
                                                    TrainingHelper)
from flowgrad.compat.contrib.seq2seq.loss import sequence_loss

__all__ = ["AttentionMechanism", "AttentionWrapper", "AttentionWrapperState",
           "BahdanauAttention", "BahdanauMonotonicAttention", "BasicDecoder",
           "BasicDecoderOutput", "BeamSearchDecoder", "BeamSearchDecoderOutput",
           "BeamSearchDecoderState", "CustomHelper", "Decoder", "FinalBeamSearchDecoderOutput",
           "GreedyEmbeddingHelper", "Helper", "InferenceHelper", "LuongAttention",
           "LuongMonotonicAttention", "SampleEmbeddingHelper",
           "ScheduledEmbeddingTrainingHelper", "ScheduledOutputTrainingHelper",
           "TrainingHelper", "dynamic_decode", "gather_tree", "hardmax", "monotonic_attention",
           "safe_cumprod", "sequence_loss", "tile_batch"]


def __dir__() -> list:
    return sorted(__all__)
