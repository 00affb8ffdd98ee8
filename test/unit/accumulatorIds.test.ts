import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChatAccumulator } from '../../src/api/accumulator';
import { GatewayClient } from '../../src/api/client';
import type { RequestDefaults } from '../../src/chat/core/request';
import type { ToolCall, ToolMessage } from '../../src/api/wire';
import type { ToolExecutor } from '../../src/chat/core/toolSeam';
import { runTurn } from '../../src/chat/core/turnRunner';
import type { AssistantMessage, Conversation, ToolResultMessage } from '../../src/shared/protocol';
import type { ToolStyle } from '../gateway/faults';
import { UNSET_PARAMS, useGateway, userConversation } from './helpers';

/*
 * Relays that repeat one tool-call id for several calls of an answer, or send "" as the id: the
 * final assistant message still has one unique id per call, ids that were unique stay as sent,
 * and the tool loop answers every call with its own tool message (the gateway refuses a request
 * whose assistant message has duplicate ids or whose tool messages do not match them).
 */

// Faults, counts and the request log read by sentBack() are cleared before each test.
const gw = useGateway();

const defaults = (stream: boolean): RequestDefaults => ({
  model: 'gw-chat',
  systemPrompt: '',
  params: { ...UNSET_PARAMS, stream },
});

/** Answers each call with its own name and arguments, so a mix-up shows in the model's summary. */
class EchoExecutor implements ToolExecutor {
  readonly seen: ToolCall[][] = [];
  definitions() {
    return ['read_file', 'list_directory', 'find_files'].map((name) => ({ type: 'function' as const, function: { name, parameters: { type: 'object' } } }));
  }
  toolChoice() {
    return 'auto' as const;
  }
  execute(calls: ToolCall[]): Promise<ToolMessage[]> {
    this.seen.push(calls);
    return Promise.resolve(calls.map((c) => ({ role: 'tool' as const, tool_call_id: c.id, content: `ran ${c.function.name} ${c.function.arguments}` })));
  }
}

const SCRIPT = `#tools ${JSON.stringify([
  { calls: [{ name: 'read_file', arguments: { path: 'a.ts' } }, { name: 'list_directory', arguments: { path: 'src' } }, { name: 'find_files', arguments: { pattern: '*.md' } }] },
])}`;

async function loop(stream: boolean): Promise<{ c: Conversation; ex: EchoExecutor; status: string }> {
  const ex = new EchoExecutor();
  const c = userConversation(SCRIPT);
  const out = await runTurn({
    backend: new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 }),
    conversation: c,
    defaults: defaults(stream),
    executor: ex,
    maxRounds: 5,
    signal: new AbortController().signal,
    callbacks: { onMessage: () => undefined, onDelta: () => undefined },
  });
  const last = c.messages.filter((m): m is AssistantMessage => m.role === 'assistant').at(-1);
  return { c, ex, status: `${out.status}${last?.error ? `: ${last.error.detail}` : ''}` };
}

/** The wire ids of the first answer, read from the gateway's own request log of the second request. */
function sentBack(): { calls: string[]; tools: string[] } {
  const second = gw.requests().filter((r) => r.route === '/v1/chat/completions')[1]?.body as
    | { messages: { role: string; tool_calls?: { id: string }[]; tool_call_id?: string }[] }
    | undefined;
  assert.ok(second, 'a second chat request was sent');
  return {
    calls: second.messages.find((m) => m.role === 'assistant')?.tool_calls?.map((t) => t.id) ?? [],
    tools: second.messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id ?? ''),
  };
}

function assertEachCallAnswered(c: Conversation, ex: EchoExecutor): void {
  const calls = c.messages.find((m): m is AssistantMessage => m.role === 'assistant')?.toolCalls ?? [];
  assert.deepEqual(calls.map((x) => x.function.name), ['read_file', 'list_directory', 'find_files']);
  const ids = calls.map((x) => x.id);
  assert.equal(new Set(ids).size, 3, `ids are unique: ${ids.join(', ')}`);
  assert.ok(ids.every((id) => id !== ''), 'no id is empty');
  assert.deepEqual(ex.seen[0]?.map((x) => x.id), ids, 'the executor got the unique ids');
  const tms = c.messages.filter((m): m is ToolResultMessage => m.role === 'tool');
  assert.deepEqual(tms.map((t) => t.toolCallId), ids, 'one tool message per call, in call order');
  assert.deepEqual(tms.map((t) => t.content), ['ran read_file {"path":"a.ts"}', 'ran list_directory {"path":"src"}', 'ran find_files {"pattern":"*.md"}']);
  const back = sentBack();
  assert.deepEqual(back.calls, ids);
  assert.deepEqual(back.tools, ids);
  // The gateway names each result by the call its tool_call_id points at: a mix-up would show here.
  const final = c.messages.filter((m): m is AssistantMessage => m.role === 'assistant').at(-1)?.content ?? '';
  assert.equal(final, 'Done. Tool results: read_file=ran read_file {"path":"a.ts"}, list_directory=ran list_directory {"path":"src"}, find_files=ran find_files {"pattern":"*.md"}');
}

/** Runs the tool loop and asserts that it finished and answered each of the three calls. */
async function assertLoopAnswersEach(stream: boolean): Promise<void> {
  const { c, ex, status } = await loop(stream);
  assert.equal(status, 'done');
  assertEachCallAnswered(c, ex);
}

const STYLES: ToolStyle[] = ['canonical', 'no-index', 'all-index-0', 'whole', 'multi-per-chunk', 'args-with-finish'];

void describe('tool calls with repeated or empty ids, through the local gateway', () => {
  for (const toolIds of ['repeat', 'empty'] as const) {
    for (const style of STYLES) {
      void it(`streamed "${style}" with ${toolIds === 'repeat' ? 'one id repeated on all three calls' : 'empty ids'} (5-byte pieces): each call is answered by its own tool message`, async () => {
        gw.fault({ match: { path: '/v1/chat/completions' }, times: 1, toolStyle: style, toolIds, split: 5 });
        await assertLoopAnswersEach(true);
      });
    }
    void it(`non-streaming with ${toolIds === 'repeat' ? 'one id repeated' : 'empty ids'}: each call is answered by its own tool message`, async () => {
      gw.fault({ match: { path: '/v1/chat/completions' }, times: 1, toolIds });
      await assertLoopAnswersEach(false);
    });
  }

  void it('a repeated id keeps its first call as sent; the later call gets a suffixed id', async () => {
    gw.fault({ match: { path: '/v1/chat/completions' }, times: 1, toolIds: 'repeat' });
    const { c } = await loop(true);
    const ids = c.messages.find((m): m is AssistantMessage => m.role === 'assistant')?.toolCalls?.map((x) => x.id) ?? [];
    const first = ids[0] ?? '';
    assert.match(first, /^call_[A-Za-z0-9_-]{12}$/);
    assert.deepEqual(ids, [first, `${first}_2`, `${first}_3`]);
  });

  void it('unique ids from the gateway are kept exactly as sent (the resumed conversation uses the ids the server knows)', async () => {
    const { c, ex } = await loop(true);
    const ids = c.messages.find((m): m is AssistantMessage => m.role === 'assistant')?.toolCalls?.map((x) => x.id) ?? [];
    assert.equal(ids.length, 3);
    for (const id of ids) assert.match(id, /^call_[A-Za-z0-9_-]{12}$/, 'a gateway id, not a generated one');
    assertEachCallAnswered(c, ex);
  });
});

/** Feeds tool-call deltas straight into the accumulator (shapes the gateway does not produce). */
function accumulate(deltas: unknown[]): { id: string; name: string; args: string }[] {
  const acc = new ChatAccumulator();
  for (const tool_calls of deltas) acc.push({ choices: [{ index: 0, delta: { tool_calls } }] });
  acc.push({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] });
  return (acc.result().message.tool_calls ?? []).map((t) => ({ id: t.id, name: t.function.name, args: t.function.arguments }));
}

void describe('tool-call ids in the accumulated message', () => {
  void it('an id reused at a different index opens its own call and is renamed; the unique ones stay', () => {
    const calls = accumulate([
      [{ index: 0, id: 'call_0', type: 'function', function: { name: 'a', arguments: '{"x":1}' } }],
      [{ index: 1, id: 'call_7', type: 'function', function: { name: 'b', arguments: '{}' } }],
      [{ index: 2, id: 'call_0', type: 'function', function: { name: 'c', arguments: '' } }],
      [{ index: 2, function: { arguments: '{"y":2}' } }],
    ]);
    assert.deepEqual(calls, [
      { id: 'call_0', name: 'a', args: '{"x":1}' },
      { id: 'call_7', name: 'b', args: '{}' },
      { id: 'call_0_2', name: 'c', args: '{"y":2}' },
    ]);
  });

  void it('a generated id never takes an id another call of the answer was sent with', () => {
    const calls = accumulate([
      [{ index: 0, id: 'call_0', function: { name: 'a', arguments: '{}' } }],
      [{ index: 1, id: 'call_0', function: { name: 'b', arguments: '{}' } }],
      [{ index: 2, id: 'call_0_2', function: { name: 'c', arguments: '{}' } }],
      [{ index: 3, id: '', function: { name: 'd', arguments: '{}' } }],
      [{ index: 4, id: 'call_gs_3', function: { name: 'e', arguments: '{}' } }],
    ]);
    assert.deepEqual(calls.map((c) => c.id), ['call_0', 'call_0_3', 'call_0_2', 'call_gs_3_2', 'call_gs_3']);
  });

  void it('a repeated id near the 40-character limit is replaced by a short generated one', () => {
    const long = `call_${'x'.repeat(35)}`;
    const calls = accumulate([
      [{ index: 0, id: long, function: { name: 'a', arguments: '{}' } }],
      [{ index: 1, id: long, function: { name: 'b', arguments: '{}' } }],
    ]);
    assert.deepEqual(calls.map((c) => c.id), [long, 'call_gs_1']);
  });

  void it('id and name repeated on every fragment of one call still make one call', () => {
    const calls = accumulate([
      [{ index: 0, id: 'call_0', function: { name: 'a', arguments: '{"path":' } }],
      [{ index: 0, id: 'call_0', function: { name: 'a', arguments: '"x.ts"}' } }],
    ]);
    assert.deepEqual(calls, [{ id: 'call_0', name: 'a', args: '{"path":"x.ts"}' }]);
  });

  void it('without index or id, a named fragment after complete arguments starts the next call', () => {
    const calls = accumulate([
      [{ type: 'function', function: { name: 'a', arguments: '' } }],
      [{ function: { arguments: '{"p":1}' } }],
      [{ type: 'function', function: { name: 'a', arguments: '' } }],
      [{ function: { arguments: '{"p":2}' } }],
    ]);
    assert.deepEqual(calls, [
      { id: 'call_gs_0', name: 'a', args: '{"p":1}' },
      { id: 'call_gs_1', name: 'a', args: '{"p":2}' },
    ]);
  });
});
