import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GatewayError } from '../../../../src/api/transport/errors';
import { ModelRouter, isResponsesOnly } from '../../../../src/api/models/modelRoute';
import { isReasoningRefusal } from '../../../../src/api/responses/call';

const err = (status: number, message: string, code?: string, param?: string) =>
  new GatewayError('bad_request', message, { status, code, param });

void test('what servers answer for a responses-only model is recognised, other refusals are not', () => {
  assert.ok(
    isResponsesOnly(
      err(
        404,
        'HTTP 404 from POST /v1/chat/completions: This model is only supported in v1/responses and not in v1/chat/completions.',
      ),
    ),
  );
  assert.ok(
    isResponsesOnly(
      err(
        400,
        'The chatCompletion operation does not work with the specified model, gpt-5.1-codex.',
        'OperationNotSupported',
      ),
    ),
  );
  assert.ok(
    isResponsesOnly(
      err(400, 'model gpt-5.3-codex is not accessible via the /chat/completions endpoint', 'unsupported_api_for_model'),
    ),
  );
  assert.ok(
    !isResponsesOnly(err(404, 'The model `x` does not exist or you do not have access to it.', 'model_not_found')),
  );
  assert.ok(!isResponsesOnly(err(500, 'only supported in v1/responses')));
  assert.ok(!isResponsesOnly(new Error('only supported in v1/responses')));
});

void test('a refusal of the reasoning fields is recognised by param or words', () => {
  assert.ok(isReasoningRefusal(err(400, 'Unsupported parameter', undefined, 'reasoning.summary')));
  assert.ok(
    isReasoningRefusal(err(400, "Unsupported parameter: 'reasoning.effort' is not supported with this model.")),
  );
  assert.ok(!isReasoningRefusal(err(400, 'temperature out of range', undefined, 'temperature')));
});

void test('the setting wins over what was learnt, learning is told once', () => {
  const told: string[] = [];
  const r = new ModelRouter({ onLearned: (m) => told.push(m) });
  assert.equal(r.protocol('m', {}), 'chat');
  r.learn('m', {});
  r.learn('m', {});
  assert.deepEqual(told, ['m']);
  assert.equal(r.protocol('m', {}), 'responses');
  assert.equal(r.protocol('m', { protocol: 'chat' }), 'chat');
});

void test('the chat body gets the model sampling, effort, wire model and extraBody (null deletes)', () => {
  const r = new ModelRouter();
  const body = r.chatBody(
    { model: 'gpt-5#fast', messages: [], temperature: 0.2 },
    {
      wireModel: 'gpt-5',
      reasoningEffort: 'minimal',
      sampling: { top_p: 0.9 },
      extraBody: { temperature: null, x: { y: 1 } },
    },
  );
  assert.deepEqual(body, { model: 'gpt-5', messages: [], top_p: 0.9, reasoning_effort: 'minimal', x: { y: 1 } });
});

void test('encrypted reasoning is sent back before the same answer, for the same model only', async () => {
  const r = new ModelRouter();
  const m = {
    role: 'assistant' as const,
    content: null,
    tool_calls: [{ id: 'c1', type: 'function' as const, function: { name: 'f', arguments: '{}' } }],
  };
  r.rememberReasoning('a', m, [{ type: 'reasoning', id: 'rs1', summary: [], encrypted_content: 'E' }]);
  const req = { model: 'a', messages: [{ role: 'user' as const, content: 'q' }, m] };
  const input = (await r.responsesBody(req, true, {})).input as Array<Record<string, unknown>>;
  assert.deepEqual(
    input.map((i) => i.type ?? i.role),
    ['user', 'reasoning', 'function_call'],
  );
  const other = (await r.responsesBody({ ...req, model: 'b' }, true, {})).input as Array<Record<string, unknown>>;
  assert.deepEqual(
    other.map((i) => i.type ?? i.role),
    ['user', 'function_call'],
  );
});

void test('encrypted reasoning kept with the answer by its caller is sent back by a new router, for its model only; chat completions never gets it', async () => {
  const kept = { model: 'a', items: [{ type: 'reasoning' as const, id: 'rs9', summary: [], encrypted_content: 'K' }] };
  const m = { role: 'assistant' as const, content: 'earlier answer', encrypted_reasoning: kept };
  const req = {
    model: 'a',
    messages: [{ role: 'user' as const, content: 'q' }, m, { role: 'user' as const, content: 'next' }],
  };
  // A new router (a reloaded window) has seen nothing: what the message carries is what goes back.
  const input = (await new ModelRouter().responsesBody(req, true, {})).input as Array<Record<string, unknown>>;
  assert.deepEqual(input[1], { type: 'reasoning', id: 'rs9', summary: [], encrypted_content: 'K' });
  assert.deepEqual(
    input.map((i) => i.type ?? i.role),
    ['user', 'reasoning', 'message', 'user'],
  );
  assert.ok(!JSON.stringify(input).includes('encrypted_reasoning'), 'the carrier field itself is not sent');
  const other = (await new ModelRouter().responsesBody({ ...req, model: 'b' }, true, {})).input as Array<
    Record<string, unknown>
  >;
  assert.deepEqual(
    other.map((i) => i.type ?? i.role),
    ['user', 'message', 'user'],
    "another model's ciphertext is not sent: it could not read it",
  );
  const chat = new ModelRouter().chatBody(req, {});
  assert.deepEqual((chat.messages as unknown[])[1], { role: 'assistant', content: 'earlier answer' });
  assert.equal(req.messages[1], m, "the caller's request is not changed");
  assert.equal(m.encrypted_reasoning, kept);
});

void test("webSearch asks for OpenRouter's web plugin on chat and the web_search tool on responses", async () => {
  const r = new ModelRouter();
  assert.deepEqual(r.chatBody({ model: 'm', messages: [] }, { webSearch: true }).plugins, [{ id: 'web' }]);
  // extraBody still tunes the plugin (its list replaces ours).
  assert.deepEqual(
    r.chatBody(
      { model: 'm', messages: [] },
      { webSearch: true, extraBody: { plugins: [{ id: 'web', max_results: 3 }] } },
    ).plugins,
    [{ id: 'web', max_results: 3 }],
  );
  assert.equal(r.chatBody({ model: 'm', messages: [] }, {}).plugins, undefined);
  const tools = [{ type: 'function' as const, function: { name: 'read_file', parameters: {} } }];
  const body = await r.responsesBody({ model: 'm', messages: [{ role: 'user', content: 'hi' }], tools }, true, {
    webSearch: true,
  });
  const sent = body.tools as Array<{ type: string; name?: string }>;
  assert.deepEqual(
    sent.map((t) => t.type),
    ['function', 'web_search'],
  );
});
