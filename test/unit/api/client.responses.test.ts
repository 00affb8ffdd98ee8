// The Responses API through the client against the local gateway (issue 22 item 3): the same chat
// result and stream events as chat completions, auto-detection of a responses-only model, tools,
// images, encrypted reasoning replayed, errors, 429 and a stream cut before response.completed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayClient, type ClientHooks } from '../../../src/api/client';
import { readModelCalls } from '../../../src/api/models/modelCall';
import type { ProtocolMemory } from '../../../src/api/models/modelRoute';
import type { ChatMessage, ChatRequest, ChatStreamEvent, ToolDefinition } from '../../../src/api/chat/wire';
import { gatewayFailure, useGateway } from '../../support/helpers';

const gw = useGateway();
const client = (hooks: ClientHooks = {}) =>
  new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 1 }, hooks);
const responsesClient = () =>
  client({ routing: { settingsFor: (m) => readModelCalls({ [m]: { protocol: 'responses' } }).byId[m] } });
const ask = (text: string, model = 'gw-chat', extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model,
  messages: [{ role: 'user', content: text }],
  ...extra,
});
const TOOLS: ToolDefinition[] = [
  {
    type: 'function',
    function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
  },
];
const count = (path: string) => gw.counts()[`POST ${path}`] ?? 0;

void describe('the Responses API gives the chat its usual result and events', () => {
  void it('streamed text, the model, usage and finish arrive as on chat completions', async () => {
    const events: ChatStreamEvent[] = [];
    const r = await responsesClient().streamChat(ask('hello over responses'), { onEvent: (e) => events.push(e) });
    assert.equal(r.message.content, 'Echo: hello over responses');
    assert.equal(r.finishReason, 'stop');
    assert.ok(r.usage && r.usage.prompt_tokens > 0 && r.usage.completion_tokens > 0);
    assert.ok(r.id?.startsWith('resp_'));
    const texts = events.filter((e) => e.type === 'text');
    assert.ok(texts.length > 2);
    assert.equal(texts.map((e) => (e as { text: string }).text).join(''), r.message.content);
    assert.equal(count('/v1/responses'), 1);
    assert.equal(count('/v1/chat/completions'), 0);
    const whole = await responsesClient().chat(ask('hello over responses'));
    assert.equal(whole.message.content, r.message.content);
  });

  void it('the request is stateless, asks for encrypted reasoning and carries the system prompt as instructions', async () => {
    const r = await responsesClient().chat({
      model: 'gw-chat',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: '#request' },
      ],
      max_tokens: 500,
      temperature: 0.5,
    });
    const sent = JSON.parse(r.message.content!) as Record<string, unknown>;
    assert.equal(sent.store, false);
    assert.deepEqual(sent.include, ['reasoning.encrypted_content']);
    assert.equal(sent.instructions, 'Be brief.');
    assert.equal(sent.max_output_tokens, 500);
    assert.equal(sent.temperature, 0.5);
    assert.equal(sent.messages, undefined);
    assert.deepEqual(sent.input, [{ role: 'user', content: [{ type: 'input_text', text: '#request' }] }]);
  });

  void it('images go as input_image', async () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    const r = await responsesClient().streamChat({
      model: 'gw-vision',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'what is this' },
            { type: 'image_url', image_url: { url: png } },
          ],
        },
      ],
    });
    assert.equal(r.message.content, 'I received 1 image(s): image/png');
  });
});

void describe('a responses-only model', () => {
  void it('is switched after the chat refusal, remembered, told once, and answers a tool round trip with its reasoning replayed', async () => {
    const learned: string[] = [];
    const c = client({ routing: { onLearned: (m) => learned.push(m) } });
    const script = JSON.stringify([
      { calls: [{ name: 'read_file', arguments: { path: 'a.ts' } }] },
      { text: 'Read it.' },
    ]);
    const events: ChatStreamEvent[] = [];
    const first = await c.streamChat(ask(`#tools ${script}`, 'gw-codex', { tools: TOOLS }), {
      onEvent: (e) => events.push(e),
    });
    assert.deepEqual(learned, ['gw-codex']);
    assert.equal(count('/v1/chat/completions'), 1, 'one refused chat request');
    assert.equal(first.finishReason, 'tool_calls');
    const call = first.message.tool_calls![0]!;
    assert.equal(call.function.name, 'read_file');
    assert.deepEqual(JSON.parse(call.function.arguments), { path: 'a.ts' });
    assert.match(first.message.reasoning_content ?? '', /I will answer plainly/);
    assert.ok(events.some((e) => e.type === 'reasoning'));
    assert.ok(events.some((e) => e.type === 'tool_call' && e.name === 'read_file'));
    const history: ChatMessage[] = [
      { role: 'user', content: `#tools ${script}` },
      { role: 'assistant', content: first.message.content, tool_calls: first.message.tool_calls },
      { role: 'tool', tool_call_id: call.id, content: 'export const a = 1;' },
    ];
    const second = await c.streamChat({ model: 'gw-codex', messages: history, tools: TOOLS });
    assert.equal(second.message.content, 'Read it.');
    assert.equal(count('/v1/chat/completions'), 1, 'no second try on chat completions');
    assert.deepEqual(learned, ['gw-codex'], 'said once');
    // What went back: the encrypted reasoning item before the call, then the call and its output.
    const echo = await c.chat({
      model: 'gw-codex',
      messages: [...history, { role: 'assistant', content: 'Read it.' }, { role: 'user', content: '#request' }],
      tools: TOOLS,
    });
    const input = (JSON.parse(echo.message.content!) as { input: Array<Record<string, unknown>> }).input;
    assert.deepEqual(
      input.map((i) => i.type ?? i.role),
      ['user', 'reasoning', 'function_call', 'function_call_output', 'reasoning', 'message', 'user'],
    );
    assert.match(String(input[1]!.encrypted_content), /^gwenc:/);
    assert.equal(input[2]!.call_id, call.id);
  });

  void it('an answer carries its encrypted reasoning, which a new client (a reloaded window) sends back with it', async () => {
    const first = await responsesClient().streamChat(ask('think first', 'gw-codex'));
    const kept = first.message.encrypted_reasoning;
    assert.equal(kept?.model, 'gw-codex');
    assert.match(String(kept?.items[0]?.encrypted_content), /^gwenc:/);
    const history: ChatMessage[] = [
      { role: 'user', content: 'think first' },
      { role: 'assistant', content: first.message.content, encrypted_reasoning: kept },
      { role: 'user', content: '#request' },
    ];
    const echo = await responsesClient().chat({ model: 'gw-codex', messages: history });
    const input = (JSON.parse(echo.message.content!) as { input: Array<Record<string, unknown>> }).input;
    assert.deepEqual(
      input.map((i) => i.type ?? i.role),
      ['user', 'reasoning', 'message', 'user'],
    );
    assert.equal(input[1]!.encrypted_content, kept!.items[0]!.encrypted_content);
  });

  void it('the remembered protocol survives a new client through the memory', async () => {
    const store = new Map<string, 'chat' | 'responses'>();
    const memory: ProtocolMemory = { get: (m) => store.get(m), set: (m, p) => void store.set(m, p) };
    const a = client({ routing: { memory } });
    await a.chat(ask('one', 'gw-codex'));
    const b = client({ routing: { memory } });
    const before = count('/v1/chat/completions');
    const r = await b.streamChat(ask('two', 'gw-codex'));
    assert.equal(r.message.content, 'Echo: two');
    assert.equal(count('/v1/chat/completions'), before);
  });
});

void describe('failures over the Responses API', () => {
  void it('429 is retried, then the answer arrives', async () => {
    gw.fault({ match: { path: '/v1/responses' }, status: 429, times: 1, headers: { 'retry-after-ms': '10' } });
    const r = await responsesClient().streamChat(ask('after a 429'));
    assert.equal(r.message.content, 'Echo: after a 429');
    assert.equal(count('/v1/responses'), 2);
  });

  void it('a mid-stream error keeps what arrived', async () => {
    gw.fault({
      match: { path: '/v1/responses' },
      midStreamError: { afterChunks: 6, message: 'upstream fell over' },
      times: 1,
    });
    const e = await gatewayFailure(responsesClient().streamChat(ask('one two three four five six seven eight')));
    assert.equal(e.kind, 'stream');
    assert.match(e.message, /upstream fell over/);
    assert.ok(e.partial && typeof e.partial.message.content === 'string');
  });

  void it('a stream that ends without response.completed is truncated, with what arrived kept', async () => {
    gw.fault({ match: { path: '/v1/responses' }, noFinishReason: true, times: 1 });
    const e = await gatewayFailure(responsesClient().streamChat(ask('cut short please')));
    assert.equal(e.kind, 'truncated');
    assert.equal(e.partial?.message.content, 'Echo: cut short please');
  });

  void it('an unknown model is a 404 as on chat completions', async () => {
    const e = await gatewayFailure(responsesClient().streamChat(ask('x', 'no-such-model')));
    assert.equal(e.kind, 'not_found');
  });
});
