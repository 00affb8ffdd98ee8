// The gateway's chat models in VS Code's own language-model API, in the real extension host:
// `vscode.lm.selectChatModels` lists them from the local gateway, `sendRequest` streams its
// answers, tool calls round-trip with their ids, and errors carry the product's words.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Services } from '../../src/platform/services';
import { control, extension, gateway, keyStore, setSetting, useGatewayWithValidKey, waitFor } from './env';

const VENDOR = 'gateway-studio';

interface RecordedRequest {
  route: string;
  body: {
    model?: string;
    messages?: Array<Record<string, unknown>>;
    tools?: unknown[];
    tool_choice?: unknown;
    stream?: unknown;
  };
}

async function chatRequests(): Promise<RecordedRequest[]> {
  const all = (await control('requests')) as RecordedRequest[];
  return all.filter((r) => r.route === '/v1/chat/completions');
}

async function model(id: string): Promise<vscode.LanguageModelChat> {
  const models = await waitFor(`the model ${id} from vendor ${VENDOR}`, async () => {
    const found = await vscode.lm.selectChatModels({ vendor: VENDOR, id });
    return found.length > 0 ? found : undefined;
  });
  return models[0]!;
}

/** Consumes a response: text joined, tool calls, and how many text parts arrived. */
async function drain(
  r: vscode.LanguageModelChatResponse,
): Promise<{ text: string; textParts: number; calls: vscode.LanguageModelToolCallPart[] }> {
  let text = '';
  let textParts = 0;
  const calls: vscode.LanguageModelToolCallPart[] = [];
  for await (const part of r.stream) {
    if (part instanceof vscode.LanguageModelTextPart) {
      text += part.value;
      textParts++;
    } else if (part instanceof vscode.LanguageModelToolCallPart) {
      calls.push(part);
    }
  }
  return { text, textParts, calls };
}

/** The two messages that answer `call`: the assistant turn making it, and the user turn with its `result`. */
function toolRound(call: vscode.LanguageModelToolCallPart, result: string): vscode.LanguageModelChatMessage[] {
  return [
    vscode.LanguageModelChatMessage.Assistant([call]),
    vscode.LanguageModelChatMessage.User([
      new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart(result)]),
    ]),
  ];
}

/** Runs `request`, asserts that it fails with an Error (sending or reading the answer), and returns that error. */
async function failureOf(request: () => Promise<unknown>): Promise<Error> {
  try {
    await request();
  } catch (e) {
    assert.ok(e instanceof Error, `expected an Error, got ${String(e)}`);
    return e;
  }
  assert.fail('expected the request to fail');
}

const readFileTool: vscode.LanguageModelChatTool = {
  name: 'read_file',
  description: 'Reads a file of the workspace',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

describe('language models (vscode.lm)', () => {
  useGatewayWithValidKey();

  it("selectChatModels lists the gateway's chat models (not its video models) with their capabilities", async () => {
    await model('gw-chat');
    const models = await vscode.lm.selectChatModels({ vendor: VENDOR });
    const ids = models.map((m) => m.id).sort();
    assert.deepEqual(ids, [
      'gw-chat',
      'gw-codex',
      'gw-deepseek',
      'gw-details',
      'gw-latest',
      'gw-reasoner',
      'gw-reasoning',
      'gw-think',
      'gw-vision',
    ]);
    for (const m of models) {
      assert.equal(m.vendor, VENDOR);
      assert.equal(m.family, m.id);
      assert.ok(m.maxInputTokens > 1000, `${m.id} maxInputTokens ${m.maxInputTokens}`);
    }
  });

  it('without a key no models are offered (the log says why), and setting the key brings them back', async () => {
    await model('gw-chat');
    const keys = await keyStore();
    // The provider logs through the extension's own Logger; listen to its info lines.
    const log = ((await extension()).exports as Services).log;
    const info = log.info;
    const lines: string[] = [];
    log.info = (m: string) => {
      lines.push(m);
      info(m);
    };
    try {
      await keys.clear();
      await waitFor(
        'the models to disappear after the key was cleared',
        async () => (await vscode.lm.selectChatModels({ vendor: VENDOR })).length === 0,
      );
    } finally {
      log.info = info;
    }
    assert.ok(
      lines.some((l) => /no API key is set.*Set API Key/.test(l)),
      `no log line about the missing key among ${JSON.stringify(lines)}`,
    );
    await control('reset');
    assert.equal((await vscode.lm.selectChatModels({ vendor: VENDOR })).length, 0);
    const asked = (await control('requests')) as RecordedRequest[];
    assert.equal(asked.filter((r) => r.route === '/v1/models').length, 0, 'no model list is fetched without a key');
    await keys.set(gateway.validKey);
    const back = await model('gw-vision');
    assert.equal(back.id, 'gw-vision');
  });

  it("sendRequest streams the gateway's answer as several text parts", async () => {
    const m = await model('gw-chat');
    const r = await m.sendRequest(
      [vscode.LanguageModelChatMessage.User('hello from vscode.lm and friends')],
      {},
      new vscode.CancellationTokenSource().token,
    );
    const { text, textParts, calls } = await drain(r);
    assert.equal(text, 'Echo: hello from vscode.lm and friends');
    assert.ok(textParts >= 3, `expected the answer in several parts, got ${textParts}`);
    assert.equal(calls.length, 0);
    const [req] = await chatRequests();
    assert.equal(req?.body.model, 'gw-chat');
    assert.deepEqual(req?.body.messages, [{ role: 'user', content: 'hello from vscode.lm and friends' }]);
  });

  it('a tool call comes back as a LanguageModelToolCallPart and its result is answered with the same call id', async () => {
    const m = await model('gw-chat');
    const script = '#tools [{"calls":[{"name":"read_file","arguments":{"path":"notes.md"}}]}]';
    const token = new vscode.CancellationTokenSource().token;
    const first = await drain(
      await m.sendRequest([vscode.LanguageModelChatMessage.User(script)], { tools: [readFileTool] }, token),
    );
    assert.equal(first.calls.length, 1, `expected one tool call, got text ${JSON.stringify(first.text)}`);
    const call = first.calls[0]!;
    assert.equal(call.name, 'read_file');
    assert.deepEqual(call.input, { path: 'notes.md' });
    assert.match(call.callId, /^call_/);

    const second = await drain(
      await m.sendRequest(
        [vscode.LanguageModelChatMessage.User(script), ...toolRound(call, '# Notes\nbuy milk')],
        { tools: [readFileTool] },
        token,
      ),
    );
    assert.equal(second.text, 'Done. Tool results: read_file=# Notes\nbuy milk');
    const reqs = await chatRequests();
    const sent = reqs[1]?.body.messages ?? [];
    assert.equal(sent[1]?.role, 'assistant');
    assert.deepEqual(sent[1]?.tool_calls, [
      { id: call.callId, type: 'function', function: { name: 'read_file', arguments: '{"path":"notes.md"}' } },
    ]);
    assert.deepEqual(sent[2], { role: 'tool', tool_call_id: call.callId, content: '# Notes\nbuy milk' });
    assert.equal((reqs[1]?.body.tools as Array<{ function: { name: string } }>)[0]?.function.name, 'read_file');
  });

  it('a relay that numbers calls per answer (call_0 again) still gets a fresh call id for the second call', async () => {
    const m = await model('gw-chat');
    await control('fault', { match: { path: '/v1/chat/completions' }, toolIds: 'numbered', times: -1 });
    const script =
      '#tools [{"calls":[{"name":"read_file","arguments":{"path":"a"}}]},{"calls":[{"name":"read_file","arguments":{"path":"b"}}]}]';
    const history: vscode.LanguageModelChatMessage[] = [vscode.LanguageModelChatMessage.User(script)];
    const first = (await drain(await m.sendRequest(history, { tools: [readFileTool] }))).calls[0];
    assert.ok(first, 'the first answer called the tool');
    assert.equal(first.callId, 'call_0');
    history.push(...toolRound(first, 'A'));
    const second = (await drain(await m.sendRequest(history, { tools: [readFileTool] }))).calls[0];
    assert.ok(second, 'the second answer called the tool again');
    assert.deepEqual(second.input, { path: 'b' });
    assert.notEqual(second.callId, 'call_0', 'the reused id was replaced');
    history.push(...toolRound(second, 'B'));
    const done = await drain(await m.sendRequest(history, { tools: [readFileTool] }));
    assert.equal(done.text, 'Done. Tool results: read_file=A, read_file=B');
  });

  it("a reasoning model's tool round trip is accepted: the provider sends its reasoning back with the call", async () => {
    const m = await model('gw-reasoner');
    const script = '#tools [{"calls":[{"name":"read_file","arguments":{"path":"r.md"}}]}]';
    const first = await drain(
      await m.sendRequest([vscode.LanguageModelChatMessage.User(script)], { tools: [readFileTool] }),
    );
    const call = first.calls[0];
    assert.ok(call, `expected a tool call, got text ${JSON.stringify(first.text)}`);
    const second = await drain(
      await m.sendRequest([vscode.LanguageModelChatMessage.User(script), ...toolRound(call, 'reasoned')], {
        tools: [readFileTool],
      }),
    );
    assert.equal(second.text, 'Done. Tool results: read_file=reasoned');
    const sent = (await chatRequests())[1]?.body.messages?.[1];
    assert.ok(
      typeof sent?.reasoning_content === 'string' && sent.reasoning_content !== '',
      'the assistant turn carried reasoning_content',
    );
  });

  it('a base URL that fails empties the list, and the right one brings the models back', async () => {
    await model('gw-chat');
    try {
      await setSetting('baseUrl', `${gateway.url}/wrong-prefix`);
      await waitFor(
        'the models to disappear with a failing base URL',
        async () => (await vscode.lm.selectChatModels({ vendor: VENDOR })).length === 0,
      );
    } finally {
      await setSetting('baseUrl', gateway.url);
    }
    assert.equal((await model('gw-latest')).id, 'gw-latest');
  });

  it('toolMode Required with one tool names that tool in tool_choice (spec 2.1 has no "required")', async () => {
    const m = await model('gw-chat');
    const r = await drain(
      await m.sendRequest([vscode.LanguageModelChatMessage.User('call something')], {
        tools: [readFileTool],
        toolMode: vscode.LanguageModelChatToolMode.Required,
      }),
    );
    assert.equal(r.calls[0]?.name, 'read_file');
    assert.deepEqual((await chatRequests())[0]?.body.tool_choice, {
      type: 'function',
      function: { name: 'read_file' },
    });
  });

  it('toolMode Required with several tools: a gateway refusing "required" gets one more request with "auto", logged at info', async () => {
    const m = await model('gw-chat');
    await control('fault', { rejectRequiredToolChoice: 400, times: -1 });
    const listTool: vscode.LanguageModelChatTool = {
      name: 'list_directory',
      description: 'Lists a folder',
      inputSchema: { type: 'object', properties: {} },
    };
    const log = ((await extension()).exports as Services).log;
    const info = log.info;
    const lines: string[] = [];
    log.info = (msg: string) => {
      lines.push(msg);
      info(msg);
    };
    let r: Awaited<ReturnType<typeof drain>>;
    try {
      r = await drain(
        await m.sendRequest(
          [vscode.LanguageModelChatMessage.User('#tools [{"calls":[{"name":"list_directory","arguments":{}}]}]')],
          { tools: [readFileTool, listTool], toolMode: vscode.LanguageModelChatToolMode.Required },
        ),
      );
    } finally {
      log.info = info;
    }
    assert.deepEqual(
      r.calls.map((c) => c.name),
      ['list_directory'],
    );
    const choices = (await chatRequests()).map((q) => q.body.tool_choice);
    assert.equal(choices.at(-1), 'auto');
    assert.equal(choices.filter((c) => c === 'auto').length, 1, `one "auto" request among ${JSON.stringify(choices)}`);
    assert.ok(
      lines.some((l) => /refused tool_choice "required".*sent once more with "auto"/.test(l)),
      `no info line about the fallback among ${JSON.stringify(lines)}`,
    );
  });

  it('a 401 from the gateway fails the request with the "set the key" explanation', async () => {
    const m = await model('gw-chat');
    await control('fault', { match: { path: '/v1/chat/completions' }, status: 401 });
    const failure = await failureOf(async () =>
      drain(await m.sendRequest([vscode.LanguageModelChatMessage.User('hi')])),
    );
    assert.match(failure.message, /The API key was refused \(401\)/);
    assert.match(failure.message, /Set API Key/);
    assert.ok(!failure.message.includes(gateway.validKey), 'the key never appears in the error');
  });

  it('a model the gateway stopped offering fails with words for the model picker, and VS Code lists the models again without it', async () => {
    // The gateway first lists an extra model it does not serve (a relay whose list is stale).
    const res = await fetch(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${gateway.validKey}` } });
    const listed = (await res.json()) as { data?: unknown[] };
    const retired = {
      id: 'gw-retired',
      object: 'model',
      created: 1_700_000_000,
      owned_by: 'gateway-studio',
      capabilities: ['streaming'],
      modalities: ['text'],
    };
    assert.ok(Array.isArray(listed.data) && listed.data.length > 0, 'the gateway lists its models');
    const data = [...listed.data, retired];
    await control('fault', {
      match: { method: 'GET', path: '/v1/models' },
      status: 200,
      body: { object: 'list', data },
      times: -1,
    });
    const keys = await keyStore();
    await keys.clear();
    await keys.set(gateway.validKey);
    const m = await model('gw-retired');
    const failure = await failureOf(async () =>
      drain(await m.sendRequest([vscode.LanguageModelChatMessage.User('hi')])),
    );
    assert.match(failure.message, /gw-retired/);
    assert.match(failure.message, /choose another model there/);
    assert.doesNotMatch(failure.message, /Select Chat Model/, 'no chat-panel advice in the model picker');
    // The gateway's list is right again: the 404 made the provider drop its cached list, and
    // VS Code asks again and loses the model.
    await control('clear');
    await waitFor(
      'gw-retired to leave the model list',
      async () => (await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'gw-retired' })).length === 0,
    );
    assert.equal((await model('gw-chat')).id, 'gw-chat');
  });

  it('tool arguments that are not JSON fail the request naming the tool, and no tool call is reported', async () => {
    const m = await model('gw-chat');
    const script = '#tools [{"calls":[{"name":"read_file","arguments":"{\\"path\\": \\"a"}]}]';
    const calls: unknown[] = [];
    const failure = await failureOf(async () => {
      const r = await m.sendRequest([vscode.LanguageModelChatMessage.User(script)], { tools: [readFileTool] });
      for await (const part of r.stream) if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
    });
    assert.match(failure.message, /"read_file" with arguments that are not valid JSON/);
    assert.match(failure.message, /send the request again/);
    assert.deepEqual(calls, []);
  });

  it('a 403 for an empty balance says so instead of a raw status', async () => {
    const m = await model('gw-chat');
    // A fault rather than the no-balance key: that key would also empty the model list (403 there too).
    await control('fault', {
      match: { path: '/v1/chat/completions' },
      status: 403,
      body: {
        error: {
          type: 'insufficient_quota',
          code: 'insufficient_quota',
          message: 'insufficient balance: 0.00 left',
          param: null,
        },
      },
    });
    const failure = await failureOf(async () =>
      drain(await m.sendRequest([vscode.LanguageModelChatMessage.User('hi')])),
    );
    assert.match(failure.message, /Access denied \(403\)/);
    assert.match(failure.message, /balance looks insufficient/);
  });

  it('cancelling the token stops a long answer early', async () => {
    const m = await model('gw-chat');
    await control('fault', { match: { path: '/v1/chat/completions' }, chunkDelayMs: 15 });
    const cts = new vscode.CancellationTokenSource();
    const r = await m.sendRequest([vscode.LanguageModelChatMessage.User('#long 2000')], {}, cts.token);
    let text = '';
    try {
      for await (const part of r.stream) {
        if (part instanceof vscode.LanguageModelTextPart) text += part.value;
        if (text.length > 40) cts.cancel();
      }
    } catch {
      // A cancelled request may end its stream with a cancellation error; either way it stops.
    }
    const words = text.split(/\s+/).filter(Boolean).length;
    assert.ok(words > 0 && words < 1000, `expected a cut-off answer, got ${words} words`);
  });

  it('an image part reaches a vision model as a data URL', async function () {
    const DataPart = (
      vscode as unknown as { LanguageModelDataPart?: { image(data: Uint8Array, mime: string): unknown } }
    ).LanguageModelDataPart;
    if (!DataPart) this.skip();
    const m = await model('gw-vision');
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const msg = new vscode.LanguageModelChatMessage(vscode.LanguageModelChatMessageRole.User, [
      new vscode.LanguageModelTextPart('what is this?'),
      DataPart!.image(new Uint8Array(png), 'image/png') as vscode.LanguageModelTextPart,
    ]);
    const r = await drain(await m.sendRequest([msg]));
    assert.equal(r.text, 'I received 1 image(s): image/png');
    const content = (await chatRequests())[0]?.body.messages?.[0]?.content as Array<{
      type: string;
      image_url?: { url: string };
    }>;
    assert.equal(content[1]?.image_url?.url, `data:image/png;base64,${png.toString('base64')}`);
  });

  it('countTokens estimates about four characters per token', async () => {
    const m = await model('gw-chat');
    assert.equal(await m.countTokens('x'.repeat(400)), 100);
    assert.ok((await m.countTokens(vscode.LanguageModelChatMessage.User('y'.repeat(400)))) >= 100);
  });
});

// The provider follows gatewayStudio.chat.stream: a user who turned streaming off because the
// gateway or model cannot stream got streamed requests from VS Code's model picker.
describe('vscode.lm and the streaming setting', () => {
  // Runs before the shared hook's afterEach, as before: the setting goes back first, then faults.
  afterEach(async () => {
    await setSetting('chat.stream', undefined);
  });
  useGatewayWithValidKey();

  it('with gatewayStudio.chat.stream off, an answer and a tool call come from non-streaming requests', async () => {
    await setSetting('chat.stream', false);
    const [m] = await waitFor('the model gw-chat', async () => {
      const found = await vscode.lm.selectChatModels({ vendor: 'gateway-studio', id: 'gw-chat' });
      return found.length > 0 ? found : undefined;
    });
    const token = new vscode.CancellationTokenSource().token;
    let text = '';
    for await (const part of (
      await m!.sendRequest([vscode.LanguageModelChatMessage.User('hello without streaming')], {}, token)
    ).stream) {
      if (part instanceof vscode.LanguageModelTextPart) text += part.value;
    }
    assert.equal(text, 'Echo: hello without streaming');

    const tools: vscode.LanguageModelChatTool[] = [
      {
        name: 'read_file',
        description: 'Reads',
        inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
      },
    ];
    const script = '#tools [{"calls":[{"name":"read_file","arguments":{"path":"x.md"}}]}]';
    const calls: vscode.LanguageModelToolCallPart[] = [];
    for await (const part of (await m!.sendRequest([vscode.LanguageModelChatMessage.User(script)], { tools }, token))
      .stream) {
      if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
    }
    assert.deepEqual(
      calls.map((c) => [c.name, c.input]),
      [['read_file', { path: 'x.md' }]],
    );

    const sent = await chatRequests();
    assert.equal(sent.length, 2);
    assert.deepEqual(
      sent.map((r) => r.body.stream),
      [false, false],
      'both requests asked for a non-streaming answer',
    );
  });
});
