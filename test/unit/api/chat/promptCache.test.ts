// Prompt caching (issue 39 item 5, src/api/chat/promptCache.ts): the per-family defaults and the
// setting over them, the breakpoints and where the editor state goes, the 400 that names a cache
// field (dropped, sent once more, remembered, told once), and all of it through the client
// against the local gateway's simulated cache.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayClient } from '../../../../src/api/client';
import {
  cacheFieldRefused,
  cacheModeFor,
  defaultCacheMode,
  markBreakpoints,
  placeEnvironment,
  readCachedTokens,
  shapeChatBody,
  type CacheField,
} from '../../../../src/api/chat/promptCache';
import { readModelCalls } from '../../../../src/api/models/modelCall';
import type { ChatMessage, ChatRequest, ToolDefinition, Usage } from '../../../../src/api/chat/wire';
import { GatewayError } from '../../../../src/api/transport/errors';
import { useGateway } from '../../../support/helpers';

const gw = useGateway({ models: { 'claude-sonnet-4-5': 'gw-chat', 'gpt-5-mini': 'gw-chat' } });

const TOOL: ToolDefinition = { type: 'function', function: { name: 'read_file', parameters: { type: 'object' } } };
const ENV = '# Editor state\n(Added by Gateway Studio at this request; not a message from the user.)\n- Today';
const MARK = { type: 'ephemeral' };

void describe('the default per model family, and the setting over it', () => {
  void it('Claude ids get breakpoints, OpenAI ids a key, others nothing', () => {
    for (const id of ['claude-sonnet-4-5', 'anthropic/claude-3.7-sonnet', 'anthropic.claude-3-5-haiku', 'Claude-Opus'])
      assert.equal(defaultCacheMode(id), 'cache_control', id);
    for (const id of [
      'gpt-5-mini',
      'gpt-4o',
      'openai/gpt-4.1',
      'o3',
      'o4-mini',
      'codex-mini-latest',
      'chatgpt-4o-latest',
    ])
      assert.equal(defaultCacheMode(id), 'prompt_cache_key', id);
    for (const id of [
      'gpt-oss-120b',
      'openrouter/gpt-oss-20b',
      'deepseek-chat',
      'qwen3-coder',
      'gemini-2.5-pro',
      'gw-chat',
      'o',
    ])
      assert.equal(defaultCacheMode(id), 'off', id);
  });

  void it('the setting wins unless it says auto', () => {
    assert.equal(cacheModeFor('deepseek-chat', 'cache_control'), 'cache_control');
    assert.equal(cacheModeFor('claude-sonnet-4-5', 'off'), 'off');
    assert.equal(cacheModeFor('gpt-4o', 'auto'), 'prompt_cache_key');
    assert.equal(cacheModeFor('gpt-4o', undefined), 'prompt_cache_key');
  });

  void it('models.overrides reads promptCache and names a wrong value', () => {
    const calls = readModelCalls({ a: { promptCache: 'cache_control' }, b: { promptCache: 'always' } });
    assert.equal(calls.byId.a?.promptCache, 'cache_control');
    assert.equal(calls.byId.b?.promptCache, undefined);
    assert.deepEqual(calls.problems, [
      'gatewayStudio.models.overrides["b"].promptCache must be one of auto, cache_control, prompt_cache_key, off; it is "always".',
    ]);
  });
});

void describe('breakpoints and the editor state', () => {
  const convo: ChatMessage[] = [
    { role: 'system', content: 'S' },
    { role: 'user', content: 'u1' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: 'c1', content: 't1' },
  ];

  void it('marks the system prompt, the last tool and the last two user or tool messages (four at most)', () => {
    const { messages, tools } = markBreakpoints(convo, [TOOL, { ...TOOL, function: { name: 'b' } }]);
    assert.deepEqual(messages[0], { role: 'system', content: [{ type: 'text', text: 'S', cache_control: MARK }] });
    assert.deepEqual(messages[1], { role: 'user', content: [{ type: 'text', text: 'u1', cache_control: MARK }] });
    assert.deepEqual(messages[2], convo[2]);
    assert.deepEqual(messages[3], {
      role: 'tool',
      tool_call_id: 'c1',
      content: [{ type: 'text', text: 't1', cache_control: MARK }],
    });
    assert.equal(tools?.[0], TOOL);
    assert.deepEqual(tools?.[1], { ...TOOL, function: { name: 'b' }, cache_control: MARK });
    assert.equal(JSON.stringify({ messages, tools }).split('cache_control').length - 1, 4);
    assert.deepEqual(convo[1], { role: 'user', content: 'u1' }, 'the input is not changed');
    const hour = markBreakpoints(convo, undefined, '1h');
    assert.match(JSON.stringify(hour.messages[0]), /"cache_control":\{"type":"ephemeral","ttl":"1h"\}/);
  });

  void it('the editor state goes last: its own part after a user message, a user message after tool results', () => {
    const user = placeEnvironment(convo.slice(0, 2), ENV, true);
    assert.deepEqual(user[1]!.content, [
      { type: 'text', text: 'u1' },
      { type: 'text', text: ENV },
    ]);
    assert.deepEqual(placeEnvironment(convo.slice(0, 2), ENV, false)[1]!.content, `u1\n\n${ENV}`);
    const tool = placeEnvironment(convo, ENV, false);
    assert.deepEqual(tool.at(-1), { role: 'user', content: ENV });
    assert.deepEqual(tool.slice(0, -1), convo);
    const cont = convo.slice(0, 3);
    assert.equal(placeEnvironment(cont, ENV, false), cont, 'a continuation gets nothing after it');
  });

  void it('the shaped body: no non-wire field, the mark before the editor state, the key only for its mode', () => {
    const body = { model: 'm', messages: convo.slice(0, 2), tools: [TOOL], environment: ENV, cacheKey: 'k1' };
    const marked = shapeChatBody(body, { mode: 'cache_control' });
    assert.ok(!('environment' in marked) && !('cacheKey' in marked) && !('prompt_cache_key' in marked));
    const last = (marked.messages as ChatMessage[]).at(-1)!;
    assert.deepEqual(last.content, [
      { type: 'text', text: 'u1', cache_control: MARK },
      { type: 'text', text: ENV },
    ]);
    const keyed = shapeChatBody(body, { mode: 'prompt_cache_key' });
    assert.equal(keyed.prompt_cache_key, 'k1');
    assert.ok(!JSON.stringify(keyed).includes('cache_control'));
    const refused = new Set<CacheField>(['prompt_cache_key']);
    assert.ok(!('prompt_cache_key' in shapeChatBody(body, { mode: 'prompt_cache_key' }, refused)));
    const off = shapeChatBody(body, { mode: 'off' });
    assert.deepEqual(off, {
      model: 'm',
      messages: [convo[0], { role: 'user', content: `u1\n\n${ENV}` }],
      tools: [TOOL],
    });
  });
});

void describe('a refusal naming a cache field', () => {
  const err = (status: number, message: string, param: string | null = null) =>
    new GatewayError('bad_request', message, { status, param });
  const marked = { messages: [{ role: 'user', content: [{ type: 'text', text: 'x', cache_control: MARK }] }] };

  void it('is read from the param or the message, only when the field was sent', () => {
    assert.equal(cacheFieldRefused(err(400, 'bad', 'prompt_cache_key'), { prompt_cache_key: 'k' }), 'prompt_cache_key');
    assert.equal(
      cacheFieldRefused(err(400, 'Unrecognized request argument supplied: prompt_cache_key'), {
        prompt_cache_key: 'k',
      }),
      'prompt_cache_key',
    );
    assert.equal(
      cacheFieldRefused(err(422, 'messages.0.content.0.cache_control: Extra inputs are not permitted'), marked),
      'cache_control',
    );
    assert.equal(cacheFieldRefused(err(400, 'x', 'messages[0].content[0].cache_control'), marked), 'cache_control');
    assert.equal(cacheFieldRefused(err(400, 'bad', 'prompt_cache_key'), {}), undefined, 'not sent: not ours');
    assert.equal(cacheFieldRefused(err(400, 'temperature out of range', 'temperature'), marked), undefined);
    assert.equal(cacheFieldRefused(err(500, 'cache_control broke'), marked), undefined);
    assert.equal(cacheFieldRefused(new Error('cache_control'), marked), undefined);
  });
});

void describe('through the client against the local gateway', () => {
  const told: string[] = [];
  const seen: (Usage | undefined)[] = [];
  const client = (setting?: string) =>
    new GatewayClient(
      { baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 },
      {
        observer: (a) => seen.push(a.usage),
        routing: {
          settingsFor: (m) => (setting ? readModelCalls({ [m]: { promptCache: setting } }).byId[m] : undefined),
          onCacheRefused: (model, field) => told.push(`${model} ${field}`),
        },
      },
    );
  const bodies = () =>
    gw
      .requests()
      .filter((r) => r.path === '/v1/chat/completions')
      .map((r) => r.body as Record<string, unknown>);
  const long = 'a stable system prompt of some length. '.repeat(600);
  const req = (model: string, turns: string[]): ChatRequest => ({
    model,
    messages: [{ role: 'system', content: long }, ...turns.map((t) => ({ role: 'user' as const, content: t }))],
    tools: [TOOL],
    environment: ENV,
    cacheKey: 'gws-conv-1',
  });

  void it('a Claude model is sent breakpoints and reads the cache from its second request', async () => {
    gw.setPromptCache({ enabled: true });
    try {
      const c = client();
      const first = await c.streamChat(req('claude-sonnet-4-5', ['one']));
      const second = await c.streamChat(req('claude-sonnet-4-5', ['one', 'two']));
      assert.equal(first.message.content, 'Echo: one', 'the editor state is not read as the question');
      assert.equal(readCachedTokens(first.usage), 0);
      const cached = readCachedTokens(second.usage) ?? 0;
      assert.ok(cached > 0.8 * second.usage!.prompt_tokens, `${cached} of ${second.usage!.prompt_tokens}`);
      assert.equal(second.usage?.cache_read_input_tokens, cached, "the relay's Anthropic field");
      // What the ledger is told has it in OpenAI's field too.
      assert.deepEqual(seen.at(-1)?.prompt_tokens_details, { cached_tokens: cached });
      const [b1] = bodies();
      assert.match(JSON.stringify(b1), /cache_control/);
      assert.ok(!('prompt_cache_key' in b1!) && !('environment' in b1!) && !('cacheKey' in b1!));
    } finally {
      gw.setPromptCache({ enabled: false });
    }
  });

  void it('an OpenAI model is sent the conversation key and is cached in 1,024-token blocks', async () => {
    gw.setPromptCache({ enabled: true, dialect: 'flat' });
    try {
      const c = client();
      await c.chat(req('gpt-5-mini', ['one']));
      const second = await c.chat(req('gpt-5-mini', ['one', 'two']));
      const cached = readCachedTokens(second.usage) ?? 0;
      assert.ok(cached > 0 && cached % 1024 === 0, String(cached));
      assert.equal(second.usage?.cached_tokens, cached, 'the flat dialect');
      assert.equal(bodies()[0]!.prompt_cache_key, 'gws-conv-1');
      assert.ok(!JSON.stringify(bodies()).includes('cache_control'));
    } finally {
      gw.setPromptCache({ enabled: false, dialect: 'auto' });
    }
  });

  void it('a 400 naming cache_control: sent once more without it, remembered for the model, told once', async () => {
    gw.setPromptCache({ refuse: ['cache_control'] });
    told.length = 0;
    try {
      const c = client();
      const r = await c.streamChat(req('claude-sonnet-4-5', ['one']));
      assert.equal(r.message.content, 'Echo: one');
      await c.streamChat(req('claude-sonnet-4-5', ['one', 'two']));
      const sent = bodies().map((b) => JSON.stringify(b).includes('cache_control'));
      assert.deepEqual(sent, [true, false, false], 'refused once, then never sent again');
      assert.deepEqual(told, ['claude-sonnet-4-5 cache_control']);
      assert.equal(gw.requests().length, 3, 'one retry, nothing else');
    } finally {
      gw.setPromptCache({ refuse: [] });
    }
  });

  void it('a 400 naming prompt_cache_key is dropped the same way; the setting can turn caching off', async () => {
    gw.setPromptCache({ refuse: ['prompt_cache_key'] });
    told.length = 0;
    try {
      const r = await client().chat(req('gpt-5-mini', ['one']));
      assert.equal(r.message.content, 'Echo: one');
      assert.deepEqual(
        bodies().map((b) => 'prompt_cache_key' in b),
        [true, false],
      );
      assert.deepEqual(told, ['gpt-5-mini prompt_cache_key']);
      gw.resetCounts();
      await client('off').chat(req('gpt-5-mini', ['one']));
      await client('off').chat(req('claude-sonnet-4-5', ['one']));
      assert.ok(!JSON.stringify(bodies()).match(/cache_control|prompt_cache_key/), 'off sends neither');
    } finally {
      gw.setPromptCache({ refuse: [] });
    }
  });

  void it('another 400 is not retried', async () => {
    gw.fault({
      status: 400,
      body: {
        error: { type: 'invalid_request_error', code: 'bad', message: 'temperature is off', param: 'temperature' },
      },
    });
    await assert.rejects(client().chat(req('claude-sonnet-4-5', ['one'])), /temperature is off/);
    assert.equal(bodies().length, 1);
  });
});
