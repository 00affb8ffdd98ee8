import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { ChatResult } from '../../../../../src/api/chat/wire';
import { GatewayClient } from '../../../../../src/api/client';
import { ConversationStore } from '../../../../../src/chat/history/core/store';
import { MemoryStorage } from '../../../../support/memoryStorage';
import { builtinTools } from '../../../../../src/chat/tools/core/builtins';
import { idsUniqueAcross, repairToolCallIds } from '../../../../../src/chat/tools/core/ids';
import { nodeToolHost } from '../../../../support/nodeToolHost';
import { ToolRunner, type ToolCardUpdate } from '../../../../../src/chat/tools/core/runner';
import { runTurn } from '../../../../../src/chat/session/core/turnRunner';
import type {
  AssistantMessage,
  ChatMessage,
  Conversation,
  ToolResultMessage,
} from '../../../../../src/shared/protocol';
import { UNSET_PARAMS, useGateway, useTempDir, userConversation } from '../../../../support/helpers';

/*
 * Relays that number tool calls per answer send `call_0` again in the second answer of a
 * conversation. Cards, approvals and tool messages are keyed by id, and some servers refuse one id
 * on two assistant messages, so the stored conversation gets ids unique across all its answers:
 * ids the server sent stay as sent when unique, a reused one gets a suffix, and the tool message
 * answering a renamed call (and the card the tools post for it) uses the new id.
 */

const gw = useGateway();
/** The workspace the tools read. */
const ws = useTempDir('gs-ids-', {
  onMade: async (dir) => {
    await fs.writeFile(path.join(dir, 'a.ts'), 'export const A = 1;\n');
    await fs.writeFile(path.join(dir, 'b.ts'), 'export const B = 2;\n');
    await fs.writeFile(path.join(dir, 'c.ts'), 'export const C = 3;\n');
    await fs.writeFile(path.join(dir, 'd.ts'), 'export const D = 4;\n');
  },
});

const script = (...turns: { path: string }[][]) =>
  `#tools ${JSON.stringify(turns.map((calls) => ({ calls: calls.map((a) => ({ name: 'read_file', arguments: a })) })))}`;

/** The real tool runner over a temporary workspace; its card updates are kept by call id, as the webview keys them. */
function tools() {
  const cards = new Map<string, ToolCardUpdate[]>();
  const runner = new ToolRunner({
    tools: () => builtinTools(nodeToolHost([{ name: 'ws', path: ws.path }])),
    approve: () => Promise.resolve('allow'),
    trust: { isTrusted: () => true, trust: () => undefined },
    onUpdate: (u) => cards.set(u.callId, [...(cards.get(u.callId) ?? []), u]),
  });
  return { runner, cards };
}

interface Posted {
  messages: ChatMessage[];
}

/**
 * One question (or, without `text`, the conversation's last one) through runTurn and the real
 * client. `wire` collects the call ids of each answer as the client read them from the gateway.
 */
async function ask(
  c: Conversation,
  runner: ToolRunner,
  text: string | undefined,
  stream: boolean,
  posted: Posted = { messages: [] },
  wire: string[] = [],
): Promise<string> {
  if (text !== undefined)
    c.messages.push({ id: `u${c.messages.length}`, role: 'user', text, images: [], contexts: [], createdAt: 1 });
  const client = new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 });
  const seen = (r: ChatResult) => {
    wire.push(...(r.message.tool_calls ?? []).map((t) => t.id));
    return r;
  };
  const out = await runTurn({
    backend: {
      streamChat: async (req, o) => seen(await client.streamChat(req, o)),
      chat: async (req, signal) => seen(await client.chat(req, signal)),
    },
    conversation: c,
    defaults: { model: 'gw-chat', systemPrompt: '', params: { ...UNSET_PARAMS, stream } },
    executor: runner,
    maxRounds: 5,
    signal: new AbortController().signal,
    callbacks: { onMessage: (m) => posted.messages.push(m), onDelta: () => undefined },
  });
  return `${out.status}${out.error ? `: ${out.error.detail}` : ''}`;
}

const answers = (c: Conversation) => c.messages.filter((m): m is AssistantMessage => m.role === 'assistant');
const callIds = (c: Conversation) => answers(c).flatMap((a) => (a.toolCalls ?? []).map((t) => t.id));
const toolMsgs = (c: Conversation) => c.messages.filter((m): m is ToolResultMessage => m.role === 'tool');

interface WireMessage {
  role: string;
  tool_calls?: { id: string; function: { arguments: string } }[];
  tool_call_id?: string;
}

/**
 * Each recorded chat request: no tool-call id on two calls anywhere in it, and every tool message
 * answers a call of the assistant message right before its run of tool messages.
 */
function assertRequestsConsistent(): WireMessage[][] {
  const bodies = gw
    .requests()
    .filter((r) => r.route === '/v1/chat/completions')
    .map((r) => (r.body as { messages: WireMessage[] }).messages);
  assert.ok(bodies.length > 0, 'chat requests were recorded');
  for (const [n, msgs] of bodies.entries()) {
    const all = msgs.flatMap((m) => (m.tool_calls ?? []).map((t) => t.id));
    assert.equal(
      new Set(all).size,
      all.length,
      `request ${n}: tool-call ids are unique across the conversation: ${all.join(', ')}`,
    );
    let open: string[] = [];
    for (const m of msgs) {
      if (m.role === 'tool') {
        assert.ok(
          open.includes(m.tool_call_id ?? ''),
          `request ${n}: tool message ${m.tool_call_id} answers a call of the assistant message before it (${open.join(', ')})`,
        );
        open = open.filter((x) => x !== m.tool_call_id);
      } else {
        assert.deepEqual(open, [], `request ${n}: every call was answered before the next message`);
        open = (m.tool_calls ?? []).map((t) => t.id);
      }
    }
  }
  return bodies;
}

/** The tool message answering each call holds that call's file, so a mix-up of ids shows. */
function assertEachAnswered(c: Conversation): void {
  const byId = new Map(toolMsgs(c).map((t) => [t.toolCallId, t]));
  assert.equal(byId.size, toolMsgs(c).length, 'no two tool messages answer one id');
  for (const a of answers(c)) {
    for (const call of a.toolCalls ?? []) {
      const file = (JSON.parse(call.function.arguments) as { path: string }).path;
      const letter = file[0]!.toUpperCase();
      const answer = byId.get(call.id);
      assert.ok(answer, `call ${call.id} (${file}) has a tool message`);
      assert.match(
        answer.content,
        new RegExp(`export const ${letter} =`),
        `the tool message of ${call.id} holds ${file}`,
      );
      // It comes after its own answer and before the next assistant message.
      const at = c.messages.indexOf(answer);
      const owner = c.messages.indexOf(a);
      assert.ok(
        at > owner && !c.messages.slice(owner + 1, at).some((m) => m.role !== 'tool'),
        `the tool message of ${call.id} follows its own answer`,
      );
    }
  }
}

void describe('tool-call ids across the answers of a conversation (through the local gateway)', () => {
  for (const stream of [true, false]) {
    void it(`${stream ? 'streamed' : 'non-streaming'}: a second question whose answer reuses call_0 and call_1 gets call_0_2 and call_1_2, and each result lands on its own call and card`, async () => {
      gw.fault({ match: { path: '/v1/chat/completions' }, times: -1, toolIds: 'numbered' });
      const { runner, cards } = tools();
      const posted: Posted = { messages: [] };
      const c = userConversation(script([{ path: 'a.ts' }, { path: 'b.ts' }]));
      assert.equal(await ask(c, runner, undefined, stream, posted), 'done');
      assert.deepEqual(callIds(c), ['call_0', 'call_1'], 'the first answer keeps the ids as sent');
      assert.equal(await ask(c, runner, script([{ path: 'c.ts' }, { path: 'd.ts' }]), stream, posted), 'done');

      // The gateway did reuse the ids: the second answer's wire ids are call_0 and call_1 again.
      const bodies = assertRequestsConsistent();
      assert.equal(bodies.length, 4, 'two questions, each with one tool round');
      assert.deepEqual(callIds(c), ['call_0', 'call_1', 'call_0_2', 'call_1_2']);
      assertEachAnswered(c);
      const lastSent = bodies.at(-1)!;
      assert.deepEqual(
        lastSent.flatMap((m) => (m.tool_calls ?? []).map((t) => t.id)),
        ['call_0', 'call_1', 'call_0_2', 'call_1_2'],
      );
      assert.deepEqual(
        lastSent.filter((m) => m.role === 'tool').map((m) => m.tool_call_id),
        ['call_0', 'call_1', 'call_0_2', 'call_1_2'],
      );
      // The gateway names each result by the call its tool_call_id points at.
      assert.match(
        answers(c).at(-1)?.content ?? '',
        /^Done\. Tool results: read_file=.*export const C = 3;.*, read_file=.*export const D = 4;/s,
      );

      // Cards: one per call, each keyed by the stored id and showing its own file.
      assert.deepEqual([...cards.keys()], ['call_0', 'call_1', 'call_0_2', 'call_1_2']);
      for (const [id, file] of [
        ['call_0', 'A'],
        ['call_1', 'B'],
        ['call_0_2', 'C'],
        ['call_1_2', 'D'],
      ] as const) {
        const last = cards.get(id)!.at(-1)!;
        assert.equal(last.state, 'done');
        assert.match(
          last.resultPreview ?? '',
          new RegExp(`export const ${file} =`),
          `card ${id} shows ${file.toLowerCase()}.ts`,
        );
      }
      // What the webview was sent: the finished answers carry the stored ids, and no tool message
      // names an id twice.
      const postedCalls = posted.messages
        .filter((m): m is AssistantMessage => m.role === 'assistant' && m.status === 'done')
        .flatMap((m) => (m.toolCalls ?? []).map((t) => t.id));
      assert.deepEqual([...new Set(postedCalls)], ['call_0', 'call_1', 'call_0_2', 'call_1_2']);
      assert.deepEqual(
        posted.messages.filter((m): m is ToolResultMessage => m.role === 'tool').map((t) => t.toolCallId),
        ['call_0', 'call_1', 'call_0_2', 'call_1_2'],
      );
    });
  }

  void it('two tool rounds for one question, both numbered from call_0: the second round answers as call_0_2', async () => {
    gw.fault({ match: { path: '/v1/chat/completions' }, times: -1, toolIds: 'numbered' });
    const { runner, cards } = tools();
    const c = userConversation(script([{ path: 'a.ts' }], [{ path: 'b.ts' }]));
    assert.equal(await ask(c, runner, undefined, true), 'done');
    assert.deepEqual(callIds(c), ['call_0', 'call_0_2']);
    assertEachAnswered(c);
    assertRequestsConsistent();
    assert.deepEqual([...cards.keys()], ['call_0', 'call_0_2']);
  });

  void it('ids the gateway sent unique are kept exactly as sent, in a later answer too', async () => {
    // Only the first answer is numbered; the second carries the gateway's random call_<12> ids.
    gw.fault({ match: { path: '/v1/chat/completions' }, times: 1, toolIds: 'numbered' });
    const { runner } = tools();
    const wire: string[] = [];
    const c = userConversation(script([{ path: 'a.ts' }, { path: 'b.ts' }]));
    assert.equal(await ask(c, runner, undefined, true, undefined, wire), 'done');
    assert.equal(await ask(c, runner, script([{ path: 'c.ts' }]), true, undefined, wire), 'done');
    const ids = callIds(c);
    assert.deepEqual(ids.slice(0, 2), ['call_0', 'call_1']);
    assert.match(ids[2] ?? '', /^call_[A-Za-z0-9_-]{12}$/, 'a gateway id, not a generated one');
    assert.deepEqual(ids, wire, 'every stored id is the id the gateway sent');
    assertEachAnswered(c);
    assertRequestsConsistent();
  });

  void it('a conversation stored with call_0 on two answers is repaired when loaded, and the next request carries unique ids', async () => {
    // As saved by a version before this fix: the second answer reused call_0 and its tool message says so.
    const c = userConversation('first');
    c.messages.push(
      {
        id: 'a1',
        role: 'assistant',
        content: '',
        status: 'done',
        requestedModel: 'gw-chat',
        createdAt: 2,
        toolCalls: [{ id: 'call_0', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } }],
      },
      { id: 't1', role: 'tool', toolCallId: 'call_0', name: 'read_file', content: 'export const A = 1;', createdAt: 3 },
      { id: 'a2', role: 'assistant', content: 'Read a.ts.', status: 'done', requestedModel: 'gw-chat', createdAt: 4 },
      { id: 'u2', role: 'user', text: 'second', images: [], contexts: [], createdAt: 5 },
      {
        id: 'a3',
        role: 'assistant',
        content: '',
        status: 'done',
        requestedModel: 'gw-chat',
        createdAt: 6,
        toolCalls: [{ id: 'call_0', type: 'function', function: { name: 'read_file', arguments: '{"path":"b.ts"}' } }],
      },
      { id: 't3', role: 'tool', toolCallId: 'call_0', name: 'read_file', content: 'export const B = 2;', createdAt: 7 },
      { id: 'a4', role: 'assistant', content: 'Read b.ts.', status: 'done', requestedModel: 'gw-chat', createdAt: 8 },
    );
    const storage = new MemoryStorage();
    await new ConversationStore(storage).save(c);
    const loaded = new ConversationStore(storage).load(c.id);
    assert.ok(loaded);
    assert.deepEqual(callIds(loaded), ['call_0', 'call_0_2']);
    assert.deepEqual(
      toolMsgs(loaded).map((t) => t.toolCallId),
      ['call_0', 'call_0_2'],
    );
    assertEachAnswered(loaded);

    gw.fault({ match: { path: '/v1/chat/completions' }, times: -1, toolIds: 'numbered' });
    const { runner } = tools();
    assert.equal(await ask(loaded, runner, script([{ path: 'c.ts' }]), true), 'done');
    assert.deepEqual(callIds(loaded), ['call_0', 'call_0_2', 'call_0_3']);
    assertEachAnswered(loaded);
    assertRequestsConsistent();
  });
});

void describe('the id scheme', () => {
  void it('a reused id takes the first suffix no earlier message and no call of the answer has', () => {
    assert.deepEqual(idsUniqueAcross(['call_0', 'call_0_2', 'call_9'], new Set(['call_0', 'call_0_3'])), [
      'call_0_4',
      'call_0_2',
      'call_9',
    ]);
  });

  void it('a reused id near the 40-character limit becomes a short generated one that is also free', () => {
    const long = `call_${'x'.repeat(35)}`;
    assert.deepEqual(idsUniqueAcross(['a', long], new Set([long, 'call_gs_1'])), ['a', 'call_gs_1_2']);
    for (const id of idsUniqueAcross([`call_${'y'.repeat(34)}`], new Set([`call_${'y'.repeat(34)}`])))
      assert.ok(id.length <= 40, id);
  });

  void it('an empty id gets a generated one', () => {
    assert.deepEqual(idsUniqueAcross(['', 'x'], new Set()), ['call_gs_0', 'x']);
  });

  void it('repair keeps the n-th tool message with a repeated id on the n-th call sent with it', () => {
    // Stored before ids were unique within an answer: two calls and two results all named call_0.
    const c = userConversation('q');
    c.messages.push(
      {
        id: 'a1',
        role: 'assistant',
        content: '',
        status: 'done',
        requestedModel: 'm',
        createdAt: 2,
        toolCalls: [
          { id: 'call_0', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } },
          { id: 'call_0', type: 'function', function: { name: 'read_file', arguments: '{"path":"b.ts"}' } },
        ],
      },
      { id: 't1', role: 'tool', toolCallId: 'call_0', name: 'read_file', content: 'export const A = 1;', createdAt: 3 },
      { id: 't2', role: 'tool', toolCallId: 'call_0', name: 'read_file', content: 'export const B = 2;', createdAt: 4 },
    );
    assert.equal(repairToolCallIds(c), 1);
    assert.deepEqual(callIds(c), ['call_0', 'call_0_2']);
    assertEachAnswered(c);
    const before = JSON.stringify(c);
    assert.equal(repairToolCallIds(c), 0, 'a repaired conversation needs nothing more');
    assert.equal(JSON.stringify(c), before);
  });
});
