// Client-side checks of spec 2.1 and section 8: every range and limit is refused before anything
// is sent, with an error naming the field. Each case also proves the gateway saw no request.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateChatRequest } from '../../../../src/api/chat/validation';
import type { ChatRequest } from '../../../../src/api/chat/wire';
import { GatewayClient } from '../../../../src/api/client';
import { GatewayError } from '../../../../src/api/transport/errors';
import { describeError } from '../../../../src/contracts/errorWords';
import { useGateway } from '../../../support/helpers';

const gw = useGateway();

const base = (): ChatRequest => ({ model: 'gw-chat', messages: [{ role: 'user', content: 'hi' }] });

/** Sends through both entry points and expects a validation error on `field`, with nothing sent. */
async function refused(req: ChatRequest, field: string, message?: RegExp): Promise<void> {
  const c = new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid });
  for (const call of [() => c.chat(req), () => c.streamChat(req)]) {
    let caught: unknown;
    try {
      await call();
    } catch (e) {
      caught = e;
    }
    assert.ok(caught instanceof GatewayError, `expected a validation error for ${field}`);
    assert.equal(caught.kind, 'validation');
    assert.equal(caught.field, field);
    assert.ok(caught.message.includes(field.replace(/\[\d+\].*/, '')), `message names the field: ${caught.message}`);
    if (message) assert.match(caught.message, message);
    assert.equal(describeError(caught).title, 'Invalid request');
  }
  assert.equal(gw.requests().length, 0, 'nothing was sent');
}

void describe('chat request limits (spec 8)', () => {
  void it('temperature must lie in 0..2', async () => {
    await refused({ ...base(), temperature: 2.01 }, 'temperature', /between 0 and 2/);
    await refused({ ...base(), temperature: -0.1 }, 'temperature');
    await refused({ ...base(), temperature: Number.NaN }, 'temperature');
    assert.doesNotThrow(() => validateChatRequest({ ...base(), temperature: 0 }));
    assert.doesNotThrow(() => validateChatRequest({ ...base(), temperature: 2 }));
  });

  void it('top_p must lie in 0..1', async () => {
    await refused({ ...base(), top_p: 1.5 }, 'top_p', /between 0 and 1/);
    await refused({ ...base(), top_p: -1 }, 'top_p');
    assert.doesNotThrow(() => validateChatRequest({ ...base(), top_p: 1 }));
  });

  void it('presence_penalty and frequency_penalty must lie in -2..2', async () => {
    await refused({ ...base(), presence_penalty: 2.5 }, 'presence_penalty');
    await refused({ ...base(), presence_penalty: -2.5 }, 'presence_penalty');
    await refused({ ...base(), frequency_penalty: 3 }, 'frequency_penalty');
    await refused({ ...base(), frequency_penalty: -3 }, 'frequency_penalty');
    assert.doesNotThrow(() => validateChatRequest({ ...base(), presence_penalty: -2, frequency_penalty: 2 }));
  });

  void it('stop allows at most 4 sequences, each non-empty', async () => {
    await refused({ ...base(), stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop', /at most 4/);
    await refused({ ...base(), stop: ['a', ''] }, 'stop[1]');
    assert.doesNotThrow(() => validateChatRequest({ ...base(), stop: ['a', 'b', 'c', 'd'] }));
    assert.doesNotThrow(() => validateChatRequest({ ...base(), stop: 'END' }));
  });

  void it('max_tokens must be a whole number of at least 1', async () => {
    await refused({ ...base(), max_tokens: 0 }, 'max_tokens');
    await refused({ ...base(), max_tokens: 10.5 }, 'max_tokens');
  });

  void it('temperature and top_p together pass with a warning (the spec says use one of them)', () => {
    const r = validateChatRequest({ ...base(), temperature: 1, top_p: 0.5 });
    assert.equal(r.warnings.length, 1);
    assert.match(r.warnings[0] ?? '', /top_p/);
  });
});

void describe('chat request fields (spec 2.1)', () => {
  void it('model is required and has no whitespace', async () => {
    await refused({ ...base(), model: '' }, 'model', /required/);
    await refused({ ...base(), model: 'gw chat' }, 'model');
  });

  void it('messages must not be empty and roles must be system, user, assistant or tool', async () => {
    await refused({ ...base(), messages: [] }, 'messages');
    await refused(
      { ...base(), messages: [{ role: 'robot', content: 'x' } as unknown as ChatRequest['messages'][number]] },
      'messages[0].role',
    );
  });

  void it('content parts are text or image_url, and an image URL is https or a complete base64 data URL', async () => {
    await refused(
      { ...base(), messages: [{ role: 'user', content: [{ type: 'audio' } as never] }] },
      'messages[0].content[0].type',
    );
    await refused(
      {
        ...base(),
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'file:///etc/passwd' } }] }],
      },
      'messages[0].content[0].image_url.url',
    );
    await refused(
      {
        ...base(),
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,' } }] }],
      },
      'messages[0].content[0].image_url.url',
      /base64/,
    );
    assert.doesNotThrow(() =>
      validateChatRequest({
        ...base(),
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'see' },
              { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
            ],
          },
        ],
      }),
    );
  });

  void it('a tool message needs a tool_call_id that an earlier assistant tool call made', async () => {
    await refused(
      {
        ...base(),
        messages: [
          { role: 'user', content: 'x' },
          { role: 'tool', tool_call_id: '', content: 'r' },
        ],
      },
      'messages[1].tool_call_id',
    );
    await refused(
      {
        ...base(),
        messages: [
          { role: 'user', content: 'x' },
          { role: 'tool', tool_call_id: 'call_1', content: 'r' },
        ],
      },
      'messages[1].tool_call_id',
      /no earlier assistant/,
    );
    assert.doesNotThrow(() =>
      validateChatRequest({
        ...base(),
        messages: [
          { role: 'user', content: 'x' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 'call_1', content: 'r' },
        ],
      }),
    );
  });

  void it('an assistant message without content must carry tool_calls', async () => {
    await refused(
      {
        ...base(),
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: null },
        ],
      },
      'messages[1].content',
    );
  });

  void it('tools are functions with a valid, unique name and an object schema', async () => {
    await refused({ ...base(), tools: [{ type: 'retrieval' } as never] }, 'tools[0].type');
    await refused(
      { ...base(), tools: [{ type: 'function', function: { name: 'bad name!' } }] },
      'tools[0].function.name',
    );
    await refused(
      {
        ...base(),
        tools: [
          { type: 'function', function: { name: 'a' } },
          { type: 'function', function: { name: 'a' } },
        ],
      },
      'tools[1].function.name',
      /twice/,
    );
    await refused(
      { ...base(), tools: [{ type: 'function', function: { name: 'a', parameters: [] as never } }] },
      'tools[0].function.parameters',
    );
  });

  void it('tool_choice is auto, none, required or names a defined tool', async () => {
    await refused({ ...base(), tool_choice: 'sometimes' as never }, 'tool_choice');
    await refused(
      {
        ...base(),
        tools: [{ type: 'function', function: { name: 'a' } }],
        tool_choice: { type: 'function', function: { name: 'b' } },
      },
      'tool_choice.function.name',
    );
    assert.doesNotThrow(() =>
      validateChatRequest({
        ...base(),
        tools: [{ type: 'function', function: { name: 'a' } }],
        tool_choice: { type: 'function', function: { name: 'a' } },
      }),
    );
  });

  void it('response_format.type is text, json_object or json_schema', async () => {
    await refused({ ...base(), response_format: { type: 'yaml' } as never }, 'response_format.type');
  });

  void it('user must be a string', async () => {
    await refused({ ...base(), user: 42 as never }, 'user');
  });
});
