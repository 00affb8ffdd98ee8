// ContextGuard on its own against the local gateway's windowed models: a long conversation fitted
// into a 4096 window (earlier turns summarised by the model, the newest question kept whole and
// accepted by the gateway), a window learnt from an overflow and remembered in the storage, the
// meter's numbers, the tools per mode, and the words of its failures. Real HTTP.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GatewayClient } from '../../../../../src/api/client';
import type { ChatRequest, ToolDefinition } from '../../../../../src/api/chat/wire';
import { ContextGuard } from '../../../../../src/chat/context/core/contextGuard';
import { ContextTooSmall } from '../../../../../src/chat/context/core/compaction';
import { newConversation } from '../../../../../src/chat/history/core/store';
import type { ToolExecutor } from '../../../../../src/chat/tools/core/seam';
import type { Conversation } from '../../../../../src/shared/protocol';
import { countPromptTokens } from '../../../../gateway/context';
import { gatewayFailure, useGateway } from '../../../../support/helpers';
import { MemoryStorage } from '../../../../support/memoryStorage';
import { SETTINGS } from '../../../../support/sessionHarness';

const gw = useGateway({ contextModels: true });

const client = () => new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 });
const defaults = (model: string) => ({ model, systemPrompt: 'Be brief.', params: SETTINGS.params });
const signal = () => new AbortController().signal;

/** `turns` answered turns of ~`chars` characters each, then the newest question, unanswered. */
function longConversation(turns: number, chars: number, newest: string): Conversation {
  const c = newConversation(1);
  let t = 1;
  for (let i = 0; i < turns; i++) {
    c.messages.push({
      id: `u${i}`,
      role: 'user',
      text: `question ${i} ${'q'.repeat(chars)}`,
      images: [],
      contexts: [],
      createdAt: t++,
    });
    c.messages.push({
      id: `a${i}`,
      role: 'assistant',
      content: `answer ${i} ${'a'.repeat(chars)}`,
      status: 'done',
      requestedModel: 'm',
      createdAt: t++,
    });
  }
  c.messages.push({ id: 'newest', role: 'user', text: newest, images: [], contexts: [], createdAt: t });
  return c;
}

const READ: ToolDefinition = {
  type: 'function',
  function: { name: 'read_file', description: 'Reads a file.', parameters: { type: 'object', properties: {} } },
};
const WRITE: ToolDefinition = {
  type: 'function',
  function: { name: 'write_file', description: 'Writes a file.', parameters: { type: 'object', properties: {} } },
};
const tools: ToolExecutor = {
  definitions: () => [READ, WRITE],
  readOnlyDefinitions: () => [READ],
  toolChoice: () => undefined,
  execute: () => Promise.resolve([]),
};

void test('a conversation past a 4096 window is fitted: earlier turns summarised, the newest question kept, the gateway accepts it', async () => {
  const backend = client();
  const guard = new ContextGuard({ overrides: () => ({}), now: () => 7 });
  await guard.ensureRecords(() => backend.listModels());
  assert.deepEqual(
    { window: guard.limits('gw-window-llama').window, source: guard.limits('gw-window-llama').source },
    { window: 4096, source: 'model' },
  );
  const c = longConversation(12, 1200, 'What is the newest thing?');
  const turn = guard.forTurn(c, defaults('gw-window-llama'), backend);
  const fitted = await turn.prepare({}, signal());
  assert.equal(fitted.summarised, true);
  assert.equal(fitted.window, 4096);
  assert.ok(c.compaction, 'the summary is kept on the conversation');
  assert.equal(c.compaction.createdAt, 7);
  assert.match(c.compaction.summary, /^Summary of/);
  assert.equal(c.messages.length, 25, 'the stored messages are all there');
  const sent = fitted.req.messages;
  assert.equal(sent[0]!.role, 'system');
  assert.match(sent[0]!.content as string, /Be brief\.[\s\S]*Summary of/);
  assert.deepEqual(sent.at(-1), { role: 'user', content: 'What is the newest thing?' });
  assert.ok(
    !sent.some((m) => typeof m.content === 'string' && m.content.startsWith('question 0 ')),
    'the oldest turn is gone',
  );
  // The gateway counts by its own rule and refuses past 4096: it answers.
  const answer = await backend.chat(fitted.req);
  assert.equal(answer.message.content, 'Echo: What is the newest thing?');
  assert.ok(countPromptTokens(fitted.req.messages as never, fitted.req.tools) <= 4096);
  // The server's count goes to the meter.
  turn.observe(fitted.req, answer.usage);
  assert.equal(guard.meter(c, defaults('gw-window-llama'), undefined)?.lastPromptTokens, answer.usage!.prompt_tokens);
});

void test('a window learnt from an overflow error is used from then on and remembered in the storage', async () => {
  const backend = client();
  const storage = new MemoryStorage();
  const logs: string[] = [];
  const guard = new ContextGuard({ storage, overrides: () => ({}), now: () => 1, log: (m) => logs.push(m) });
  await guard.ensureRecords(() => backend.listModels());
  assert.deepEqual(guard.limits('gw-window-unlisted'), { window: 32_768, source: 'default' });
  const c = longConversation(6, 2000, 'and now?');
  const req: ChatRequest = { model: 'gw-window-unlisted', messages: [{ role: 'user', content: 'word '.repeat(8000) }] };
  const err = await gatewayFailure(backend.chat(req));
  const turn = guard.forTurn(c, defaults('gw-window-unlisted'), backend);
  assert.equal(turn.overflowed(new Error('network down'), req), false, 'another error is not an overflow');
  assert.equal(turn.overflowed(err, req), true);
  assert.equal(guard.limits('gw-window-unlisted').window, 4096);
  assert.equal(guard.limits('gw-window-unlisted').source, 'error');
  assert.ok(
    logs.some((l) => /context overflow \(llama\.cpp\): window 4096/.test(l)),
    logs.join(' | '),
  );
  // The estimate now says the refused request was past the window.
  assert.ok(guard.estimator.count(req) > 4096 - 2048);
  // Another window over the same workspace state starts with the learnt window.
  const again = new ContextGuard({ storage, overrides: () => ({}), now: () => 1 });
  assert.deepEqual(
    { window: again.limits('gw-window-unlisted').window, source: again.limits('gw-window-unlisted').source },
    { window: 4096, source: 'error' },
  );
  // The retry the turn makes fits the learnt window.
  const fitted = await turn.prepare({}, signal());
  assert.equal(fitted.window, 4096);
  assert.equal((await backend.chat(fitted.req)).message.content, 'Echo: and now?');
});

void test('the meter states the window, its source and field, the parts and the answer reserve', async () => {
  const guard = new ContextGuard({ overrides: () => ({ 'gw-chat': { contextWindow: 5000 } }), now: () => 1 });
  await guard.ensureRecords(() => client().listModels());
  const c = longConversation(1, 400, 'hello');
  const m = guard.meter(c, { ...defaults('gw-window-openai'), systemPrompt: 'S'.repeat(400) }, tools)!;
  assert.equal(m.model, 'gw-window-openai');
  assert.equal(m.window, 8192);
  assert.equal(m.source, 'model');
  assert.equal(m.field, 'context_window');
  assert.equal(m.reserve, 2048);
  assert.equal(m.toolMode, 'all');
  assert.equal(m.fixedTooLarge, false);
  assert.ok(m.system >= 100, `system ${m.system}`);
  assert.ok(m.tools > 0 && m.history > 200, JSON.stringify(m));
  assert.equal(m.lastPromptTokens, undefined, 'nothing was sent yet');
  // Without tools the tools take nothing; an override sets the window.
  const o = guard.meter(c, defaults('gw-chat'), undefined)!;
  assert.equal(o.tools, 0);
  assert.deepEqual({ window: o.window, source: o.source }, { window: 5000, source: 'override' });
  // No model: nothing to measure.
  assert.equal(guard.meter(c, defaults(''), undefined), undefined);
});

void test('the tools a request carries follow the mode remembered per model', () => {
  const storage = new MemoryStorage();
  const guard = new ContextGuard({ storage, overrides: () => ({ noTools: { tools: false } }), now: () => 1 });
  const names = (b: { tools?: ToolDefinition[] }) => b.tools?.map((t) => t.function.name);
  assert.deepEqual(names(guard.buildOptions('m', tools)), ['read_file', 'write_file']);
  guard.setToolMode('m', 'readOnly');
  assert.deepEqual(names(guard.buildOptions('m', tools)), ['read_file']);
  assert.deepEqual(names(guard.buildOptions('other', tools)), ['read_file', 'write_file']);
  guard.setToolMode('m', 'none');
  assert.deepEqual(guard.buildOptions('m', tools), {});
  assert.deepEqual(guard.buildOptions('noTools', tools), {}, "the override's tools: false");
  assert.deepEqual(guard.buildOptions('other', undefined), {});
  assert.equal(new ContextGuard({ storage, overrides: () => ({}), now: () => 1 }).toolMode('m'), 'none');
});

void test("its failures are said in the user's words with the figures and the actions that help", async () => {
  const guard = new ContextGuard({ overrides: () => ({}), now: () => 1 });
  const fixed = guard.describe(
    new ContextTooSmall('fixed', { window: 700, system: 100, tools: 900, reserve: 200, prompt: 0 }),
  );
  assert.match(fixed!.title, /tools and the system prompt alone/);
  assert.match(fixed!.detail, /tool definitions \(900 tokens\).*window of 700 tokens/);
  assert.deepEqual(fixed!.actions, ['toolsOff', 'toolsReadOnly', 'openSettings', 'showLog']);
  const latest = guard.describe(
    new ContextTooSmall('latest', { window: 700, system: 10, tools: 0, reserve: 200, prompt: 900 }),
  );
  assert.match(latest!.title, /This message does not fit/);
  assert.deepEqual(latest!.actions, ['compact', 'openSettings', 'showLog']);
  const err = await gatewayFailure(
    client().chat({ model: 'gw-window-openai', messages: [{ role: 'user', content: 'word '.repeat(12000) }] }),
  );
  const view = guard.describe(err)!;
  assert.match(view.title, /does not fit/);
  assert.match(view.detail, /8192 tokens/);
  assert.match(view.detail, /retried once/);
  assert.deepEqual(view.actions, ['compact', 'toolsOff', 'toolsReadOnly', 'showLog']);
  assert.equal(guard.describe(new Error('other')), undefined);
});
