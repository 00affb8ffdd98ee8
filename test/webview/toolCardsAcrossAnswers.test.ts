import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { GatewayClient } from '../../src/api/client';
import { newConversation } from '../../src/chat/history/core/store';
import { builtinTools } from '../../src/chat/tools/core/builtins';
import { nodeToolHost } from '../support/nodeToolHost';
import { ToolRunner } from '../../src/chat/tools/core/runner';
import { runTurn } from '../../src/chat/session/core/turnRunner';
import type { AssistantMessage, Conversation, HostMessage, ToolCallUpdate } from '../../src/shared/protocol';
import { startGateway, type Gateway } from '../gateway/server';
import { DEFAULT_PARAMS, openHarness, snapshot, type Harness, useBrowser } from './harness';

/*
 * Tool cards are keyed by call id. A relay that numbers calls per answer sends call_0 in every
 * answer (and every conversation): each card must still show its own call's arguments and result.
 */

const browser = useBrowser();
let gw: Gateway;
let ws: string;
before(async () => {
  gw = await startGateway();
  ws = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gs-cards-')));
  for (const [f, n] of [
    ['a', 1],
    ['b', 2],
    ['c', 3],
    ['d', 4],
  ] as const)
    await fs.writeFile(path.join(ws, `${f}.ts`), `export const ${f.toUpperCase()} = ${n};\n`);
});
after(async () => {
  await gw.close();
  await fs.rm(ws, { recursive: true, force: true });
});

const script = (...files: string[]) =>
  `#tools ${JSON.stringify([{ calls: files.map((p) => ({ name: 'read_file', arguments: { path: p } })) }])}`;

/** Every card under the answer `messageId`: its call id, and all its text (closed details too). */
async function cardsOf(h: Harness, messageId: string): Promise<{ id: string; state: string; text: string }[]> {
  const cards = h.page.locator(`article[data-message-id="${messageId}"] section.toolcard`);
  const out: { id: string; state: string; text: string }[] = [];
  for (let i = 0; i < (await cards.count()); i++) {
    const card = cards.nth(i);
    out.push({
      id: (await card.getAttribute('data-call-id')) ?? '',
      state: (await card.getAttribute('class')) ?? '',
      text: (await card.textContent()) ?? '',
    });
  }
  return out;
}

void test('two answers from a relay that restarts at call_0: every card sits under its own answer with its own file and result', async () => {
  gw.fault({ match: { path: '/v1/chat/completions' }, times: -1, toolIds: 'numbered' });
  // What the host would post, in order, for two questions run through the real tool loop.
  const posted: HostMessage[] = [];
  const runner = new ToolRunner({
    tools: () => builtinTools(nodeToolHost([{ name: 'ws', path: ws }])),
    approve: () => Promise.resolve('allow'),
    trust: { isTrusted: () => true, trust: () => undefined },
    onUpdate: ({ conversationId: _c, ...update }) => posted.push({ type: 'tools/call', update }),
  });
  const c: Conversation = newConversation(1);
  for (const [n, text] of [script('a.ts', 'b.ts'), script('c.ts', 'd.ts')].entries()) {
    const requestId = `r${n}`;
    const user = { id: `u${n}`, role: 'user' as const, text, images: [], contexts: [], createdAt: 1 };
    c.messages.push(user);
    posted.push({ type: 'chat/busy', requestId }, { type: 'chat/message', requestId, message: user });
    const out = await runTurn({
      backend: new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 }),
      conversation: c,
      defaults: { model: 'gw-chat', systemPrompt: '', params: DEFAULT_PARAMS },
      executor: runner,
      maxRounds: 5,
      signal: new AbortController().signal,
      callbacks: {
        onMessage: (message) => posted.push({ type: 'chat/message', requestId, message }),
        onDelta: () => undefined,
      },
    });
    assert.equal(out.status, 'done', out.error?.detail);
    posted.push({ type: 'chat/done', requestId, message: out.last });
  }
  const withCalls = c.messages.filter((m): m is AssistantMessage => m.role === 'assistant' && !!m.toolCalls?.length);
  assert.equal(withCalls.length, 2);

  const h = await openHarness(browser());
  await h.send(snapshot({ conversation: { ...newConversation(1), id: c.id } }));
  for (const m of posted) await h.send(m);

  const first = await cardsOf(h, withCalls[0]!.id);
  const second = await cardsOf(h, withCalls[1]!.id);
  assert.deepEqual(
    first.map((x) => x.id),
    ['call_0', 'call_1'],
  );
  assert.deepEqual(
    second.map((x) => x.id),
    ['call_0_2', 'call_1_2'],
  );
  for (const [card, file] of [
    [first[0], 'a'],
    [first[1], 'b'],
    [second[0], 'c'],
    [second[1], 'd'],
  ] as const) {
    assert.ok(card);
    assert.match(card.state, /state-done/);
    assert.match(card.text, new RegExp(`"path": "${file}\\.ts"`), `card ${card.id} shows its own arguments`);
    assert.match(card.text, new RegExp(`export const ${file.toUpperCase()} =`), `card ${card.id} shows its own result`);
  }
  assert.equal(await h.page.locator('section.toolcard').count(), 4, 'no card was moved or doubled');
  await h.page.context().close();
});

const conversationWith = (id: string, file: string, result: string): Conversation => ({
  ...newConversation(1),
  id,
  messages: [
    { id: `${id}-u`, role: 'user', text: 'read it', images: [], contexts: [], createdAt: 1 },
    {
      id: `${id}-a`,
      role: 'assistant',
      content: '',
      status: 'done',
      requestedModel: 'gw-chat',
      createdAt: 2,
      toolCalls: [
        { id: 'call_0', type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path: file }) } },
      ],
    },
    { id: `${id}-t`, role: 'tool', toolCallId: 'call_0', name: 'read_file', content: result, createdAt: 3 },
  ],
});

const open = (conversation: Conversation): HostMessage => ({
  type: 'chat/conversation',
  conversation,
  defaults: DEFAULT_PARAMS,
  defaultModel: 'gw-chat',
  defaultSystemPrompt: '',
});

void test('another conversation with its own call_0 shows its own card, not the live state of the one before', async () => {
  const h = await openHarness(browser());
  const one = conversationWith('c-one', 'a.ts', 'export const A = 1;');
  const two = conversationWith('c-two', 'b.ts', 'export const B = 2;');
  await h.send(snapshot({ conversation: one }));
  const live: ToolCallUpdate = {
    callId: 'call_0',
    name: 'read_file',
    argumentsJson: '{"path":"a.ts"}',
    state: 'done',
    readOnly: true,
    resultPreview: 'export const A = 1; (live)',
  };
  await h.send({ type: 'tools/call', update: live });
  assert.match((await cardsOf(h, 'c-one-a'))[0]?.text ?? '', /\(live\)/);

  await h.send(open(two));
  const [card] = await cardsOf(h, 'c-two-a');
  assert.ok(card);
  assert.match(card.text, /"path": "b\.ts"/);
  assert.match(card.text, /export const B = 2;/);
  assert.doesNotMatch(card.text, /a\.ts|export const A/);

  // The same conversation sent again (regenerate, settings) keeps what its cards showed live.
  await h.send({
    type: 'tools/call',
    update: {
      callId: 'call_0',
      name: 'read_file',
      argumentsJson: '{"path":"b.ts"}',
      state: 'error',
      readOnly: true,
      resultPreview: 'b.ts is locked',
    },
  });
  await h.send(open(two));
  const [again] = await cardsOf(h, 'c-two-a');
  assert.match(again?.state ?? '', /state-error/);
  assert.match(again?.text ?? '', /b\.ts is locked/);

  // Back to the first: its card comes from its own history.
  await h.send(open(one));
  const [back] = await cardsOf(h, 'c-one-a');
  assert.match(back?.text ?? '', /"path": "a\.ts"/);
  assert.doesNotMatch(back?.text ?? '', /b\.ts/);
  await h.page.context().close();
});

void test("a regenerated answer that gets the dropped answer's id shows its own call, not the dropped one's result", async () => {
  const h = await openHarness(browser());
  const base = conversationWith('c-re', 'a.ts', 'export const A = 1;');
  const q2 = { id: 'c-re-u2', role: 'user' as const, text: 'and b', images: [], contexts: [], createdAt: 4 };
  const dropped: Conversation = {
    ...base,
    messages: [
      ...base.messages,
      q2,
      {
        id: 'c-re-a2',
        role: 'assistant',
        content: '',
        status: 'done',
        requestedModel: 'gw-chat',
        createdAt: 5,
        toolCalls: [
          { id: 'call_0_2', type: 'function', function: { name: 'read_file', arguments: '{"path":"b.ts"}' } },
        ],
      },
      {
        id: 'c-re-t2',
        role: 'tool',
        toolCallId: 'call_0_2',
        name: 'read_file',
        content: 'export const B = 2;',
        createdAt: 6,
      },
    ],
  };
  await h.send(snapshot({ conversation: dropped }));
  await h.send({
    type: 'tools/call',
    update: {
      callId: 'call_0_2',
      name: 'read_file',
      argumentsJson: '{"path":"b.ts"}',
      state: 'done',
      readOnly: true,
      resultPreview: 'export const B = 2;',
    },
  });
  // Regenerate: the host drops the answer after the last question and sends the conversation again.
  await h.send(open({ ...base, messages: [...base.messages, q2] }));
  // The new answer reuses call_0 on the wire, so it is stored as call_0_2 again; here the round
  // limit answers it without running it, so no live card update ever comes for it.
  await h.send({
    type: 'chat/message',
    requestId: 'r9',
    message: {
      id: 'c-re-a3',
      role: 'assistant',
      content: '',
      status: 'done',
      requestedModel: 'gw-chat',
      createdAt: 7,
      toolCalls: [{ id: 'call_0_2', type: 'function', function: { name: 'read_file', arguments: '{"path":"c.ts"}' } }],
    },
  });
  await h.send({
    type: 'chat/message',
    requestId: 'r9',
    message: {
      id: 'c-re-t3',
      role: 'tool',
      toolCallId: 'call_0_2',
      name: 'read_file',
      content: 'Not run: the limit of tool-call rounds for this message was reached.',
      createdAt: 8,
    },
  });
  const [card] = await cardsOf(h, 'c-re-a3');
  assert.ok(card);
  assert.match(card.text, /"path": "c\.ts"/);
  assert.doesNotMatch(card.text, /b\.ts|export const B/);
  // The first answer's card, still in the conversation, kept its own.
  assert.match((await cardsOf(h, 'c-re-a'))[0]?.text ?? '', /"path": "a\.ts"[\s\S]*export const A = 1;/);
  await h.page.context().close();
});
