// The loop of streams.test.ts, run in a worker thread (test/support/inWorker.ts): generates the
// streams, compares the client with the spec's model and with openai's stream, and shrinks the
// first mismatch. The test asserts on the report it returns.
import OpenAI from 'openai';
import type { ChatResult } from '../../src/api/chat/wire';
import { GatewayClient } from '../../src/api/client';
import { isGatewayError } from '../../src/api/transport/errors';
import {
  generate,
  MODEL,
  modelResult,
  pieces,
  responseOf,
  rng,
  sseText,
  type Framing,
  type ModelResult,
  type StreamCase,
} from './streamModel';

const enc = new TextEncoder();

/** What the client made of the bytes: its result, or the partial result of the error it threw. */
async function ours(parts: Uint8Array[]): Promise<{ result: ChatResult; errorKind?: string }> {
  const c = new GatewayClient({
    baseUrl: 'https://faults.invalid',
    apiKey: 'k',
    fetch: () => Promise.resolve(responseOf(parts)),
    maxRetries: 0,
  });
  try {
    return { result: await c.streamChat({ model: MODEL, messages: [{ role: 'user', content: 'x' }] }) };
  } catch (e) {
    if (!isGatewayError(e) || !e.partial) throw e;
    return { result: e.partial, errorKind: e.kind };
  }
}

interface Input {
  chunks: readonly object[];
  framing: Framing;
  done: boolean;
  maxPiece: number;
  seed: number;
}

function bytesOf(x: Input): Uint8Array[] {
  return pieces(rng(x.seed + 1), enc.encode(sseText(x.chunks, x.framing, x.done, rng(x.seed))), x.maxPiece);
}

/** The first way the client's answer differs from the model's, or undefined. */
function differs(m: ModelResult, got: { result: ChatResult; errorKind?: string }): string | undefined {
  const { result: r, errorKind } = got;
  if (m.truncated !== (errorKind === 'truncated'))
    return `truncated: model ${m.truncated}, client error ${errorKind ?? 'none'}`;
  if (errorKind && errorKind !== 'truncated') return `unexpected error ${errorKind}`;
  const wantContent = m.content === '' && m.calls.length > 0 ? null : m.content;
  if (r.message.content !== wantContent)
    return `content: want ${JSON.stringify(wantContent)}, got ${JSON.stringify(r.message.content)}`;
  if ((r.message.reasoning_content ?? '') !== m.reasoning)
    return `reasoning: want ${JSON.stringify(m.reasoning)}, got ${JSON.stringify(r.message.reasoning_content)}`;
  const calls = r.message.tool_calls ?? [];
  if (calls.length !== m.calls.length) return `tool calls: want ${m.calls.length}, got ${calls.length}`;
  const seen = new Set<string>();
  for (const [k, c] of calls.entries()) {
    const want = m.calls[k]!;
    if (c.function.name !== want.name || c.function.arguments !== want.args)
      return `call ${k}: want ${want.name}(${want.args}), got ${c.function.name}(${c.function.arguments})`;
    // Ids: never empty, never repeated; an id the wire sent first is kept exactly.
    if (!c.id || seen.has(c.id)) return `call ${k}: id ${JSON.stringify(c.id)} is empty or repeated`;
    if (want.id && !m.calls.slice(0, k).some((p) => p.id === want.id) && c.id !== want.id)
      return `call ${k}: id ${c.id} should be kept as ${want.id}`;
    seen.add(c.id);
  }
  if (r.finishReason !== m.finish) return `finish: want ${m.finish}, got ${r.finishReason}`;
  if (JSON.stringify(r.usage) !== JSON.stringify(m.usage))
    return `usage: want ${JSON.stringify(m.usage)}, got ${JSON.stringify(r.usage)}`;
  return undefined;
}

/** The model must give back the generated answer: otherwise the generator or the model is wrong. */
function modelMatchesAnswer(c: StreamCase, m: ModelResult): string | undefined {
  const a = c.answer;
  const want = { content: a.content, reasoning: a.reasoning, calls: a.calls, finish: a.finish, usage: a.usage };
  const got = { content: m.content, reasoning: m.reasoning, calls: m.calls, finish: m.finish, usage: m.usage };
  return JSON.stringify(want) === JSON.stringify(got)
    ? undefined
    : `model ${JSON.stringify(got)} != answer ${JSON.stringify(want)}`;
}

async function check(x: Input): Promise<string | undefined> {
  try {
    return differs(modelResult(x.chunks), await ours(bytesOf(x)));
  } catch (e) {
    return `threw ${e instanceof Error ? e.message : String(e)}`;
  }
}

/** Smaller inputs that still fail: plain framing, one piece, then chunks left out one at a time. */
async function shrink(x: Input): Promise<Input> {
  let best = x;
  const tryIt = async (y: Input) => {
    if ((await check(y)) !== undefined) best = y;
  };
  await tryIt({
    ...best,
    framing: { eol: '\n', comments: false, eventNames: false, noSpace: false, splitData: false },
  });
  await tryIt({ ...best, maxPiece: 1 << 20 });
  for (let changed = true; changed;) {
    changed = false;
    for (let i = best.chunks.length - 1; i >= 0; i--) {
      const before = best;
      await tryIt({ ...best, chunks: best.chunks.filter((_, k) => k !== i) });
      if (best !== before) changed = true;
    }
  }
  return best;
}

/**
 * Where openai's ChatCompletionStream is right (oracle.test.ts lists where it is not; it also
 * throws "missing role" when no delta names the assistant role, and "choices is not iterable" on
 * a usage chunk without `choices`).
 */
function openaiIsRight(c: StreamCase): boolean {
  const d = c.dialect;
  return (
    d.first !== 'none' &&
    d.usage !== 'separate-no-choices' &&
    c.answer.reasoning === '' &&
    c.answer.finish !== undefined &&
    d.ids === 'unique' &&
    !d.namesRepeated &&
    d.tools !== 'all-index-0' &&
    d.tools !== 'no-index'
  );
}

async function theirs(parts: Uint8Array[]): Promise<{
  content: string | null;
  calls: Array<{ id: string; name: string; args: string }>;
  finish: string | null;
}> {
  const oai = new OpenAI({
    apiKey: 'sk-faults',
    baseURL: 'http://faults.invalid/v1',
    maxRetries: 0,
    fetch: () => Promise.resolve(responseOf(parts)),
  });
  const done = await oai.chat.completions
    .stream({ model: MODEL, messages: [{ role: 'user', content: 'x' }] })
    .finalChatCompletion();
  const ch = done.choices[0]!;
  const calls = (ch.message.tool_calls ?? []).flatMap((t) =>
    t.type === 'function' ? [{ id: t.id, name: t.function.name, args: t.function.arguments }] : [],
  );
  return { content: ch.message.content || null, calls, finish: ch.finish_reason };
}

/** What one run found; `failure` is the mismatch list and the smallest failing stream. */
export interface StreamsReport {
  openaiCompared: number;
  truncated: number;
  mismatches: number;
  secs: number;
  failure?: string;
}

export async function runStreams({
  count: COUNT,
  seed: SEED,
}: {
  count: number;
  seed: number;
}): Promise<StreamsReport> {
  const t0 = performance.now();
  let openaiCompared = 0;
  let truncated = 0;
  const mismatches: string[] = [];
  let first: Input | undefined;
  for (let i = 0; i < COUNT && mismatches.length < 20; i++) {
    const c = generate((SEED + i * 7919) >>> 0);
    const m = modelResult(c.chunks);
    if (m.truncated) truncated++;
    const x: Input = {
      chunks: c.chunks,
      framing: c.framing,
      done: c.dialect.done,
      maxPiece: c.maxPiece,
      seed: c.seed,
    };
    const bytes = bytesOf(x);
    let problem = modelMatchesAnswer(c, m);
    let got: Awaited<ReturnType<typeof ours>> | undefined;
    if (!problem) {
      try {
        got = await ours(bytes);
        problem = differs(m, got);
      } catch (e) {
        problem = `threw ${e instanceof Error ? e.message : String(e)}`;
      }
    }
    if (!problem && got && openaiIsRight(c)) {
      openaiCompared++;
      const o = await theirs(bytes).catch((e: unknown) => ({ threw: e instanceof Error ? e.message : String(e) }));
      const mine = {
        content: got.result.message.content || null,
        calls: (got.result.message.tool_calls ?? []).map((t) => ({
          id: t.id,
          name: t.function.name,
          args: t.function.arguments,
        })),
        finish: got.result.finishReason ?? null,
      };
      if (JSON.stringify(o) !== JSON.stringify(mine))
        problem = `openai differs: ${JSON.stringify(o)} vs ${JSON.stringify(mine)}`;
    }
    if (problem) {
      mismatches.push(
        `stream ${i} (case seed ${c.seed}, ${JSON.stringify(c.dialect)}, ${JSON.stringify(c.framing)}, pieces ≤ ${c.maxPiece}): ${problem}`,
      );
      first ??= x;
    }
  }
  const secs = (performance.now() - t0) / 1000;
  let failure: string | undefined;
  if (first) {
    const small = await shrink(first);
    const text = sseText(small.chunks, small.framing, small.done, rng(small.seed));
    failure = `${mismatches.length} mismatches (seed ${SEED}):\n${mismatches.join('\n')}\n\nsmallest failing stream (${small.chunks.length} chunks, pieces ≤ ${small.maxPiece}): ${(await check(small)) ?? ''}\n${JSON.stringify(text)}`;
  }
  return { openaiCompared, truncated, mismatches: mismatches.length, secs, failure };
}
