// The loop of responses.test.ts, run in a worker thread (test/support/inWorker.ts): generates
// the Responses streams and compares the client with the model. The test asserts on the report.
import { GatewayClient } from '../../src/api/client';
import { isGatewayError } from '../../src/api/transport/errors';
import type { ChatResult } from '../../src/api/chat/wire';
import { generateResponses, modelResponses, responsesSse, type RModel } from './responsesModel';
import { pieces, responseOf, rng } from './streamModel';

const enc = new TextEncoder();

async function ours(parts: Uint8Array[]): Promise<{ result: ChatResult; errorKind?: string; encrypted: number }> {
  const c = new GatewayClient(
    {
      baseUrl: 'https://faults.invalid',
      apiKey: 'k',
      fetch: () => Promise.resolve(responseOf(parts)),
      maxRetries: 0,
    },
    { routing: { settingsFor: () => ({ protocol: 'responses' }) } },
  );
  let encrypted = 0;
  const remember = c.models.rememberReasoning.bind(c.models);
  c.models.rememberReasoning = (model, m, items) => {
    encrypted = items.length;
    remember(model, m, items);
  };
  try {
    return {
      result: await c.streamChat({ model: 'gw-faults', messages: [{ role: 'user', content: 'x' }] }),
      encrypted,
    };
  } catch (e) {
    if (!isGatewayError(e) || !e.partial) throw e;
    return { result: e.partial, errorKind: e.kind, encrypted };
  }
}

function differs(m: RModel, got: Awaited<ReturnType<typeof ours>>): string | undefined {
  const { result: r, errorKind } = got;
  if (m.truncated !== (errorKind === 'truncated'))
    return `truncated: model ${m.truncated}, client ${errorKind ?? 'none'}`;
  if (errorKind && errorKind !== 'truncated') return `unexpected error ${errorKind}`;
  const want = m.content === '' && m.calls.length > 0 ? null : m.content;
  if (r.message.content !== want)
    return `content: want ${JSON.stringify(want)}, got ${JSON.stringify(r.message.content)}`;
  if ((r.message.reasoning_content ?? '') !== m.reasoning)
    return `reasoning: want ${JSON.stringify(m.reasoning)}, got ${JSON.stringify(r.message.reasoning_content)}`;
  const calls = (r.message.tool_calls ?? []).map((c) => ({
    id: c.id,
    name: c.function.name,
    args: c.function.arguments,
  }));
  if (JSON.stringify(calls) !== JSON.stringify(m.calls))
    return `calls: want ${JSON.stringify(m.calls)}, got ${JSON.stringify(calls)}`;
  if (r.finishReason !== m.finish) return `finish: want ${m.finish}, got ${r.finishReason}`;
  if (JSON.stringify(r.usage) !== JSON.stringify(m.usage))
    return `usage: want ${JSON.stringify(m.usage)}, got ${JSON.stringify(r.usage)}`;
  if (!m.truncated && got.encrypted !== m.encrypted)
    return `encrypted reasoning kept: want ${m.encrypted}, got ${got.encrypted}`;
  // What the answer carries for its caller to store (the chat's history, across reloads).
  if (!m.truncated && (r.message.encrypted_reasoning?.items.length ?? 0) !== m.encrypted)
    return `encrypted reasoning carried: want ${m.encrypted}, got ${r.message.encrypted_reasoning?.items.length ?? 0}`;
  return undefined;
}

/** What one run found. */
export interface ResponsesReport {
  mismatches: string[];
  truncated: number;
  withCalls: number;
  tagged: number;
  secs: number;
}

export async function runResponses({
  count: COUNT,
  seed: SEED,
}: {
  count: number;
  seed: number;
}): Promise<ResponsesReport> {
  const t0 = performance.now();
  const mismatches: string[] = [];
  let truncated = 0;
  let withCalls = 0;
  let tagged = 0;
  for (let i = 0; i < COUNT && mismatches.length < 20; i++) {
    const c = generateResponses((SEED + i * 7919) >>> 0);
    const m = modelResponses(c.events);
    if (m.truncated) truncated++;
    if (m.calls.length > 0) withCalls++;
    if (c.answer.thinkTag !== undefined) tagged++;
    // The model must give back what was generated (else the generator or the model is wrong).
    const wantText = c.answer.content.replace(/^\s+/, c.answer.thinkTag !== undefined ? '' : '$&');
    const whole = c.answer.terminal !== undefined || c.style.text !== 'completed-only';
    let problem =
      whole && (m.content !== wantText || JSON.stringify(m.calls) !== JSON.stringify(c.answer.calls))
        ? `model ${JSON.stringify({ content: m.content, calls: m.calls })} != answer`
        : undefined;
    if (!problem) {
      const bytes = pieces(rng(c.seed + 1), enc.encode(responsesSse(c, rng(c.seed))), c.style.maxPiece);
      try {
        problem = differs(m, await ours(bytes));
      } catch (e) {
        problem = `threw ${e instanceof Error ? e.message : String(e)}`;
      }
    }
    if (problem) mismatches.push(`stream ${i} (case seed ${c.seed}, ${JSON.stringify(c.style)}): ${problem}`);
  }
  const secs = (performance.now() - t0) / 1000;
  return { mismatches, truncated, withCalls, tagged, secs };
}
