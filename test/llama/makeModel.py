#!/usr/bin/env python3
"""Writes a tiny llama-architecture GGUF model for the llama test stage (no download).

Usage: python3 makeModel.py OUT.gguf [SEED [EOS_BIAS OUT_STD QUOTE_BIAS]]

Runs inside the sid chroot (python3-gguf, python3-numpy). What it makes:
- a SentencePiece-style ("llama") vocabulary: the 256 byte tokens, the ChatML and tool tags, and
  a few hundred English and JSON words with every prefix (the tokenizer merges pieces that exist,
  so a word is only one token when its prefixes are there too). English prose is then about one
  token per word and unknown words fall back to a token per character, so prompts are counted
  like a real, if small, vocabulary rather than one token per byte;
- a ChatML chat template that renders `tools` in the Hermes / Qwen2.5 way (`<tools>` in the
  system turn, `<tool_call>` JSON in assistant turns, `<tool_response>` for results), which
  llama-server's `--jinja` recognises for tool calls;
- random weights, 48 wide, 2 layers, f16 (about 0.8 MB), untied output. A constant dimension
  of the embeddings carries per-token biases: the end of turn gets a little (answers end by
  themselves after a few dozen tokens, never at the first one), the closing quote some (string
  arguments end), the tags and byte tokens a negative one;
- one hand-set attention circuit (see below) so that a request with tools and no tool call or
  result yet answers with a tool call, and any other answers in text: one tool round per
  conversation, decided by the prompt rather than by chance.

Optional arguments after SEED tune the biases (EOS, output spread, quote); the defaults are the
tuned ones.
"""
import sys

import numpy as np
import gguf

OUT = sys.argv[1]
SEED = int(sys.argv[2]) if len(sys.argv) > 2 else 7
rng = np.random.default_rng(SEED)

N_EMBD, N_LAYER, N_HEAD, N_FF, N_CTX_TRAIN = 48, 2, 4, 96, 8192
# How much more of the shared direction the end-of-turn token gets (tuned: answers of a few dozen tokens).
EOS_BIAS = float(sys.argv[3]) if len(sys.argv) > 3 else 0.55
OUT_STD = float(sys.argv[4]) if len(sys.argv) > 4 else 0.25
QUOTE_BIAS = float(sys.argv[5]) if len(sys.argv) > 5 else 0.8

WORDS = """
the be to of and a in that have i it for not on with he as you do at this but his by from they we
say her she or an will my one all would there their what so up out if about who get which go me
when make can like time no just him know take people into year your good some could them see other
than then now look only come its over think also back after use two how our work first well way
even new want because any these give day most us is are was were been has had did does done said
hello hi thanks thank please yes sorry okay help question answer again more less long short small
large big little old young right left here where why very much many each every few same different
own last next early late high low great best better bad world life hand part child eye woman man
place week case point government company number group problem fact word words text line lines
file files folder path name names read write list find search open close run start stop call
tool tools function functions result results error errors message messages content type types
string number integer boolean object array null true false required properties description
arguments parameters items enum default value values key keys id model models chat user system
assistant role json code data test tests window context token tokens summary conversation
earlier older recent turn turns compact compacted elided note again count counts size limit
input output request response server client stream streaming usage prompt completion choices
delta finish reason stop length weather city today tomorrow rain sun cold warm temperature
paris london tokyo berlin rome madrid what's it's don't i'm you're can't won't
""".split()

SPECIAL_CONTROL = ["<|im_start|>", "<|im_end|>"]
SPECIAL_USER = ["<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>", "<tools>", "</tools>"]

tokens: list[str] = ["<unk>", "<s>", "</s>"]
types: list[int] = [gguf.TokenType.UNKNOWN, gguf.TokenType.CONTROL, gguf.TokenType.CONTROL]
scores: list[float] = [0.0, 0.0, 0.0]
for b in range(256):
    tokens.append(f"<0x{b:02X}>")
    types.append(gguf.TokenType.BYTE)
    scores.append(0.0)
for t in SPECIAL_CONTROL:
    tokens.append(t)
    types.append(gguf.TokenType.CONTROL)
    scores.append(0.0)
for t in SPECIAL_USER:
    tokens.append(t)
    types.append(gguf.TokenType.USER_DEFINED)
    scores.append(0.0)

pieces: dict[str, None] = {}
# Every printable ASCII character alone and after the word-start mark, so punctuation and
# digits are one token each rather than a byte token.
for c in map(chr, range(33, 127)):
    pieces[c] = None
    pieces["\u2581" + c] = None
pieces["\u2581"] = None
for w in WORDS:
    for form in (w, w.capitalize(), "\u2581" + w, "\u2581" + w.capitalize()):
        for i in range(2, len(form) + 1):
            pieces[form[:i]] = None
for p in pieces:
    tokens.append(p)
    types.append(gguf.TokenType.NORMAL)
    # Longer pieces first: a whole word wins over its parts.
    scores.append(float(len(p)))

N_VOCAB = len(tokens)
ID = {t: i for i, t in enumerate(tokens)}

# The template: ChatML, with tools rendered as Hermes 2 Pro / Qwen2.5 templates do.
# llama.cpp renders it like transformers does (trim_blocks): a newline right after a `%}` is
# dropped, so every newline here stands before a tag or inside `{{ }}`.
TEMPLATE = (
    "{% if tools %}"
    "<|im_start|>system\n"
    "{% if messages[0].role == 'system' %}{{ messages[0].content }}\n\n{% endif %}"
    "# Tools\n\nYou may call one or more functions. Their signatures are inside <tools></tools>:\n<tools>\n"
    "{% for tool in tools %}{{ tool | tojson }}\n{% endfor %}"
    # No literal call tags here: the model's circuit (below) reads `</tool_call>` as "a call was made".
    '</tools>\n\nFor each call, answer with {"name": <function-name>, "arguments": <args-json-object>}'
    " between tool_call tags.<|im_end|>\n"
    "{% elif messages[0].role == 'system' %}"
    "<|im_start|>system\n{{ messages[0].content }}<|im_end|>\n"
    "{% endif %}"
    "{% for message in messages %}"
    "{% if message.role == 'user' or (message.role == 'system' and not loop.first)"
    " or (message.role == 'assistant' and not message.tool_calls) %}"
    "<|im_start|>{{ message.role }}\n{{ message.content }}<|im_end|>\n"
    "{% elif message.role == 'assistant' %}"
    "<|im_start|>assistant\n"
    "{% if message.content %}{{ message.content }}\n{% endif %}"
    # One call per answer (the first): llama-server then allows no parallel calls, so a model
    # whose text is random still ends its answer after one call.
    "{% for tc in message.tool_calls[:1] %}"
    "{% set f = tc.function if tc.function is defined else tc %}"
    '<tool_call>\n{"name": "{{ f.name }}", "arguments": '
    "{{ f.arguments | tojson }}"
    "}\n</tool_call>"
    "{% endfor %}<|im_end|>\n"
    "{% elif message.role == 'tool' %}"
    "{% if loop.first or messages[loop.index0 - 1].role != 'tool' %}<|im_start|>user{% endif %}"
    "{{ '\\n' }}<tool_response>\n{{ message.content }}\n</tool_response>"
    "{% if loop.last or messages[loop.index0 + 1].role != 'tool' %}<|im_end|>\n{% endif %}"
    "{% endif %}"
    "{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)

w = gguf.GGUFWriter(OUT, "llama")
w.add_name("gws-tiny")
w.add_context_length(N_CTX_TRAIN)
w.add_embedding_length(N_EMBD)
w.add_block_count(N_LAYER)
w.add_feed_forward_length(N_FF)
w.add_head_count(N_HEAD)
w.add_head_count_kv(N_HEAD)
w.add_rope_dimension_count(N_EMBD // N_HEAD)
# Huge: only the first pair of each head turns with position, which the circuit below avoids.
w.add_rope_freq_base(1e30)
w.add_layer_norm_rms_eps(1e-5)
w.add_file_type(gguf.LlamaFileType.MOSTLY_F16)
w.add_vocab_size(N_VOCAB)

w.add_tokenizer_model("llama")
w.add_tokenizer_pre("default")
w.add_token_list(tokens)
w.add_token_scores(scores)
w.add_token_types(types)
w.add_bos_token_id(ID["<s>"])
w.add_eos_token_id(ID["<|im_end|>"])
w.add_pad_token_id(ID["<|im_end|>"])
w.add_unk_token_id(ID["<unk>"])
w.add_add_bos_token(False)
w.add_add_eos_token(False)
w.add_add_space_prefix(False)
w.add_chat_template(TEMPLATE)


def mat(rows: int, cols: int, std: float) -> np.ndarray:
    return (rng.standard_normal((rows, cols)) * std).astype(np.float16)


# Token embeddings: random, with one constant dimension (0) that survives the layers and the
# final norm. The output rows are random too, with nothing in that dimension except for the end
# of turn, which so gets a steady bias (answers end by themselves, a few dozen tokens on average)
# and the tags and byte tokens, which get a negative one. Untied, so a token does not simply
# predict itself.
emb = rng.standard_normal((N_VOCAB, N_EMBD)).astype(np.float32) * 0.5
emb[:, 0] = 3.0
out = rng.standard_normal((N_VOCAB, N_EMBD)).astype(np.float32) * OUT_STD
out[:, 0] = 0.0
out[ID["<|im_end|>"], 0] = EOS_BIAS
for t in SPECIAL_USER + ["<|im_start|>", "<unk>", "<s>", "</s>"]:
    out[ID[t], 0] = -2.0
out[3 : 3 + 256, 0] = -0.5
# A closing quote now and then, so a string argument in a tool call ends after a few words.
out[ID['"'], 0] = QUOTE_BIAS
# The closing tag as one token rather than "<", "/", ... (the circuit below looks for the token).
out[ID["</tool_call>"], 0] = 0.0
out[ID["<"], 0] = out[ID["\u2581<"], 0] = -2.0

# One hand-set circuit so that tool calls happen when a test wants them: a request whose prompt
# renders `<tools>` (tools were sent) and no `<tool_response>` yet (no tool result came back)
# starts its answer with `<tool_call>` and a newline; llama-server's grammar then makes the call valid JSON for
# the schema. Once a call was made (`</tool_call>`) or a tool result came back, the answer is text:
# one tool round per conversation. Layer 0, head 0 looks for `<tools>` and head 1 for
# `<tool_call>`, `</tool_call>` or `<tool_response>` (each token carries a marker dimension; every other query and
# key is zero there, and RoPE barely turns the last pair of a head with this frequency base), and
# they write +FLAG and -FLAG into one residual dimension that only the `<tool_call>` row reads.
MARK_TOOLS, MARK_RESULT, FLAG = N_EMBD - 1, N_EMBD - 2, N_EMBD - 3
HEAD_DIM = N_EMBD // N_HEAD
emb[:, [MARK_TOOLS, MARK_RESULT, FLAG]] = 0.0
emb[ID["<tools>"], MARK_TOOLS] = 20.0
emb[ID["<tool_response>"], MARK_RESULT] = 20.0
emb[ID["</tool_call>"], MARK_RESULT] = 20.0
out[:, [MARK_TOOLS, MARK_RESULT, FLAG]] = 0.0
out[ID["<tool_call>"], FLAG] = 5.0
# llama-server starts the tool-call grammar on "<tool_call>" and a newline: the tag asks for the
# newline byte next, and head 1 sees it, so the flag is off for the rest of the answer.
emb[ID["<tool_call>"], MARK_RESULT] = 20.0
out[3 + 0x0A, MARK_RESULT] = 5.0

# Never an empty answer (an empty summary is a failed compaction): the newline that ends the
# generation prompt ("<|im_start|>assistant\n") pushes the end of turn down for the next token.
NO_END = N_EMBD - 4
emb[:, NO_END] = 0.0
out[:, NO_END] = 0.0
emb[3 + 0x0A, NO_END] = 8.0
out[ID["<|im_end|>"], NO_END] = -5.0

w.add_tensor("token_embd.weight", emb.astype(np.float16))
w.add_tensor("output.weight", out.astype(np.float16))
w.add_tensor("output_norm.weight", np.ones(N_EMBD, dtype=np.float32))
for i in range(N_LAYER):
    p = f"blk.{i}."
    q = np.zeros((N_EMBD, N_EMBD), dtype=np.float32)
    k = np.zeros((N_EMBD, N_EMBD), dtype=np.float32)
    v = np.zeros((N_EMBD, N_EMBD), dtype=np.float32)
    o = np.zeros((N_EMBD, N_EMBD), dtype=np.float32)
    if i == 0:
        # Head 1 a little stronger, so that both together leave the flag below zero.
        for head, mark, sign in ((0, MARK_TOOLS, 1.0), (1, MARK_RESULT, -1.1)):
            d = head * HEAD_DIM + HEAD_DIM - 1  # the head's last rotary pair: RoPE leaves it alone
            q[d, 0] = 1.7  # every ordinary token asks (dimension 0 is the constant)
            k[d, mark] = 1.7  # only the marker token answers
            v[d, mark] = 0.95
            o[FLAG, d] = 0.95 * sign
    w.add_tensor(p + "attn_norm.weight", np.ones(N_EMBD, dtype=np.float32))
    w.add_tensor(p + "attn_q.weight", q.astype(np.float16))
    w.add_tensor(p + "attn_k.weight", k.astype(np.float16))
    w.add_tensor(p + "attn_v.weight", v.astype(np.float16))
    w.add_tensor(p + "attn_output.weight", o.astype(np.float16))
    w.add_tensor(p + "ffn_norm.weight", np.ones(N_EMBD, dtype=np.float32))
    w.add_tensor(p + "ffn_gate.weight", mat(N_FF, N_EMBD, 0.02))
    w.add_tensor(p + "ffn_up.weight", mat(N_FF, N_EMBD, 0.02))
    w.add_tensor(p + "ffn_down.weight", mat(N_EMBD, N_FF, 0.02))

w.write_header_to_file()
w.write_kv_data_to_file()
w.write_tensors_to_file()
w.close()
print(f"wrote {OUT}: {N_VOCAB} tokens, {N_EMBD} wide, {N_LAYER} layers")
