import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GatewayClient } from '../../../../../src/api/client';
import type { ChatRequest } from '../../../../../src/api/chat/wire';
import {
  buildChatRequest,
  formatContext,
  RequestProblem,
  type RequestDefaults,
} from '../../../../../src/chat/conversation/core/request';
import { newConversation } from '../../../../../src/chat/history/core/store';
import { UNSET_PARAMS, useGateway, userConversation as conv } from '../../../../support/helpers';

const params = UNSET_PARAMS;
const defaults: RequestDefaults = { model: 'gw-chat', systemPrompt: 'Be brief.', params };
// A real 1x1 PNG, so the gateway sees a decodable image.
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

let client: GatewayClient;
const gw = useGateway({
  onStarted: (started) => {
    client = new GatewayClient({ baseUrl: started.url, apiKey: started.keys.valid, maxRetries: 0 });
  },
});

async function send(req: ChatRequest): Promise<{ text: string; body: Record<string, unknown> }> {
  gw.resetCounts();
  const r = await client.streamChat(req);
  const body = gw.requests().find((x) => x.route === '/v1/chat/completions')?.body as Record<string, unknown>;
  return { text: r.message.content ?? '', body };
}

void test('settings parameters go out under their spec 2.1 names; unset ones are not sent', async () => {
  const req = buildChatRequest(conv('hi'), {
    ...defaults,
    params: { ...params, temperature: 0.3, max_tokens: 50, stop: ['END'], user: 'dev-7' },
  });
  const { body } = await send(req);
  assert.equal(body.temperature, 0.3);
  assert.equal(body.max_tokens, 50);
  assert.deepEqual(body.stop, ['END']);
  assert.equal(body.user, 'dev-7');
  assert.equal('top_p' in body, false);
  assert.equal('presence_penalty' in body, false);
  assert.equal('response_format' in body, false);
  assert.deepEqual((body.messages as unknown[])[0], { role: 'system', content: 'Be brief.' });
});

void test('conversation overrides win over settings, including response_format json_object and the system prompt', async () => {
  const c = conv('give me data', {
    params: { temperature: 1.5, response_format: 'json_object' },
    systemPrompt: 'Answer in JSON.',
    model: 'gw-latest',
  });
  const req = buildChatRequest(c, { ...defaults, params: { ...params, temperature: 0.2 } });
  const { body, text } = await send(req);
  assert.equal(body.temperature, 1.5);
  assert.deepEqual(body.response_format, { type: 'json_object' });
  assert.equal(body.model, 'gw-latest');
  assert.deepEqual((body.messages as unknown[])[0], { role: 'system', content: 'Answer in JSON.' });
  assert.doesNotThrow(() => JSON.parse(text));
});

void test('an attached image is sent as an image_url part with the complete data URL, after the text', async () => {
  const c = newConversation(1);
  c.model = 'gw-vision';
  c.messages.push({
    id: 'u1',
    role: 'user',
    text: 'what is this?',
    images: [{ name: 'dot.png', mime: 'image/png', dataUrl: PNG, bytes: 70 }],
    contexts: [],
    createdAt: 1,
  });
  const { body, text } = await send(buildChatRequest(c, defaults));
  const user = (body.messages as Array<{ role: string; content: unknown }>).find((m) => m.role === 'user');
  assert.deepEqual(user?.content, [
    { type: 'text', text: 'what is this?' },
    { type: 'image_url', image_url: { url: PNG } },
  ]);
  assert.match(text, /received 1 image/);
});

void test('editor context is quoted with file name, language and lines, in a fence longer than any inside', () => {
  const s = formatContext({
    fileName: 'src/a.md',
    language: 'markdown',
    text: 'x\n```js\ny\n```\n',
    startLine: 4,
    endLine: 7,
  });
  assert.match(s, /^From src\/a\.md \(markdown, lines 5-8\):\n````markdown\n/);
  assert.ok(s.endsWith('\n````'));
  const c = conv('explain');
  const u = c.messages[0];
  if (u?.role === 'user') u.contexts.push({ fileName: 'a.py', language: 'python', text: 'print(1)' });
  const req = buildChatRequest(c, defaults);
  assert.equal(req.messages[1]?.content, 'explain\n\nFrom a.py (python):\n```python\nprint(1)\n```');
});

void test('a tool-call turn keeps reasoning_content, and a call the user stopped is still answered, so gw-reasoner accepts it', async () => {
  const c = conv(
    '#tools [{"calls":[{"name":"read_file","arguments":{"path":"a"}},{"name":"list_dir","arguments":{}}]}]',
    { model: 'gw-reasoner' },
  );
  c.messages.push({
    id: 'a1',
    role: 'assistant',
    content: '',
    reasoning: 'I should read it.',
    status: 'done',
    requestedModel: 'gw-reasoner',
    createdAt: 2,
    toolCalls: [
      { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } },
      { id: 'call_2', type: 'function', function: { name: 'list_dir', arguments: '{}' } },
    ],
  });
  c.messages.push({ id: 't1', role: 'tool', toolCallId: 'call_1', name: 'read_file', content: 'hello', createdAt: 3 });
  const req = buildChatRequest(c, defaults, {
    tools: [
      { type: 'function', function: { name: 'read_file', parameters: { type: 'object' } } },
      { type: 'function', function: { name: 'list_dir', parameters: { type: 'object' } } },
    ],
  });
  const asst = req.messages.find((m) => m.role === 'assistant');
  assert.equal(asst?.role === 'assistant' ? asst.reasoning_content : undefined, 'I should read it.');
  assert.deepEqual(
    req.messages.filter((m) => m.role === 'tool').map((m) => (m.role === 'tool' ? m.tool_call_id : '')),
    ['call_1', 'call_2'],
  );
  const { text } = await send(req);
  assert.match(text, /Done\. Tool results: read_file=hello/);
});

void test('a failed answer with no text is left out, a stopped partial answer is kept', () => {
  const c = conv('first');
  c.messages.push({
    id: 'a1',
    role: 'assistant',
    content: '',
    status: 'error',
    requestedModel: 'gw-chat',
    createdAt: 2,
    error: { title: 't', detail: 'd', actions: [] },
  });
  c.messages.push({ id: 'u2', role: 'user', text: 'second', images: [], contexts: [], createdAt: 3 });
  c.messages.push({
    id: 'a2',
    role: 'assistant',
    content: 'half an ans',
    status: 'stopped',
    requestedModel: 'gw-chat',
    createdAt: 4,
  });
  c.messages.push({ id: 'u3', role: 'user', text: 'third', images: [], contexts: [], createdAt: 5 });
  const roles = buildChatRequest(c, defaults).messages.map(
    (m) => `${m.role}:${typeof m.content === 'string' ? m.content : ''}`,
  );
  assert.deepEqual(roles, ['system:Be brief.', 'user:first', 'user:second', 'assistant:half an ans', 'user:third']);
});

void test('an out-of-range setting is named with its setting key; no model at all says how to pick one', () => {
  assert.throws(
    () => buildChatRequest(conv('x'), { ...defaults, params: { ...params, temperature: 3 } }),
    (e: unknown) =>
      e instanceof RequestProblem && /gatewayStudio\.chat\.temperature/.test(e.message) && /3/.test(e.message),
  );
  assert.throws(
    () => buildChatRequest(conv('x', { params: { top_p: 1.5 } }), defaults),
    (e: unknown) => e instanceof RequestProblem && /this conversation's settings/.test(e.message),
  );
  assert.throws(
    () => buildChatRequest(conv('x'), { ...defaults, model: '' }),
    (e: unknown) => e instanceof RequestProblem && e.field === 'model',
  );
});
