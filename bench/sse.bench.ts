// SSE parse + accumulate throughput: our GatewayClient.streamChat against the `openai` package's
// ChatCompletionStream on the same recorded bytes, in the same run. Prints MB/s and the ratio;
// asserts nothing about time. A stream of ~30 MB mixes text deltas and tool-call fragments (two
// parallel calls with long arguments), as a long agent turn would.
import OpenAI from 'openai';
import { GatewayClient } from '../src/api/client';
import { median } from './support/stats';

const TARGET_BYTES = 30 * 1024 * 1024;

function buildStream(): { bytes: Uint8Array; textChars: number; argChars: number } {
  const parts: string[] = [];
  let size = 0;
  let textChars = 0;
  let argChars = 0;
  const push = (o: object) => {
    const line = `data: ${JSON.stringify(o)}\n\n`;
    parts.push(line);
    size += line.length;
  };
  const base = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'gw-bench' };
  push({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  const words = ['stream', 'parsing', 'über', '你好', 'token', '`code`', 'line\n', '"quoted"', '🚀', 'gateway'];
  let i = 0;
  // Text first (about 60% of the bytes), then two parallel tool calls with long arguments.
  while (size < TARGET_BYTES * 0.6) {
    const t = `${words[i % words.length]} ${words[(i * 7) % words.length]} `;
    textChars += t.length;
    push({ ...base, choices: [{ index: 0, delta: { content: t }, finish_reason: null }] });
    i++;
  }
  push({
    ...base,
    choices: [
      {
        index: 0,
        delta: {
          tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'write_file', arguments: '' } }],
        },
        finish_reason: null,
      },
    ],
  });
  push({
    ...base,
    choices: [
      {
        index: 0,
        delta: {
          tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'write_file', arguments: '' } }],
        },
        finish_reason: null,
      },
    ],
  });
  push({
    ...base,
    choices: [
      {
        index: 0,
        delta: {
          tool_calls: [
            { index: 0, function: { arguments: '{"content":"' } },
            { index: 1, function: { arguments: '{"content":"' } },
          ],
        },
        finish_reason: null,
      },
    ],
  });
  argChars += 2 * '{"content":"'.length;
  while (size < TARGET_BYTES) {
    const frag = `line ${i} of the file with \\"escapes\\" `;
    argChars += frag.length;
    push({
      ...base,
      choices: [
        { index: 0, delta: { tool_calls: [{ index: i % 2, function: { arguments: frag } }] }, finish_reason: null },
      ],
    });
    i++;
  }
  push({
    ...base,
    choices: [
      {
        index: 0,
        delta: {
          tool_calls: [
            { index: 0, function: { arguments: '"}' } },
            { index: 1, function: { arguments: '"}' } },
          ],
        },
        finish_reason: null,
      },
    ],
  });
  argChars += 4;
  push({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] });
  push({ ...base, choices: [], usage: { prompt_tokens: 10, completion_tokens: 999_999, total_tokens: 1_000_009 } });
  parts.push('data: [DONE]\n\n');
  return { bytes: new TextEncoder().encode(parts.join('')), textChars, argChars };
}

/** Network-sized reads: the same cut for both parsers. */
function cut(bytes: Uint8Array, piece: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += piece) out.push(bytes.subarray(i, i + piece));
  return out;
}

function response(parts: Uint8Array[]): Response {
  let i = 0;
  return new Response(
    new ReadableStream<Uint8Array>({
      pull(c) {
        if (i < parts.length) c.enqueue(parts[i++]!);
        else c.close();
      },
    }),
    { headers: { 'content-type': 'text/event-stream' } },
  );
}

async function runOurs(parts: Uint8Array[]): Promise<{ ms: number; text: number; args: number }> {
  const c = new GatewayClient({
    baseUrl: 'https://bench.invalid',
    apiKey: 'k',
    fetch: () => Promise.resolve(response(parts)),
  });
  const t0 = performance.now();
  const r = await c.streamChat({ model: 'gw-bench', messages: [{ role: 'user', content: 'x' }] });
  const ms = performance.now() - t0;
  return {
    ms,
    text: r.message.content?.length ?? 0,
    args: (r.message.tool_calls ?? []).reduce((n, t) => n + t.function.arguments.length, 0),
  };
}

async function runOpenai(parts: Uint8Array[]): Promise<{ ms: number; text: number; args: number }> {
  const oai = new OpenAI({
    apiKey: 'k',
    baseURL: 'http://bench.invalid/v1',
    maxRetries: 0,
    fetch: () => Promise.resolve(response(parts)),
  });
  const t0 = performance.now();
  const done = await oai.chat.completions
    .stream({ model: 'gw-bench', messages: [{ role: 'user', content: 'x' }] })
    .finalChatCompletion();
  const ms = performance.now() - t0;
  const m = done.choices[0]!.message;
  const calls = (m.tool_calls ?? []) as Array<{ function: { arguments: string } }>;
  return { ms, text: m.content?.length ?? 0, args: calls.reduce((n, t) => n + t.function.arguments.length, 0) };
}

async function main(): Promise<void> {
  const { bytes, textChars, argChars } = buildStream();
  const mb = bytes.length / (1024 * 1024);
  console.log(`stream: ${mb.toFixed(1)} MB, ${textChars} text chars, ${argChars} tool-argument chars`);
  const gc = (globalThis as { gc?: () => void }).gc;
  for (const piece of [64 * 1024, 1024]) {
    const parts = cut(bytes, piece);
    // Warm both up once, then alternate so neither always runs on a colder or hotter heap.
    const w1 = await runOurs(parts);
    const w2 = await runOpenai(parts);
    const agree = w1.text === w2.text && w1.args === w2.args && w1.text === textChars && w1.args === argChars;
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let k = 0; k < 3; k++) {
      gc?.();
      ours.push((await runOurs(parts)).ms);
      gc?.();
      theirs.push((await runOpenai(parts)).ms);
    }
    const a = mb / (median(ours) / 1000);
    const b = mb / (median(theirs) / 1000);
    console.log(
      `reads of ${piece >= 1024 ? `${piece / 1024} KB` : `${piece} B`}: ours ${a.toFixed(1)} MB/s, openai ChatCompletionStream ${b.toFixed(1)} MB/s, ratio ours/openai ${(a / b).toFixed(2)}x` +
        ` (median of 3; results ${agree ? 'identical' : 'DIFFER'})`,
    );
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
