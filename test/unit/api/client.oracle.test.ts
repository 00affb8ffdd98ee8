// The official `openai` package as an oracle. A corpus of canonical chat streams (recorded
// shapes, then randomly re-framed and re-chunked with a seeded RNG) is fed as the same SSE bytes to
// our GatewayClient.streamChat and to openai's ChatCompletionStream (through its own SSE decoder,
// via an injected fetch). The accumulated assistant messages must be equal, and both must equal
// the message the generator built the stream from.
//
// Known differences, where ours must be right and openai is not (wire-quirks.md):
//  1. reasoning fragments: openai Object.assign()s unknown delta fields, so `reasoning_content`
//     (and `reasoning`) end up holding only the LAST fragment; ours joins them all.
//  2. parallel calls that all arrive at `index: 0` with distinct ids: openai merges them into one
//     call (ids overwritten, arguments concatenated); ours keeps one call per id.
//  3. tool-call deltas without `index`: openai files them under `tool_calls[undefined]` and its
//     final message has no usable calls (or it throws); ours opens a call per new id and appends
//     id-less fragments to the last call.
// Comparison note: openai reports an empty text as `content: null`; ours reports `""` for a text
// turn and `null` beside tool calls. Both are normalised to null before comparing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import OpenAI from 'openai';
import type { ChatResult, ToolCall } from '../../../src/api/chat/wire';
import { GatewayClient } from '../../../src/api/client';
import { fragments, int, pick, rng, type Rand } from '../../faults/streamModel';

const WORDS = [
  'the',
  'gateway',
  'streams',
  'tokens',
  'über',
  'naïve',
  '你好',
  '世界',
  '🚀',
  'emoji👍🏽',
  '"quoted"',
  'back\\slash',
  'tab\there',
  'line\nbreak',
  '```ts\nconst x = 1;\n```',
  '- item',
  '**bold**',
  '<b>html</b>',
  '{"json": true}',
  'data: fake',
  '[DONE]',
  '\r\n',
];

function text(r: Rand, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(pick(r, WORDS));
  return out.join(' ');
}

interface Expected {
  content: string | null;
  reasoning?: string;
  toolCalls?: ToolCall[];
  finish: string;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

interface Case {
  name: string;
  chunks: object[];
  expected: Expected;
  difference?: 'reasoning-overwrite' | 'index0-merge' | 'no-index';
}

const ID = 'chatcmpl-oracle';
const MODEL = 'gw-oracle';

function chunk(choices: object[], extra: object = {}): object {
  return { id: ID, object: 'chat.completion.chunk', created: 1_700_000_000, model: MODEL, choices, ...extra };
}

function first(kind: 'empty' | 'null' | 'refusal-null'): object {
  if (kind === 'null') return { role: 'assistant', content: null };
  if (kind === 'refusal-null') return { role: 'assistant', content: '', refusal: null };
  return { role: 'assistant', content: '' };
}

function finishChunks(
  r: Rand,
  finish: string,
  usageMode: 'separate' | 'finish' | 'none',
  nullUsage: boolean,
): { chunks: object[]; usage?: Expected['usage'] } {
  const prompt = int(r, 1, 5000);
  const completion = int(r, 1, 5000);
  const usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
  const extra = nullUsage ? { usage: null } : {};
  if (usageMode === 'finish')
    return { chunks: [chunk([{ index: 0, delta: {}, finish_reason: finish }], { usage })], usage };
  const out = [chunk([{ index: 0, delta: {}, finish_reason: finish }], extra)];
  if (usageMode === 'separate') out.push(chunk([], { usage }));
  return { chunks: out, usage: usageMode === 'separate' ? usage : undefined };
}

function textCase(r: Rand, i: number): Case {
  const firstKind = pick(r, ['empty', 'null', 'refusal-null'] as const);
  const finish = pick(r, ['stop', 'stop', 'length', 'content_filter']);
  const usageMode = pick(r, ['separate', 'finish', 'none'] as const);
  const nullUsage = usageMode === 'separate' && r() < 0.5;
  const full = text(r, int(r, 1, 120));
  const chunks: object[] = [
    chunk([{ index: 0, delta: first(firstKind), finish_reason: null }], nullUsage ? { usage: null } : {}),
  ];
  for (const f of fragments(r, full, 12))
    chunks.push(chunk([{ index: 0, delta: { content: f }, finish_reason: null }], nullUsage ? { usage: null } : {}));
  const end = finishChunks(r, finish, usageMode, nullUsage);
  chunks.push(...end.chunks);
  return {
    name: `text #${i} (${firstKind} first delta, ${finish}, usage ${usageMode})`,
    chunks,
    expected: { content: full, finish, usage: end.usage },
  };
}

function argsFor(r: Rand): string {
  const obj: Record<string, unknown> = {
    path: `src/${text(r, 2).replace(/\s/g, '_')}.ts`,
    n: int(r, 0, 1e6),
    flag: r() < 0.5,
    note: text(r, int(r, 0, 30)),
  };
  if (r() < 0.3) obj.nested = { list: [1, 'two', { three: 3 }], empty: {} };
  return JSON.stringify(obj);
}

type ToolStyle = 'canonical' | 'whole' | 'multi-per-chunk' | 'args-with-finish' | 'all-index-0' | 'no-index';

function toolCase(r: Rand, i: number, style: ToolStyle): Case {
  const n = style === 'all-index-0' || style === 'no-index' ? int(r, 2, 4) : int(r, 1, 4);
  const calls: ToolCall[] = [];
  for (let k = 0; k < n; k++)
    calls.push({
      id: `call_${i}_${k}_${int(r, 0, 1e9).toString(36)}`,
      type: 'function',
      function: { name: pick(r, ['read_file', 'list_dir', 'search', 'run_tests']), arguments: argsFor(r) },
    });
  const lead = r() < 0.4 ? text(r, int(r, 1, 20)) : '';
  const usageMode = pick(r, ['separate', 'finish', 'none'] as const);
  const chunks: object[] = [chunk([{ index: 0, delta: first('empty'), finish_reason: null }])];
  for (const f of lead ? fragments(r, lead, 10) : [])
    chunks.push(chunk([{ index: 0, delta: { content: f }, finish_reason: null }]));
  const delta = (tc: object[]) => chunk([{ index: 0, delta: { tool_calls: tc }, finish_reason: null }]);
  const idx = (k: number) => (style === 'all-index-0' ? { index: 0 } : style === 'no-index' ? {} : { index: k });
  let heldForFinish: object[] | undefined;
  if (style === 'whole') {
    for (const [k, c] of calls.entries()) chunks.push(delta([{ index: k, ...c }]));
  } else if (style === 'multi-per-chunk') {
    chunks.push(
      delta(
        calls.map((c, k) => ({
          index: k,
          id: c.id,
          type: 'function',
          function: { name: c.function.name, arguments: '' },
        })),
      ),
    );
    const pieces = calls.map((c) => fragments(r, c.function.arguments, 15));
    for (let step = 0; pieces.some((p) => step < p.length); step++) {
      const row = pieces.flatMap((p, k) => (step < p.length ? [{ index: k, function: { arguments: p[step] } }] : []));
      chunks.push(delta(row));
    }
  } else {
    for (const [k, c] of calls.entries()) {
      chunks.push(
        delta([{ ...idx(k), id: c.id, type: 'function', function: { name: c.function.name, arguments: '' } }]),
      );
      const pieces = fragments(r, c.function.arguments, 9);
      if (style === 'args-with-finish' && k === calls.length - 1) {
        const last = pieces.pop()!;
        heldForFinish = [{ ...idx(k), function: { arguments: last } }];
      }
      for (const p of pieces) chunks.push(delta([{ ...idx(k), function: { arguments: p } }]));
    }
  }
  const end = finishChunks(r, 'tool_calls', usageMode, false);
  if (heldForFinish) {
    // vLLM: the last argument fragment rides on the finish chunk.
    (end.chunks[0] as { choices: Array<{ delta: object }> }).choices[0]!.delta = { tool_calls: heldForFinish };
  }
  chunks.push(...end.chunks);
  const difference = style === 'all-index-0' ? 'index0-merge' : style === 'no-index' ? 'no-index' : undefined;
  return {
    name: `tools #${i} (${style}, ${n} calls${lead ? ', with text' : ''})`,
    chunks,
    expected: { content: lead || null, toolCalls: calls, finish: 'tool_calls', usage: end.usage },
    difference,
  };
}

function reasoningCase(r: Rand, i: number): Case {
  const field = pick(r, ['reasoning_content', 'reasoning'] as const);
  const thought = text(r, int(r, 5, 60));
  const answer = text(r, int(r, 1, 30));
  const chunks: object[] = [chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }])];
  for (const f of fragments(r, thought, 8))
    chunks.push(chunk([{ index: 0, delta: { content: null, [field]: f }, finish_reason: null }]));
  for (const f of fragments(r, answer, 8))
    chunks.push(chunk([{ index: 0, delta: { content: f }, finish_reason: null }]));
  chunks.push(...finishChunks(r, 'stop', 'separate', false).chunks);
  return {
    name: `reasoning #${i} (delta.${field})`,
    chunks,
    expected: { content: answer, reasoning: thought, finish: 'stop' },
    difference: 'reasoning-overwrite',
  };
}

interface Framing {
  crlf: boolean;
  comments: boolean;
  eventNames: boolean;
  noSpace: boolean;
}

function sse(chunks: object[], f: Framing, r: Rand): string {
  const nl = f.crlf ? '\r\n' : '\n';
  let out = '';
  for (const c of chunks) {
    if (f.comments && r() < 0.3) out += `: PING${nl}${nl}`;
    if (f.eventNames) out += `event: message${nl}`;
    out += `data:${f.noSpace ? '' : ' '}${JSON.stringify(c)}${nl}${nl}`;
  }
  return out + `data: [DONE]${nl}${nl}`;
}

/** The same bytes, cut at random points (down to single bytes, splitting CR/LF pairs and UTF-8 sequences). */
function pieces(r: Rand, bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  // Byte-by-byte feeding costs microseconds per byte in both parsers; keep it to the smaller streams.
  const maxPiece = pick(r, bytes.length < 6000 ? [1, 3, 17, 64, 512, 1 << 20] : [17, 64, 512, 4096, 1 << 20]);
  for (let i = 0; i < bytes.length;) {
    const n = int(r, 1, maxPiece);
    out.push(bytes.subarray(i, i + n));
    i += n;
  }
  return out;
}

function responseOf(parts: Uint8Array[]): Response {
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(ctrl) {
      if (i < parts.length) ctrl.enqueue(parts[i++]!);
      else ctrl.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

async function ours(parts: Uint8Array[]): Promise<ChatResult> {
  const c = new GatewayClient({
    baseUrl: 'https://oracle.invalid',
    apiKey: 'k',
    fetch: () => Promise.resolve(responseOf(parts)),
    maxRetries: 0,
  });
  return c.streamChat({ model: MODEL, messages: [{ role: 'user', content: 'x' }] });
}

interface OracleMessage {
  content?: string | null;
  reasoning_content?: unknown;
  reasoning?: unknown;
  tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
}

async function theirs(
  parts: Uint8Array[],
): Promise<{ message: OracleMessage; finish: string | null; usage: unknown; model: string; id: string }> {
  const oai = new OpenAI({
    apiKey: 'sk-oracle',
    baseURL: 'http://oracle.invalid/v1',
    maxRetries: 0,
    fetch: () => Promise.resolve(responseOf(parts)),
  });
  const stream = oai.chat.completions.stream({ model: MODEL, messages: [{ role: 'user', content: 'x' }] });
  const done = await stream.finalChatCompletion();
  const ch = done.choices[0]!;
  return {
    message: ch.message as OracleMessage,
    finish: ch.finish_reason,
    usage: done.usage,
    model: done.model,
    id: done.id,
  };
}

function norm(m: { content?: string | null; tool_calls?: OracleMessage['tool_calls'] }) {
  return {
    content: m.content || null,
    tool_calls:
      m.tool_calls && m.tool_calls.length > 0
        ? m.tool_calls.map((t) => ({
            id: t.id,
            type: t.type,
            function: { name: t.function.name, arguments: t.function.arguments },
          }))
        : undefined,
  };
}

function buildCorpus(): Array<Case & { framing: Framing; seed: number }> {
  const r = rng(20261121);
  const out: Array<Case & { framing: Framing; seed: number }> = [];
  let i = 0;
  const add = (c: Case) => {
    const framing = { crlf: r() < 0.3, comments: r() < 0.3, eventNames: r() < 0.3, noSpace: r() < 0.3 };
    out.push({ ...c, framing, seed: Math.floor(r() * 2 ** 31) });
  };
  for (let k = 0; k < 150; k++) add(textCase(r, i++));
  for (const style of ['canonical', 'whole', 'multi-per-chunk', 'args-with-finish'] as const)
    for (let k = 0; k < 30; k++) add(toolCase(r, i++, style));
  for (let k = 0; k < 25; k++) add(reasoningCase(r, i++));
  for (let k = 0; k < 20; k++) add(toolCase(r, i++, 'all-index-0'));
  for (let k = 0; k < 20; k++) add(toolCase(r, i++, 'no-index'));
  return out;
}

const corpus = buildCorpus();
const enc = new TextEncoder();

void describe('oracle: our accumulated message equals openai ChatCompletionStream on the same bytes', () => {
  void it(`the corpus has at least a few hundred cases (${corpus.length})`, () => {
    assert.ok(corpus.length >= 300);
    assert.ok(corpus.filter((c) => !c.difference).length >= 250);
  });

  const canonical = corpus.filter((c) => !c.difference);
  void it(`${canonical.length} canonical streams, re-framed and re-chunked: ours == openai == the generated message`, async () => {
    for (const c of canonical) {
      const parts = pieces(rng(c.seed), enc.encode(sse(c.chunks, c.framing, rng(c.seed + 1))));
      const [a, b] = await Promise.all([ours(parts), theirs(parts)]);
      const label = `${c.name} ${JSON.stringify(c.framing)}`;
      assert.deepEqual(norm(a.message), norm(b.message), label);
      assert.deepEqual(norm(a.message), norm({ content: c.expected.content, tool_calls: c.expected.toolCalls }), label);
      assert.equal(a.finishReason, b.finish, label);
      assert.equal(a.finishReason, c.expected.finish, label);
      assert.deepEqual(a.usage, c.expected.usage, label);
      if (c.expected.usage) assert.deepEqual(b.usage, c.expected.usage, label);
      assert.equal(a.model, b.model);
      assert.equal(a.id, b.id);
    }
  });

  const reasoning = corpus.filter((c) => c.difference === 'reasoning-overwrite');
  void it(`difference 1, ${reasoning.length} streams: reasoning fragments are joined by ours, openai keeps only the last fragment`, async () => {
    for (const c of reasoning) {
      const parts = pieces(rng(c.seed), enc.encode(sse(c.chunks, c.framing, rng(c.seed + 1))));
      const [a, b] = await Promise.all([ours(parts), theirs(parts)]);
      assert.equal(a.message.reasoning_content, c.expected.reasoning, c.name);
      assert.equal(a.message.content, c.expected.content, c.name);
      const theirsReasoning = b.message.reasoning_content ?? b.message.reasoning;
      assert.notEqual(theirsReasoning, c.expected.reasoning, `${c.name}: openai was expected to lose fragments`);
      // What openai keeps is just the final fragment, which the full text ends with.
      assert.ok(typeof theirsReasoning === 'string' && c.expected.reasoning!.endsWith(theirsReasoning), c.name);
      assert.equal(norm(a.message).content, norm(b.message).content, 'the answer text itself agrees');
    }
  });

  const index0 = corpus.filter((c) => c.difference === 'index0-merge');
  void it(`difference 2, ${index0.length} streams: parallel calls all at index 0 stay separate in ours, openai merges them`, async () => {
    for (const c of index0) {
      const parts = pieces(rng(c.seed), enc.encode(sse(c.chunks, c.framing, rng(c.seed + 1))));
      const [a, b] = await Promise.all([ours(parts), theirs(parts)]);
      assert.deepEqual(norm(a.message).tool_calls, c.expected.toolCalls, c.name);
      assert.equal(b.message.tool_calls?.length, 1, `${c.name}: openai merges every call into one`);
      assert.equal(
        b.message.tool_calls?.[0]?.function.arguments,
        c.expected.toolCalls!.map((t) => t.function.arguments).join(''),
      );
    }
  });

  const noIndex = corpus.filter((c) => c.difference === 'no-index');
  void it(`difference 3, ${noIndex.length} streams: tool-call deltas without index are assembled by ours, openai yields no usable calls`, async () => {
    for (const c of noIndex) {
      const parts = pieces(rng(c.seed), enc.encode(sse(c.chunks, c.framing, rng(c.seed + 1))));
      const a = await ours(parts);
      assert.deepEqual(norm(a.message).tool_calls, c.expected.toolCalls, c.name);
      let theirsCalls: unknown;
      try {
        theirsCalls = (await theirs(parts)).message.tool_calls;
      } catch (e) {
        theirsCalls = e;
      }
      assert.notDeepEqual(theirsCalls, c.expected.toolCalls, `${c.name}: openai was expected to fail here`);
    }
  });
});
