"""TensorFlow 1.15's ``tf.contrib.legacy_seq2seq``: the static (Python-list) sequence-to-
sequence models of the 2016 translation tutorial and the char-RNN / chatbot programs built on
it: ``rnn_decoder``, ``basic_rnn_seq2seq``, ``tied_rnn_seq2seq``, ``embedding_rnn_decoder``,
``embedding_rnn_seq2seq``, ``embedding_tied_rnn_seq2seq``, ``attention_decoder``,
``embedding_attention_decoder``, ``embedding_attention_seq2seq``, ``one2many_rnn_seq2seq``,
``sequence_loss_by_example``, ``sequence_loss`` and ``model_with_buckets``, with TF 1.15's
variable scopes and names (so its checkpoints' names) and formulas.

Inputs are Python lists of per-step tensors; each step builds its own ops, the variables of
step 0 shared by the later steps."""
from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from flowgrad import nest
from flowgrad.compat.contrib.rnn_wrappers import EmbeddingWrapper, OutputProjectionWrapper
from flowgrad.compat.contrib.rnn_wrappers import linear as _linear
from flowgrad.framework import dtypes
from flowgrad.framework.graph import name_scope
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.type_hints import DTypeLike
from flowgrad.ops import array_ops, math_ops
from flowgrad.ops.cond_v2 import cond
from flowgrad.ops.conv_ops import conv2d
from flowgrad.ops.indexing_ops import embedding_lookup
from flowgrad.ops.nn_ops import softmax, sparse_softmax_cross_entropy_with_logits
from flowgrad.ops.nn_statistics import xw_plus_b
from flowgrad.ops.variable_scope import get_variable, get_variable_scope, variable_scope
from flowgrad.rnn.cells import RNNCell
from flowgrad.rnn.rnn import static_rnn


def _extract_argmax_and_embed(embedding: Any, output_projection: Any = None,
                              update_embedding: bool = True) -> Callable:
    """A loop function feeding back the embedding of the previous output's argmax."""
    def loop_function(prev: Any, _: int) -> Any:
        if output_projection is not None:
            prev = xw_plus_b(prev, output_projection[0], output_projection[1])
        emb_prev = embedding_lookup(embedding, math_ops.argmax(prev, 1))
        return emb_prev if update_embedding else array_ops.stop_gradient(emb_prev)
    return loop_function


def rnn_decoder(decoder_inputs: list, initial_state: Any, cell: Any,
                loop_function: Callable | None = None, scope: Any = None) -> tuple:
    """Runs ``cell`` over the decoder inputs from ``initial_state``.

    Args:
        decoder_inputs: A list of [batch, input_size] tensors.
        initial_state: The cell's starting state.
        cell: The RNN cell.
        loop_function: ``loop_function(prev_output, i)`` gives input ``i`` (after the first)
            from the previous output instead of ``decoder_inputs[i]`` (greedy decoding).
        scope: The variable scope; ``rnn_decoder`` when None.

    Returns:
        ``(outputs, state)``: the list of outputs and the final state.
    """
    with variable_scope(scope or "rnn_decoder"):
        state, outputs, prev = initial_state, [], None
        for i, inp in enumerate(decoder_inputs):
            if loop_function is not None and prev is not None:
                with variable_scope("loop_function", reuse=True):
                    inp = loop_function(prev, i)
            if i > 0:
                get_variable_scope().reuse_variables()
            output, state = cell(inp, state)
            outputs.append(output)
            if loop_function is not None:
                prev = output
    return outputs, state


def basic_rnn_seq2seq(encoder_inputs: list, decoder_inputs: list, cell: Any,
                      dtype: DTypeLike = dtypes.float32, scope: Any = None) -> tuple:
    """Encodes with a copy of ``cell`` (``static_rnn``), decodes with ``cell`` from the
    encoder's final state.

    Args:
        encoder_inputs: A list of [batch, input_size] tensors.
        decoder_inputs: A list of [batch, input_size] tensors.
        cell: The RNN cell.
        dtype: The dtype of the encoder's zero state.
        scope: The variable scope; ``basic_rnn_seq2seq`` when None.

    Returns:
        ``(outputs, state)`` of the decoder.
    """
    with variable_scope(scope or "basic_rnn_seq2seq"):
        enc_cell = copy.deepcopy(cell)
        _, enc_state = static_rnn(enc_cell, encoder_inputs, dtype=dtype)
        return rnn_decoder(decoder_inputs, enc_state, cell)


def tied_rnn_seq2seq(encoder_inputs: list, decoder_inputs: list, cell: Any,
                     loop_function: Callable | None = None, dtype: DTypeLike = dtypes.float32,
                     scope: Any = None) -> tuple:
    """Like ``basic_rnn_seq2seq``, the encoder and the decoder sharing one cell's variables.

    Args:
        encoder_inputs: A list of [batch, input_size] tensors.
        decoder_inputs: A list of [batch, input_size] tensors.
        cell: The RNN cell.
        loop_function: See ``rnn_decoder``.
        dtype: The dtype of the encoder's zero state.
        scope: The variable scope of both; ``tied_rnn_seq2seq`` when None.

    Returns:
        ``(outputs, state)`` of the decoder.
    """
    with variable_scope("combined_tied_rnn_seq2seq"):
        scope = scope or "tied_rnn_seq2seq"
        _, enc_state = static_rnn(cell, encoder_inputs, dtype=dtype, scope=scope)
        get_variable_scope().reuse_variables()
        return rnn_decoder(decoder_inputs, enc_state, cell, loop_function=loop_function,
                           scope=scope)


def _check_projection(output_projection: Any, num_symbols: int, dtype: Any) -> None:
    if output_projection is not None:
        w = convert_to_tensor(output_projection[0], dtype=dtype)
        w.shape.assert_is_compatible_with([None, num_symbols])
        b = convert_to_tensor(output_projection[1], dtype=dtype)
        b.shape.assert_is_compatible_with([num_symbols])


def embedding_rnn_decoder(decoder_inputs: list, initial_state: Any, cell: Any,
                          num_symbols: int, embedding_size: int, output_projection: Any = None,
                          feed_previous: bool = False,
                          update_embedding_for_previous: bool = True, scope: Any = None) -> tuple:
    """``rnn_decoder`` over embedded symbol ids (variable ``embedding``).

    Args:
        decoder_inputs: A list of [batch] int tensors.
        initial_state: The cell's starting state.
        cell: The RNN cell.
        num_symbols: How many symbols there are.
        embedding_size: The size of the embedding vectors.
        output_projection: None or ``(W, B)`` mapping outputs to symbol logits (for
            ``feed_previous``).
        feed_previous: Whether every input after the first is the embedding of the previous
            output's argmax (greedy decoding).
        update_embedding_for_previous: Whether gradients reach the embeddings fed back.
        scope: The variable scope; ``embedding_rnn_decoder`` when None.

    Returns:
        ``(outputs, state)``.
    """
    with variable_scope(scope or "embedding_rnn_decoder") as vs:
        _check_projection(output_projection, num_symbols, vs.dtype)
        embedding = get_variable("embedding", [num_symbols, embedding_size])
        loop_function = _extract_argmax_and_embed(
            embedding, output_projection, update_embedding_for_previous) \
            if feed_previous else None
        emb_inp = [embedding_lookup(embedding, i) for i in decoder_inputs]
        return rnn_decoder(emb_inp, initial_state, cell, loop_function=loop_function)


def _cond_decoders(feed_previous: Any, decode: Callable, n_outputs: int, structure: Any) -> tuple:
    """Both decoders (feeding back and not) under a ``tf.cond`` on the bool tensor
    ``feed_previous``; the greedy one creates the variables, the other reuses them."""
    def branch(feed: bool) -> list:
        with variable_scope(get_variable_scope(), reuse=None if feed else True):
            outputs, state = decode(feed)
            return list(outputs) + nest.flatten(state)
    flat = cond(feed_previous, lambda: branch(True), lambda: branch(False))
    state_list = list(flat[n_outputs:])
    state = nest.pack_sequence_as(structure, state_list) if nest.is_nested(structure) \
        else state_list[0]
    return list(flat[:n_outputs]), state


def embedding_rnn_seq2seq(encoder_inputs: list, decoder_inputs: list, cell: Any,
                          num_encoder_symbols: int, num_decoder_symbols: int,
                          embedding_size: int, output_projection: Any = None,
                          feed_previous: Any = False, dtype: DTypeLike | None = None,
                          scope: Any = None) -> tuple:
    """Encoder over embedded ids (``EmbeddingWrapper``), ``embedding_rnn_decoder`` from its
    final state; outputs are symbol logits (``OutputProjectionWrapper``) unless
    ``output_projection`` is given.

    Args:
        encoder_inputs: A list of [batch] int tensors.
        decoder_inputs: A list of [batch] int tensors.
        cell: The RNN cell (the encoder uses a copy).
        num_encoder_symbols: The encoder's number of symbols.
        num_decoder_symbols: The decoder's number of symbols.
        embedding_size: The size of the embedding vectors.
        output_projection: None or ``(W, B)``.
        feed_previous: A bool, or a bool scalar tensor choosing at run time.
        dtype: The dtype of the states; the scope's (float32) when None.
        scope: The variable scope; ``embedding_rnn_seq2seq`` when None.

    Returns:
        ``(outputs, state)`` of the decoder.
    """
    with variable_scope(scope or "embedding_rnn_seq2seq") as vs:
        if dtype is not None:
            vs.set_dtype(dtype)
        else:
            dtype = vs.dtype
        encoder_cell = EmbeddingWrapper(copy.deepcopy(cell), embedding_classes=num_encoder_symbols,
                                        embedding_size=embedding_size)
        _, encoder_state = static_rnn(encoder_cell, encoder_inputs, dtype=dtype)
        if output_projection is None:
            cell = OutputProjectionWrapper(cell, num_decoder_symbols)

        def decode(feed: bool, update: bool = True) -> tuple:
            return embedding_rnn_decoder(decoder_inputs, encoder_state, cell,
                                         num_decoder_symbols, embedding_size,
                                         output_projection=output_projection,
                                         feed_previous=feed,
                                         update_embedding_for_previous=update)
        if isinstance(feed_previous, bool):
            return decode(feed_previous)
        return _cond_decoders(feed_previous, lambda f: decode(f, False), len(decoder_inputs),
                              encoder_state)


def embedding_tied_rnn_seq2seq(encoder_inputs: list, decoder_inputs: list, cell: Any,
                               num_symbols: int, embedding_size: int,
                               num_decoder_symbols: int | None = None,
                               output_projection: Any = None, feed_previous: Any = False,
                               dtype: DTypeLike | None = None, scope: Any = None) -> tuple:
    """``tied_rnn_seq2seq`` over ids embedded with one shared ``embedding``.

    Args:
        encoder_inputs: A list of [batch] int tensors.
        decoder_inputs: A list of [batch] int tensors.
        cell: The RNN cell.
        num_symbols: The number of symbols of both sides.
        embedding_size: The size of the embedding vectors.
        num_decoder_symbols: The number of output symbols; ``num_symbols`` when None.
        output_projection: None or ``(W, B)``.
        feed_previous: A bool, or a bool scalar tensor choosing at run time.
        dtype: The dtype of the states; float32 when None.
        scope: The variable scope; ``embedding_tied_rnn_seq2seq`` when None.

    Returns:
        ``(outputs, state)`` of the decoder.
    """
    with variable_scope(scope or "embedding_tied_rnn_seq2seq", dtype=dtype) as vs:
        dtype = vs.dtype
        _check_projection(output_projection, num_symbols, dtype)
        embedding = get_variable("embedding", [num_symbols, embedding_size], dtype=dtype)
        emb_enc = [embedding_lookup(embedding, x) for x in encoder_inputs]
        emb_dec = [embedding_lookup(embedding, x) for x in decoder_inputs]
        if output_projection is None:
            cell = OutputProjectionWrapper(cell, num_decoder_symbols or num_symbols)

        def decode(feed: bool, update: bool = True) -> tuple:
            loop = _extract_argmax_and_embed(embedding, output_projection, update) \
                if feed else None
            return tied_rnn_seq2seq(emb_enc, emb_dec, cell, loop_function=loop, dtype=dtype)
        if isinstance(feed_previous, bool):
            return decode(feed_previous)
        batch = encoder_inputs[0].shape.as_list()[0] if encoder_inputs[0].shape.ndims else None
        structure = cell.zero_state(batch if batch is not None
                                    else array_ops.shape(encoder_inputs[0])[0], dtype)
        return _cond_decoders(feed_previous, lambda f: decode(f, False), len(decoder_inputs),
                              structure)


def attention_decoder(decoder_inputs: list, initial_state: Any, attention_states: Any,
                      cell: Any, output_size: int | None = None, num_heads: int = 1,
                      loop_function: Callable | None = None, dtype: DTypeLike | None = None,
                      scope: Any = None, initial_state_attention: bool = False) -> tuple:
    """An RNN decoder attending to ``attention_states`` (Vinyals et al. 2015): each step runs
    the cell on ``linear([input] + attentions)``, computes the attentions
    ``softmax(v . tanh(W h + U state))`` over the attention states, and outputs
    ``linear([cell_output] + attentions)`` (scope ``AttnOutputProjection``).

    Args:
        decoder_inputs: A list of [batch, input_size] tensors.
        initial_state: The cell's starting state.
        attention_states: A [batch, attn_length, attn_size] tensor.
        cell: The RNN cell.
        output_size: The size of the outputs; the cell's when None.
        num_heads: How many attention heads read the attention states.
        loop_function: See ``rnn_decoder``.
        dtype: The dtype of the scope; float32 when None.
        scope: The variable scope; ``attention_decoder`` when None.
        initial_state_attention: Whether the first attentions come from the initial state
            (else zeros).

    Returns:
        ``(outputs, state)``.

    Raises:
        ValueError: With no inputs, no heads, an unknown attention size or input size.
    """
    if not decoder_inputs:
        raise ValueError("Must provide at least 1 input to attention decoder.")
    if num_heads < 1:
        raise ValueError("With less than 1 heads, use a non-attention decoder.")
    attention_states = convert_to_tensor(attention_states)
    if attention_states.shape.as_list()[2] is None:
        raise ValueError("Shape[2] of attention_states must be known: %s"
                         % attention_states.shape)
    if output_size is None:
        output_size = cell.output_size
    with variable_scope(scope or "attention_decoder", dtype=dtype) as vs:
        dtype = vs.dtype
        batch_size = array_ops.shape(decoder_inputs[0])[0]
        attn_length = attention_states.shape.as_list()[1]
        if attn_length is None:
            attn_length = array_ops.shape(attention_states)[1]
        attn_size = attention_states.shape.as_list()[2]
        # W1 * h_t for every attention state at once: a 1x1 convolution
        hidden = array_ops.reshape(attention_states, [-1, attn_length, 1, attn_size])
        hidden_features, v = [], []
        for a in range(num_heads):
            k = get_variable("AttnW_%d" % a, [1, 1, attn_size, attn_size])
            hidden_features.append(conv2d(hidden, k, [1, 1, 1, 1], "SAME"))
            v.append(get_variable("AttnV_%d" % a, [attn_size]))

        def attention(query: Any) -> list:
            if nest.is_nested(query):
                query = array_ops.concat(nest.flatten(query), 1)
            ds = []
            for a in range(num_heads):
                with variable_scope("Attention_%d" % a):
                    y = array_ops.reshape(_linear(query, attn_size, True), [-1, 1, 1, attn_size])
                    s = math_ops.reduce_sum(v[a] * math_ops.tanh(hidden_features[a] + y),
                                            [2, 3])
                    weights = softmax(s)
                    d = math_ops.reduce_sum(
                        array_ops.reshape(weights, [-1, attn_length, 1, 1]) * hidden, [1, 2])
                    ds.append(array_ops.reshape(d, [-1, attn_size]))
            return ds

        state, outputs, prev = initial_state, [], None
        attns = [array_ops.zeros(array_ops.stack([batch_size, attn_size]), dtype=dtype)
                 for _ in range(num_heads)]
        for a in attns:
            a.set_shape([None, attn_size])
        if initial_state_attention:
            attns = attention(initial_state)
        for i, inp in enumerate(decoder_inputs):
            if i > 0:
                get_variable_scope().reuse_variables()
            if loop_function is not None and prev is not None:
                with variable_scope("loop_function", reuse=True):
                    inp = loop_function(prev, i)
            input_size = inp.shape.with_rank(2).as_list()[1]
            if input_size is None:
                raise ValueError("Could not infer input size from input: %s" % inp.name)
            x = _linear([inp] + attns, input_size, True)
            cell_output, state = cell(x, state)
            if i == 0 and initial_state_attention:
                with variable_scope(get_variable_scope(), reuse=True):
                    attns = attention(state)
            else:
                attns = attention(state)
            with variable_scope("AttnOutputProjection"):
                output = _linear([cell_output] + attns, output_size, True)
            if loop_function is not None:
                prev = output
            outputs.append(output)
    return outputs, state


def embedding_attention_decoder(decoder_inputs: list, initial_state: Any, attention_states: Any,
                                cell: Any, num_symbols: int, embedding_size: int,
                                num_heads: int = 1, output_size: int | None = None,
                                output_projection: Any = None, feed_previous: bool = False,
                                update_embedding_for_previous: bool = True,
                                dtype: DTypeLike | None = None, scope: Any = None,
                                initial_state_attention: bool = False) -> tuple:
    """``attention_decoder`` over embedded symbol ids (variable ``embedding``).

    Args:
        decoder_inputs: A list of [batch] int tensors.
        initial_state: The cell's starting state.
        attention_states: A [batch, attn_length, attn_size] tensor.
        cell: The RNN cell.
        num_symbols: How many symbols there are.
        embedding_size: The size of the embedding vectors.
        num_heads: How many attention heads.
        output_size: The size of the outputs; the cell's when None.
        output_projection: None or ``(W, B)``.
        feed_previous: See ``embedding_rnn_decoder``.
        update_embedding_for_previous: See ``embedding_rnn_decoder``.
        dtype: The dtype of the scope.
        scope: The variable scope; ``embedding_attention_decoder`` when None.
        initial_state_attention: See ``attention_decoder``.

    Returns:
        ``(outputs, state)``.
    """
    if output_size is None:
        output_size = cell.output_size
    if output_projection is not None:
        convert_to_tensor(output_projection[1], dtype=dtype).shape.assert_is_compatible_with(
            [num_symbols])
    with variable_scope(scope or "embedding_attention_decoder", dtype=dtype):
        embedding = get_variable("embedding", [num_symbols, embedding_size])
        loop_function = _extract_argmax_and_embed(
            embedding, output_projection, update_embedding_for_previous) \
            if feed_previous else None
        emb_inp = [embedding_lookup(embedding, i) for i in decoder_inputs]
        return attention_decoder(emb_inp, initial_state, attention_states, cell,
                                 output_size=output_size, num_heads=num_heads,
                                 loop_function=loop_function,
                                 initial_state_attention=initial_state_attention)


def embedding_attention_seq2seq(encoder_inputs: list, decoder_inputs: list, cell: Any,
                                num_encoder_symbols: int, num_decoder_symbols: int,
                                embedding_size: int, encoder_cell: Any = None,
                                num_heads: int = 1, output_projection: Any = None,
                                feed_previous: Any = False, dtype: DTypeLike | None = None,
                                scope: Any = None,
                                initial_state_attention: bool = False) -> tuple:
    """The translation tutorial's model: an encoder over embedded ids whose outputs the
    ``embedding_attention_decoder`` attends to, from the encoder's final state.

    Args:
        encoder_inputs: A list of [batch] int tensors.
        decoder_inputs: A list of [batch] int tensors.
        cell: The RNN cell.
        num_encoder_symbols: The encoder's number of symbols.
        num_decoder_symbols: The decoder's number of symbols.
        embedding_size: The size of the embedding vectors.
        encoder_cell: The encoder's cell; a copy of ``cell`` when None.
        num_heads: How many attention heads.
        output_projection: None or ``(W, B)``; without it the outputs are symbol logits.
        feed_previous: A bool, or a bool scalar tensor choosing at run time.
        dtype: The dtype of the states; float32 when None.
        scope: The variable scope; ``embedding_attention_seq2seq`` when None.
        initial_state_attention: See ``attention_decoder``.

    Returns:
        ``(outputs, state)`` of the decoder.
    """
    with variable_scope(scope or "embedding_attention_seq2seq", dtype=dtype) as vs:
        dtype = vs.dtype
        encoder_cell = EmbeddingWrapper(
            copy.deepcopy(cell) if encoder_cell is None else encoder_cell,
            embedding_classes=num_encoder_symbols, embedding_size=embedding_size)
        encoder_outputs, encoder_state = static_rnn(encoder_cell, encoder_inputs, dtype=dtype)
        attention_states = array_ops.concat(
            [array_ops.reshape(e, [-1, 1, cell.output_size]) for e in encoder_outputs], 1)
        output_size = None
        if output_projection is None:
            cell = OutputProjectionWrapper(cell, num_decoder_symbols)
            output_size = num_decoder_symbols

        def decode(feed: bool, update: bool = True) -> tuple:
            return embedding_attention_decoder(
                decoder_inputs, encoder_state, attention_states, cell, num_decoder_symbols,
                embedding_size, num_heads=num_heads, output_size=output_size,
                output_projection=output_projection, feed_previous=feed,
                update_embedding_for_previous=update,
                initial_state_attention=initial_state_attention)
        if isinstance(feed_previous, bool):
            return decode(feed_previous)
        return _cond_decoders(feed_previous, lambda f: decode(f, False), len(decoder_inputs),
                              encoder_state)


def one2many_rnn_seq2seq(encoder_inputs: list, decoder_inputs_dict: dict, enc_cell: Any,
                         dec_cells_dict: dict, num_encoder_symbols: int,
                         num_decoder_symbols_dict: dict, embedding_size: int,
                         feed_previous: Any = False, dtype: DTypeLike | None = None,
                         scope: Any = None) -> tuple:
    """One embedded encoder, one ``embedding_rnn_decoder`` per task (scopes
    ``one2many_decoder_<name>``).

    Args:
        encoder_inputs: A list of [batch] int tensors.
        decoder_inputs_dict: Decoder name -> its list of [batch] int tensors.
        enc_cell: The encoder's cell.
        dec_cells_dict: Decoder name -> its cell.
        num_encoder_symbols: The encoder's number of symbols.
        num_decoder_symbols_dict: Decoder name -> its number of symbols.
        embedding_size: The size of the embedding vectors.
        feed_previous: A bool, or a bool scalar tensor choosing at run time.
        dtype: The dtype of the states; float32 when None.
        scope: The variable scope; ``one2many_rnn_seq2seq`` when None.

    Returns:
        ``(outputs_dict, state_dict)``.

    Raises:
        TypeError: If a cell is not an RNNCell.
        ValueError: If the decoders' names differ from their inputs'.
    """
    if not isinstance(enc_cell, RNNCell):
        raise TypeError("enc_cell is not an RNNCell: %s" % type(enc_cell))
    if set(dec_cells_dict) != set(decoder_inputs_dict):
        raise ValueError("keys of dec_cells_dict != keys of decodre_inputs_dict")
    for dec_cell in dec_cells_dict.values():
        if not isinstance(dec_cell, RNNCell):
            raise TypeError("dec_cell is not an RNNCell: %s" % type(dec_cell))
    outputs_dict, state_dict = {}, {}
    with variable_scope(scope or "one2many_rnn_seq2seq", dtype=dtype) as vs:
        dtype = vs.dtype
        enc_cell = EmbeddingWrapper(enc_cell, embedding_classes=num_encoder_symbols,
                                    embedding_size=embedding_size)
        _, encoder_state = static_rnn(enc_cell, encoder_inputs, dtype=dtype)
        for name, decoder_inputs in decoder_inputs_dict.items():
            symbols = num_decoder_symbols_dict[name]
            with variable_scope("one2many_decoder_" + str(name)):
                dec_cell = OutputProjectionWrapper(dec_cells_dict[name], symbols)

                def decode(feed: bool, update: bool = True) -> tuple:
                    return embedding_rnn_decoder(
                        decoder_inputs, encoder_state, dec_cell,  # noqa: B023
                        symbols, embedding_size, feed_previous=feed,  # noqa: B023
                        update_embedding_for_previous=update)
                if isinstance(feed_previous, bool):
                    outputs, state = decode(feed_previous)
                else:
                    outputs, state = _cond_decoders(feed_previous,
                                                    lambda f: decode(f, False),  # noqa: B023
                                                    len(decoder_inputs), encoder_state)
            outputs_dict[name], state_dict[name] = outputs, state
    return outputs_dict, state_dict


def sequence_loss_by_example(logits: list, targets: list, weights: list,
                             average_across_timesteps: bool = True,
                             softmax_loss_function: Callable | None = None,
                             name: str | None = None) -> Any:
    """Per example: the sum over steps of the weighted cross entropies, divided by the sum of
    the weights (+1e-12) when ``average_across_timesteps``.

    Args:
        logits: A list of [batch, num_symbols] tensors.
        targets: A list of [batch] int tensors.
        weights: A list of [batch] float tensors.
        average_across_timesteps: Whether to divide by the total weight.
        softmax_loss_function: ``f(labels=, logits=)`` instead of the sparse softmax cross
            entropy.
        name: The name scope; ``sequence_loss_by_example`` when None.

    Returns:
        A [batch] tensor of log-perplexities.

    Raises:
        ValueError: If the three lists' lengths differ.
    """
    if len(targets) != len(logits) or len(weights) != len(logits):
        raise ValueError("Lengths of logits, weights, and targets must be the same %d, %d, %d."
                         % (len(logits), len(weights), len(targets)))
    with name_scope(name or "sequence_loss_by_example"):
        log_perp_list = []
        for logit, target, weight in zip(logits, targets, weights):
            if softmax_loss_function is None:
                crossent = sparse_softmax_cross_entropy_with_logits(
                    labels=array_ops.reshape(target, [-1]), logits=logit)
            else:
                crossent = softmax_loss_function(labels=target, logits=logit)
            log_perp_list.append(crossent * weight)
        log_perps = math_ops.add_n(log_perp_list)
        if average_across_timesteps:
            total_size = math_ops.add_n(weights) + 1e-12
            log_perps /= total_size
    return log_perps


def sequence_loss(logits: list, targets: list, weights: list,
                  average_across_timesteps: bool = True, average_across_batch: bool = True,
                  softmax_loss_function: Callable | None = None, name: str | None = None) -> Any:
    """The sum of ``sequence_loss_by_example``, divided by the batch size when
    ``average_across_batch``.

    Args:
        logits: A list of [batch, num_symbols] tensors.
        targets: A list of [batch] int tensors.
        weights: A list of [batch] float tensors.
        average_across_timesteps: Whether to divide by the total weight.
        average_across_batch: Whether to divide by the batch size.
        softmax_loss_function: See ``sequence_loss_by_example``.
        name: The name scope; ``sequence_loss`` when None.

    Returns:
        A scalar: the average log-perplexity per symbol.
    """
    with name_scope(name or "sequence_loss"):
        cost = math_ops.reduce_sum(sequence_loss_by_example(
            logits, targets, weights, average_across_timesteps=average_across_timesteps,
            softmax_loss_function=softmax_loss_function))
        if average_across_batch:
            batch_size = array_ops.shape(targets[0])[0]
            return cost / math_ops.cast(batch_size, cost.dtype)
        return cost


def model_with_buckets(encoder_inputs: list, decoder_inputs: list, targets: list,
                       weights: list, buckets: list, seq2seq: Callable,
                       softmax_loss_function: Callable | None = None,
                       per_example_loss: bool = False, name: str | None = None) -> tuple:
    """One model per bucket ``(input length, output length)``, sharing the variables, each
    with its ``sequence_loss`` (or ``sequence_loss_by_example``).

    Args:
        encoder_inputs: The encoder inputs (at least the last bucket's length).
        decoder_inputs: The decoder inputs.
        targets: The targets (at least the last bucket's output length).
        weights: The weights (as long as ``targets``).
        buckets: A list of ``(input size, output size)`` pairs, longest last.
        seq2seq: ``seq2seq(encoder_inputs, decoder_inputs) -> (outputs, state)``.
        softmax_loss_function: See ``sequence_loss_by_example``.
        per_example_loss: Whether the losses are per example.
        name: The name scope; ``model_with_buckets`` when None.

    Returns:
        ``(outputs, losses)``: per bucket, its outputs and its loss.

    Raises:
        ValueError: If an input list is shorter than the last bucket.
    """
    if len(encoder_inputs) < buckets[-1][0]:
        raise ValueError("Length of encoder_inputs (%d) must be at least that of last bucket "
                         "(%d)." % (len(encoder_inputs), buckets[-1][0]))
    if len(targets) < buckets[-1][1]:
        raise ValueError("Length of targets (%d) must be at least that of lastbucket (%d)."
                         % (len(targets), buckets[-1][1]))
    if len(weights) < buckets[-1][1]:
        raise ValueError("Length of weights (%d) must be at least that of lastbucket (%d)."
                         % (len(weights), buckets[-1][1]))
    losses, outputs = [], []
    with name_scope(name or "model_with_buckets"):
        for j, bucket in enumerate(buckets):
            with variable_scope(get_variable_scope(), reuse=True if j > 0 else None):
                bucket_outputs, _ = seq2seq(encoder_inputs[:bucket[0]],
                                            decoder_inputs[:bucket[1]])
                outputs.append(bucket_outputs)
                loss_fn = sequence_loss_by_example if per_example_loss else sequence_loss
                losses.append(loss_fn(outputs[-1], targets[:bucket[1]], weights[:bucket[1]],
                                      softmax_loss_function=softmax_loss_function))
    return outputs, losses


__all__ = ["attention_decoder", "basic_rnn_seq2seq", "embedding_attention_decoder",
           "embedding_attention_seq2seq", "embedding_rnn_decoder", "embedding_rnn_seq2seq",
           "embedding_tied_rnn_seq2seq", "model_with_buckets", "one2many_rnn_seq2seq",
           "rnn_decoder", "sequence_loss", "sequence_loss_by_example", "tied_rnn_seq2seq"]
