// VS Code language-model messages -> the gateway's chat messages (src/lm/messages/core/messages.ts, with
// parts.ts, tokens.ts and reasoningMemory.ts). The part classes below set the same fields as the
// extension host's own classes, which the conversion recognises by shape; the last tests send
// converted requests to the local gateway.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GatewayClient } from '../../../../../src/api/client';
import { GatewayError } from '../../../../../src/api/transport/errors';
import {
  buildLmRequest,
  callIdsIn,
  parseToolArguments,
  toGatewayMessages,
  toGatewayTools,
} from '../../../../../src/lm/messages/core/messages';
import { classifyPart, LM_ROLE, type LmMessageLike } from '../../../../../src/lm/messages/core/parts';
import { ReasoningMemory } from '../../../../../src/lm/answer/core/reasoningMemory';
import { estimateTokens } from '../../../../../src/lm/messages/core/tokens';
import { gatewayFailure, useGateway } from '../../../../support/helpers';

class TextPart {
  constructor(public value: string) {}
}
class ToolCallPart {
  constructor(
    public callId: string,
    public name: string,
    public input: object,
  ) {}
}
class ToolResultPart {
  constructor(
    public callId: string,
    public content: unknown[],
    public isError = false,
  ) {}
}
class DataPart {
  constructor(
    public data: Uint8Array,
    public mimeType: string,
  ) {}
}
class ThinkingPart {
  constructor(
    public value: string | string[],
    public id?: string,
    public metadata?: unknown,
  ) {}
}
class PromptTsxPart {
  constructor(public value: unknown) {}
}

const user = (...content: unknown[]): LmMessageLike => ({ role: LM_ROLE.user, content, name: undefined });
const assistant = (...content: unknown[]): LmMessageLike => ({ role: LM_ROLE.assistant, content, name: undefined });
const system = (...content: unknown[]): LmMessageLike => ({ role: LM_ROLE.system, content, name: undefined });

// A real 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const png = (): DataPart => new DataPart(new Uint8Array(PNG), 'image/png');
const text = { acceptsImages: false };
const vision = { acceptsImages: true };

function validation(fn: () => unknown): GatewayError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof GatewayError, `expected a GatewayError, got ${String(e)}`);
    assert.equal(e.kind, 'validation');
    return e;
  }
  assert.fail('expected a validation error');
}

void describe('parts are recognised by their fields', () => {
  void test('each host part class maps to its kind; a thinking part is not mistaken for text', () => {
    assert.equal(classifyPart(new TextPart('a')).kind, 'text');
    assert.equal(classifyPart(new ToolCallPart('c1', 'f', {})).kind, 'toolCall');
    assert.equal(classifyPart(new ToolResultPart('c1', [])).kind, 'toolResult');
    assert.equal(classifyPart(png()).kind, 'data');
    assert.deepEqual(classifyPart(new ThinkingPart(['a', 'b'], 'id1', undefined)), { kind: 'thinking', text: 'ab' });
    assert.equal(classifyPart('plain').kind, 'text');
    assert.deepEqual(classifyPart(new PromptTsxPart({ node: 1 })), { kind: 'unknown', what: 'PromptTsxPart' });
  });
});

void describe('toGatewayMessages', () => {
  void test('a single text part becomes a plain string; several stay separate text parts', () => {
    const { messages } = toGatewayMessages(
      [user(new TextPart('hello')), user(new TextPart('a'), new TextPart('b'))],
      text,
    );
    assert.deepEqual(messages, [
      { role: 'user', content: 'hello' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
    ]);
  });

  void test('the System role (3) becomes a system message and a name is kept', () => {
    const { messages } = toGatewayMessages(
      [{ role: 3, content: [new TextPart('Be brief.')], name: 'policy' }, user(new TextPart('hi'))],
      text,
    );
    assert.deepEqual(messages[0], { role: 'system', content: 'Be brief.', name: 'policy' });
  });

  void test('an assistant turn keeps its text and its tool calls with their ids and JSON arguments', () => {
    const { messages } = toGatewayMessages(
      [
        assistant(
          new TextPart('Let me look. '),
          new TextPart('One moment.'),
          new ToolCallPart('call_1', 'read_file', { path: 'a.ts' }),
          new ToolCallPart('call_2', 'list', {}),
        ),
      ],
      text,
    );
    assert.deepEqual(messages, [
      {
        role: 'assistant',
        content: 'Let me look. One moment.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } },
          { id: 'call_2', type: 'function', function: { name: 'list', arguments: '{}' } },
        ],
      },
    ]);
  });

  void test('an assistant turn with only tool calls has content null', () => {
    const { messages } = toGatewayMessages([assistant(new ToolCallPart('c', 'f', { x: 1 }))], text);
    assert.equal((messages[0] as { content: unknown }).content, null);
  });

  void test("a user message's tool results become tool messages first, then its text as a user message", () => {
    const { messages } = toGatewayMessages(
      [
        user(
          new TextPart('Now summarise.'),
          new ToolResultPart('c1', [new TextPart('line 1\n'), new TextPart('line 2')]),
          new ToolResultPart('c2', [new DataPart(new TextEncoder().encode('{"ok":true}'), 'application/json')]),
        ),
      ],
      text,
    );
    assert.deepEqual(messages, [
      { role: 'tool', tool_call_id: 'c1', content: 'line 1\nline 2' },
      { role: 'tool', tool_call_id: 'c2', content: '{"ok":true}' },
      { role: 'user', content: 'Now summarise.' },
    ]);
  });

  void test('an image data part becomes a complete base64 data URL for a model that accepts images', () => {
    const { messages, images } = toGatewayMessages([user(new TextPart('what is this?'), png())], vision);
    assert.equal(images, 1);
    assert.deepEqual(messages[0], {
      role: 'user',
      content: [
        { type: 'text', text: 'what is this?' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` } },
      ],
    });
  });

  void test('an image for a model without image input is refused, naming the message and the model', () => {
    const e = validation(() =>
      toGatewayMessages([user(new TextPart('hi')), user(png())], { acceptsImages: false, modelId: 'gw-chat' }),
    );
    assert.equal(e.field, 'messages[1].content[0]');
    assert.match(e.message, /messages\[1\].*gw-chat does not accept images/);
  });

  void test("markers without a wire equivalent (Copilot's cache_control) are left out and reported; a message left empty is dropped", () => {
    const marker = new DataPart(new TextEncoder().encode('ephemeral'), 'cache_control');
    const { messages, dropped } = toGatewayMessages([user(new TextPart('hi'), marker), user(marker)], text);
    assert.deepEqual(messages, [{ role: 'user', content: 'hi' }]);
    assert.deepEqual(dropped, [
      'messages[0].content[1]: data part of type cache_control',
      'messages[1].content[0]: data part of type cache_control',
    ]);
  });

  void test('an image a tool returned travels in a user message after the tool message (vision) or is named in its text (no vision)', () => {
    const msgs = [user(new ToolResultPart('c1', [new TextPart('screenshot:'), png()]))];
    const v = toGatewayMessages(msgs, vision).messages;
    assert.equal(v[0]?.role, 'tool');
    assert.match(v[0]?.content as string, /^screenshot:\[image image\/png, attached in the next message\]$/);
    assert.equal(v[1]?.role, 'user');
    assert.deepEqual(
      (v[1]?.content as Array<{ type: string }>).map((p) => p.type),
      ['image_url'],
    );
    const t = toGatewayMessages(msgs, text).messages;
    assert.equal(t.length, 1);
    assert.match(t[0]?.content as string, /left out: the model does not accept images/);
  });

  void test('a prompt-tsx tool result gives the model its text nodes', () => {
    const tsx = new PromptTsxPart({
      node: {
        type: 1,
        children: [
          { type: 2, text: 'File a.ts:' },
          { type: 1, children: [{ type: 2, text: ' 42 lines' }] },
        ],
      },
    });
    const { messages } = toGatewayMessages([user(new ToolResultPart('c1', [tsx]))], text);
    assert.deepEqual(messages, [{ role: 'tool', tool_call_id: 'c1', content: 'File a.ts: 42 lines' }]);
  });

  void test('reasoning goes back on a tool-call turn: from its thinking part, else from what the provider remembered', () => {
    const withThinking = toGatewayMessages(
      [assistant(new ThinkingPart('I should read it.', 't1', {}), new ToolCallPart('c1', 'f', {}))],
      text,
    ).messages[0];
    assert.equal((withThinking as { reasoning_content?: string }).reasoning_content, 'I should read it.');
    const memory = new ReasoningMemory();
    memory.remember(['c9'], 'remembered thought');
    const remembered = toGatewayMessages([assistant(new ToolCallPart('c9', 'f', {}))], {
      ...text,
      reasoningFor: (id) => memory.get(id),
    }).messages[0];
    assert.equal((remembered as { reasoning_content?: string }).reasoning_content, 'remembered thought');
    const plain = toGatewayMessages([assistant(new TextPart('no tools'))], { ...text, reasoningFor: () => 'x' })
      .messages[0];
    assert.equal('reasoning_content' in (plain ?? {}), false);
  });

  void test('callIdsIn collects the ids of calls and of the results that answer them', () => {
    const ids = callIdsIn([
      user('go'),
      assistant(new TextPart('x'), new ToolCallPart('call_0', 'f', {})),
      user(new ToolResultPart('call_0', [])),
      user(new ToolResultPart('orphan', [])),
    ]);
    assert.deepEqual([...ids].sort(), ['call_0', 'orphan']);
  });

  void test('parts in the wrong role are refused with the field named', () => {
    assert.equal(
      validation(() => toGatewayMessages([user(new ToolCallPart('c', 'f', {}))], text)).field,
      'messages[0].content[0]',
    );
    assert.equal(
      validation(() => toGatewayMessages([user(new TextPart('x')), assistant(new ToolResultPart('c', []))], text))
        .field,
      'messages[1].content[0]',
    );
    assert.equal(
      validation(() => toGatewayMessages([{ role: 7, content: [new TextPart('x')] }], text)).field,
      'messages[0].role',
    );
    assert.equal(
      validation(() => toGatewayMessages([system(new ToolResultPart('c', []))], text)).field,
      'messages[0].content[0]',
    );
  });
});

void describe('buildLmRequest', () => {
  const tools = [
    {
      name: 'read_file',
      description: 'Reads a file',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
    },
    { name: 'now', description: '' },
  ];

  void test('tools become functions; a tool without a schema takes an empty object', () => {
    assert.deepEqual(toGatewayTools(tools), [
      {
        type: 'function',
        function: {
          name: 'read_file',
          description: 'Reads a file',
          parameters: { type: 'object', properties: { path: { type: 'string' } } },
        },
      },
      { type: 'function', function: { name: 'now', parameters: { type: 'object', properties: {} } } },
    ]);
    assert.equal(toGatewayTools([]), undefined);
  });

  // Was "required" whatever the tools: with one tool offered it is now that tool by name (spec 2.1).
  void test('toolMode Required names the tool when one is offered, asks for "required" with several; Auto sends no tool_choice', () => {
    const req = (toolMode: number) =>
      buildLmRequest([user('hi')], { ...text, modelId: 'gw-chat', tools, toolMode }).request;
    assert.equal(req(2).tool_choice, 'required');
    assert.deepEqual(
      buildLmRequest([user('hi')], { ...text, modelId: 'gw-chat', tools: tools.slice(1), toolMode: 2 }).request
        .tool_choice,
      { type: 'function', function: { name: 'now' } },
    );
    assert.equal(req(1).tool_choice, undefined);
    assert.equal(
      buildLmRequest([user('hi')], { ...text, modelId: 'gw-chat', toolMode: 2 }).request.tool_choice,
      undefined,
      'no tools, no tool_choice',
    );
  });

  void test('sampling options in modelOptions go out under their spec names; others are reported, wrong types refused', () => {
    const { request, dropped } = buildLmRequest([user('hi')], {
      ...text,
      modelId: 'gw-chat',
      modelOptions: { temperature: 0.2, topP: 0.9, maxTokens: 50, stop: ['END'], reasoning_effort: 'high' },
    });
    assert.deepEqual(
      { t: request.temperature, p: request.top_p, m: request.max_tokens, s: request.stop },
      { t: 0.2, p: 0.9, m: 50, s: ['END'] },
    );
    assert.deepEqual(dropped, ['modelOptions.reasoning_effort']);
    assert.equal(
      validation(() => buildLmRequest([user('hi')], { ...text, modelId: 'm', modelOptions: { temperature: 'hot' } }))
        .field,
      'modelOptions.temperature',
    );
  });
});

void describe('tool arguments and token estimates', () => {
  void test('arguments parse to an object; empty text is {}; invalid JSON or a non-object is refused naming the tool', () => {
    assert.deepEqual(parseToolArguments('f', '{"a":[1]}'), { a: [1] });
    assert.deepEqual(parseToolArguments('f', '  '), {});
    assert.throws(
      () => parseToolArguments('read_file', '{"path": "a'),
      (e: unknown) => e instanceof GatewayError && /"read_file".*not valid JSON/.test(e.message),
    );
    assert.throws(
      () => parseToolArguments('read_file', '[1]'),
      /"read_file" with arguments that are not a JSON object/,
    );
  });

  void test('tokens are estimated at four characters each, images at a flat 765, plus 4 per message', () => {
    assert.equal(estimateTokens('x'.repeat(401)), 101);
    assert.equal(estimateTokens(user(new TextPart('y'.repeat(40)), png())), 4 + 10 + 765);
    assert.equal(estimateTokens(user(new ToolResultPart('c', [new TextPart('z'.repeat(8))]))), 4 + 2);
  });

  void test('the reasoning memory keeps only the newest entries', () => {
    const m = new ReasoningMemory(3);
    for (let i = 0; i < 5; i++) m.remember([`c${i}`], `r${i}`);
    assert.equal(m.size, 3);
    assert.equal(m.get('c0'), undefined);
    assert.equal(m.get('c4'), 'r4');
  });
});

void describe('converted requests against the local gateway', () => {
  let client: GatewayClient;
  useGateway({
    onStarted: (gw) => {
      client = new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 });
    },
  });

  void test('a tool round trip converted from VS Code parts is accepted and answered with the tool result', async () => {
    const script = '#tools [{"calls":[{"name":"read_file","arguments":{"path":"a.md"}}]}]';
    const tools = [{ name: 'read_file', description: 'Reads', inputSchema: { type: 'object' } }];
    const first = await client.streamChat(
      buildLmRequest([user(script)], { ...text, modelId: 'gw-chat', tools }).request,
    );
    const call = first.message.tool_calls?.[0];
    assert.ok(call, 'the gateway called the tool');
    const history = [
      user(script),
      assistant(
        new ToolCallPart(call.id, call.function.name, parseToolArguments(call.function.name, call.function.arguments)),
      ),
      user(new ToolResultPart(call.id, [new TextPart('# A')])),
    ];
    const second = await client.streamChat(buildLmRequest(history, { ...text, modelId: 'gw-chat', tools }).request);
    assert.equal(second.message.content, 'Done. Tool results: read_file=# A');
  });

  void test('a reasoning model accepts the tool round trip only with the remembered reasoning', async () => {
    const script = '#tools [{"calls":[{"name":"read_file","arguments":{}}]}]';
    const tools = [{ name: 'read_file', description: 'Reads' }];
    const first = await client.streamChat(
      buildLmRequest([user(script)], { ...text, modelId: 'gw-reasoner', tools }).request,
    );
    const call = first.message.tool_calls?.[0];
    assert.ok(call && first.message.reasoning_content, 'the reasoner called the tool and reasoned');
    const memory = new ReasoningMemory();
    memory.remember([call.id], first.message.reasoning_content);
    const history = [
      user(script),
      assistant(new ToolCallPart(call.id, 'read_file', {})),
      user(new ToolResultPart(call.id, [new TextPart('content')])),
    ];
    const forgetful = buildLmRequest(history, { ...text, modelId: 'gw-reasoner', tools }).request;
    assert.equal((await gatewayFailure(client.streamChat(forgetful))).status, 400, 'refused without the reasoning');
    const remembering = buildLmRequest(history, {
      ...text,
      modelId: 'gw-reasoner',
      tools,
      reasoningFor: (id) => memory.get(id),
    }).request;
    const second = await client.streamChat(remembering);
    assert.equal(second.message.content, 'Done. Tool results: read_file=content');
  });
});

// The reasoning the vscode.lm provider remembers must go back with its own tool call only.
// Relays that number calls per answer give the first call of every conversation the id call_0, so
// a memory keyed by id alone sent one conversation's reasoning back in another.
void describe('remembered reasoning', () => {
  /** Same fields as VS Code's LanguageModelToolCallPart / ToolResultPart / TextPart. */
  class ToolCallPart {
    constructor(
      public callId: string,
      public name: string,
      public input: object,
    ) {}
  }
  class ToolResultPart {
    constructor(
      public callId: string,
      public content: unknown[],
    ) {}
  }
  class TextPart {
    constructor(public value: string) {}
  }
  const user = (...content: unknown[]): LmMessageLike => ({ role: LM_ROLE.user, content });
  const assistant = (...content: unknown[]): LmMessageLike => ({ role: LM_ROLE.assistant, content });

  function reasoningSent(history: LmMessageLike[], memory: ReasoningMemory): string | undefined {
    // What the provider passes: the memory is asked with the call as VS Code sent it back.
    const out = toGatewayMessages(history, { acceptsImages: false, reasoningFor: (_id, call) => memory.get(call) });
    const a = out.messages.find((m) => m.role === 'assistant') as { reasoning_content?: string } | undefined;
    return a?.reasoning_content;
  }

  void describe('remembered reasoning across conversations', () => {
    void test('two conversations whose first tool calls are both call_0 each get their own reasoning back', () => {
      const memory = new ReasoningMemory();
      // The provider remembers the parts it reported, in answer order: conversation A, then B.
      const callA = new ToolCallPart('call_0', 'read_file', { path: 'a.md' });
      const callB = new ToolCallPart('call_0', 'list_dir', { path: 'src' });
      memory.remember([callA], 'A: I should read a.md');
      memory.remember([callB], 'B: I should list src');

      const historyA = [
        user(new TextPart('read a.md')),
        assistant(new ToolCallPart('call_0', 'read_file', { path: 'a.md' })),
        user(new ToolResultPart('call_0', [new TextPart('# A')])),
      ];
      const historyB = [
        user(new TextPart('list src')),
        assistant(new ToolCallPart('call_0', 'list_dir', { path: 'src' })),
        user(new ToolResultPart('call_0', [new TextPart('x.ts')])),
      ];
      assert.equal(
        reasoningSent(historyA, memory),
        'A: I should read a.md',
        "conversation A's tool turn carries A's reasoning, not B's",
      );
      assert.equal(reasoningSent(historyB, memory), 'B: I should list src');
    });

    void test('a call with the same id but other arguments gets no remembered reasoning', () => {
      const memory = new ReasoningMemory();
      memory.remember([new ToolCallPart('call_0', 'read_file', { path: 'a.md' })], 'about a.md');
      const other = [
        user(new TextPart('q')),
        assistant(new ToolCallPart('call_0', 'read_file', { path: 'b.md' })),
        user(new ToolResultPart('call_0', [new TextPart('b')])),
      ];
      assert.equal(reasoningSent(other, memory), undefined);
    });

    void test('remembering by id alone still works for callers that have only the id', () => {
      const memory = new ReasoningMemory();
      memory.remember(['c9'], 'by id');
      assert.equal(memory.get('c9'), 'by id');
      assert.equal(
        memory.get(new ToolCallPart('c9', 'f', {})),
        undefined,
        'a call-keyed lookup does not match an id-only entry',
      );
    });
  });
});
