// Issue 22 in the real extension host: a responses-only model found out, remembered and answering
// a tool round trip (through vscode.lm and the chat), thinking in all four dialects shown as
// reasoning and never as answer text, the DeepSeek-style tool turn, and the per-model settings.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { ChatController } from '../../src/chat/vscode/controller';
import { GatewayLanguageModels } from '../../src/lm/vscode/provider';
import { thinkingPartClass } from '../../src/lm/vscode/thinking';
import { getGatewayClient } from '../../src/platform/gateway';
import type { Services } from '../../src/platform/services';
import { control, extension, gateway, keyStore, setSetting, useGatewayWithValidKey, waitFor } from './env';
import { FakeWebview } from './fakeWebview';

const VENDOR = 'gateway-studio';
interface Recorded {
  route: string;
  body: Record<string, unknown>;
}
const recorded = async (route: string) => ((await control('requests')) as Recorded[]).filter((r) => r.route === route);

async function model(id: string): Promise<vscode.LanguageModelChat> {
  const found = await waitFor(`the model ${id}`, async () => {
    const m = await vscode.lm.selectChatModels({ vendor: VENDOR, id });
    return m.length > 0 ? m : undefined;
  });
  return found[0]!;
}

const readFileTool: vscode.LanguageModelChatTool = {
  name: 'read_file',
  description: 'Reads a file',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};
const SCRIPT = '#tools [{"calls":[{"name":"read_file","arguments":{"path":"r.md"}}]}]';

async function drain(
  r: vscode.LanguageModelChatResponse,
): Promise<{ text: string; calls: vscode.LanguageModelToolCallPart[]; thinking: string }> {
  let text = '';
  let thinking = '';
  const calls: vscode.LanguageModelToolCallPart[] = [];
  const Thinking = (vscode as unknown as Record<string, unknown>).LanguageModelThinkingPart;
  for await (const part of r.stream) {
    if (part instanceof vscode.LanguageModelTextPart) text += part.value;
    else if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
    else if (typeof Thinking === 'function' && part instanceof (Thinking as new () => { value: string | string[] }))
      thinking += ([] as string[]).concat((part as { value: string | string[] }).value).join('');
  }
  return { text, calls, thinking };
}

async function toolRoundTrip(id: string): Promise<string> {
  const m = await model(id);
  const first = await drain(
    await m.sendRequest([vscode.LanguageModelChatMessage.User(SCRIPT)], { tools: [readFileTool] }),
  );
  const call = first.calls[0];
  assert.ok(call, `${id}: expected a tool call, got ${JSON.stringify(first.text)}`);
  const second = await drain(
    await m.sendRequest(
      [
        vscode.LanguageModelChatMessage.User(SCRIPT),
        vscode.LanguageModelChatMessage.Assistant([call]),
        vscode.LanguageModelChatMessage.User([
          new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart('R')]),
        ]),
      ],
      { tools: [readFileTool] },
    ),
  );
  return second.text;
}

describe('Responses API and reasoning dialects (issue 22)', () => {
  useGatewayWithValidKey();

  it('a responses-only model is switched after its chat refusal, remembered, and answers a tool round trip', async () => {
    const text = await toolRoundTrip('gw-codex');
    assert.equal(text, 'Done. Tool results: read_file=R');
    assert.equal((await recorded('/v1/chat/completions')).length, 1, 'one refused chat request, then none');
    const sent = await recorded('/v1/responses');
    assert.equal(sent.length, 2, 'the refused request over responses, then the second turn');
    assert.equal(sent[1]!.body.store, false);
    const input = sent[1]!.body.input as Array<Record<string, unknown>>;
    assert.deepEqual(
      input.map((i) => i.type ?? i.role),
      ['user', 'reasoning', 'function_call', 'function_call_output'],
      'the encrypted reasoning went back before the call',
    );
    // Remembered: a new conversation goes to /v1/responses at once.
    await control('reset');
    await (await keyStore()).set(gateway.validKey);
    await drain(await (await model('gw-codex')).sendRequest([vscode.LanguageModelChatMessage.User('again')]));
    assert.equal((await recorded('/v1/chat/completions')).length, 0);
  });

  it('the DeepSeek-style model accepts the tool turn: its reasoning_content is sent back', async () => {
    assert.equal(await toolRoundTrip('gw-deepseek'), 'Done. Tool results: read_file=R');
    const second = (await recorded('/v1/chat/completions'))[1]!.body.messages as Array<Record<string, unknown>>;
    assert.ok(typeof second[1]!.reasoning_content === 'string' && second[1]!.reasoning_content !== '');
  });

  it('protocol "responses" in the user settings sends a model to /v1/responses, with its extraBody (null drops a field)', async () => {
    await setSetting('models.overrides', {
      'gw-chat': { protocol: 'responses', extraBody: { temperature: null, metadata: { via: 'settings' } } },
    });
    try {
      const r = await drain(
        await (
          await model('gw-chat')
        ).sendRequest([vscode.LanguageModelChatMessage.User('#request')], { modelOptions: { temperature: 0.3 } }),
      );
      const body = JSON.parse(r.text) as Record<string, unknown>;
      assert.deepEqual(body.metadata, { via: 'settings' });
      assert.equal(body.temperature, undefined);
      assert.equal((await recorded('/v1/chat/completions')).length, 0);
    } finally {
      await setSetting('models.overrides', undefined);
    }
  });

  it('through vscode.lm a <think> model answers without its tags; its thinking comes as thinking parts where VS Code has them', async () => {
    const r = await drain(
      await (await model('gw-think')).sendRequest([vscode.LanguageModelChatMessage.User('tags stay out')]),
    );
    assert.equal(r.text, 'Echo: tags stay out');
    if (typeof (vscode as unknown as Record<string, unknown>).LanguageModelThinkingPart === 'function')
      assert.match(r.thinking, /I will answer plainly/);
    else assert.equal(r.thinking, '');
  });

  it('thinking parts are looked up at run time: a VS Code without them, or one that refuses the lookup, gets the answer as text only', async () => {
    assert.equal(thinkingPartClass({}), undefined);
    const refusing = {
      get LanguageModelThinkingPart(): unknown {
        throw new Error('proposed API not enabled');
      },
    };
    assert.equal(thinkingPartClass(refusing), undefined);
    const services = (await extension()).exports as Services;
    const answer = async (provider: GatewayLanguageModels): Promise<unknown[]> => {
      const source = new vscode.CancellationTokenSource();
      try {
        const models = await provider.provideLanguageModelChatInformation({ silent: true }, source.token);
        const think = models.find((m) => m.id === 'gw-think');
        assert.ok(think, JSON.stringify(models.map((m) => m.id)));
        const parts: unknown[] = [];
        await provider.provideLanguageModelChatResponse(
          think,
          [vscode.LanguageModelChatMessage.User('in parts')],
          { tools: [], toolMode: vscode.LanguageModelChatToolMode.Auto, modelOptions: {} } as never,
          { report: (p) => parts.push(p) },
          source.token,
        );
        return parts;
      } finally {
        provider.dispose();
        source.dispose();
      }
    };
    const text = (parts: unknown[]) =>
      parts.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');

    const older = await answer(new GatewayLanguageModels(services, () => undefined));
    assert.ok(
      older.every((p) => p instanceof vscode.LanguageModelTextPart),
      'text parts only where VS Code has no thinking part',
    );
    assert.equal(text(older), 'Echo: in parts');

    const Thinking = thinkingPartClass();
    const running = await answer(new GatewayLanguageModels(services));
    assert.equal(text(running), 'Echo: in parts');
    const thinking = running
      .filter((p) => Thinking !== undefined && p instanceof Thinking)
      .map((p) => ([] as string[]).concat((p as { value: string | string[] }).value).join(''))
      .join('');
    if (Thinking) assert.match(thinking, /I will answer plainly/, 'thinking parts where the running VS Code has them');
    else assert.equal(running.length, older.length);
  });

  it("a repository's workspace settings cannot change a model's protocol, body or effort", async () => {
    const cfg = vscode.workspace.getConfiguration('gatewayStudio');
    await cfg.update(
      'models.overrides',
      {
        'gw-chat': {
          protocol: 'responses',
          reasoningEffort: 'xhigh',
          extraBody: { store: true, metadata: { leak: 1 } },
        },
      },
      vscode.ConfigurationTarget.Workspace,
    );
    try {
      const r = await drain(
        await (await model('gw-chat')).sendRequest([vscode.LanguageModelChatMessage.User('#request')]),
      );
      const body = JSON.parse(r.text) as Record<string, unknown>;
      assert.equal(body.metadata, undefined);
      assert.equal(body.reasoning_effort, undefined);
      assert.equal(body.store, undefined);
      assert.equal((await recorded('/v1/responses')).length, 0, 'still on chat completions');
    } finally {
      await cfg.update('models.overrides', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it("a repository's settings.json cannot turn on prompt caching or its one-hour writes; the user's own settings can", async () => {
    // Written as a cloned repository has it: VS Code's API refuses an application setting there.
    const file = join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.vscode', 'settings.json');
    const before = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    const read = (key: string) =>
      new Promise<void>((resolve) => {
        const sub = vscode.workspace.onDidChangeConfiguration((e) => {
          if (e.affectsConfiguration(key)) {
            sub.dispose();
            resolve();
          }
        });
      });
    const echoed = async () => {
      const r = await drain(
        await (await model('gw-chat')).sendRequest([vscode.LanguageModelChatMessage.User('#request')]),
      );
      return r.text;
    };
    try {
      const seen = read('gatewayStudio.models.promptCacheTtl');
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(
        file,
        JSON.stringify({
          'gatewayStudio.models.overrides': { 'gw-chat': { promptCache: 'cache_control' } },
          'gatewayStudio.models.promptCacheTtl': '1h',
        }),
      );
      await seen;
      assert.ok(!(await echoed()).includes('cache_control'), "the repository's promptCache is ignored");
      // The user's own promptCache is honoured; the repository's one-hour TTL still is not.
      await setSetting('models.overrides', { 'gw-chat': { promptCache: 'cache_control' } });
      const user = await echoed();
      assert.ok(user.includes('"cache_control":{"type":"ephemeral"}'), user);
      assert.ok(!user.includes('"ttl"'), "the repository's TTL is ignored");
      await setSetting('models.promptCacheTtl', '1h');
      assert.ok((await echoed()).includes('"cache_control":{"type":"ephemeral","ttl":"1h"}'), "the user's TTL is sent");
    } finally {
      await setSetting('models.promptCacheTtl', undefined);
      await setSetting('models.overrides', undefined);
      if (before === undefined) rmSync(file, { force: true });
      else writeFileSync(file, before);
    }
  });

  it('encrypted reasoning is kept with the conversation: after a reload the next responses turn sends it back', async () => {
    const services = (await extension()).exports as Services;
    const chat = async () => {
      const controller = new ChatController(services);
      const page = new FakeWebview();
      // A real webview serialises what is posted at once: a later change to the host's objects is not seen.
      const post = page.postMessage.bind(page);
      page.postMessage = (m: unknown) => post(structuredClone(m));
      const attached = controller.attach(page as unknown as vscode.Webview);
      page.fromPage({ type: 'webview/ready' });
      page.fromPage({ type: 'chat/new' });
      return { page, close: () => (attached.dispose(), controller.dispose()) };
    };
    const before = await chat();
    let id = '';
    let cipher = '';
    try {
      before.page.fromPage({ type: 'chat/setModel', model: 'gw-codex' });
      before.page.fromPage({ type: 'chat/send', requestId: 'r1', text: 'think first', images: [], contexts: [] });
      const end = await waitFor('the first answer', () => before.page.end('r1'));
      assert.equal(end.type, 'chat/done', JSON.stringify(end));
      const shown = before.page.posted.filter((m) => m.type === 'chat/conversation').pop();
      id = shown?.type === 'chat/conversation' ? shown.conversation.id : '';
      assert.ok(id);
      const leaked = before.page.posted.filter((m) => JSON.stringify(m).includes('gwenc:')).map((m) => m.type);
      assert.deepEqual(leaked, [], 'the page never gets the ciphertext');
      // Saved with the conversation, in its file in the workspace storage folder.
      const file = join(
        services.context.storageUri?.fsPath ?? '',
        'chat-conversations',
        `gatewayStudio.chat.conversation.${id}.json`,
      );
      cipher = await waitFor('the record to hold the encrypted reasoning', () => {
        if (!existsSync(file)) return undefined;
        return /"encrypted_content":"(gwenc:[^"]+)"/.exec(readFileSync(file, 'utf8'))?.[1];
      });
    } finally {
      before.close();
    }
    // A reload: a new client (nothing remembered in the process) and a new chat restored from storage.
    const oldClient = await getGatewayClient(services);
    await setSetting('network.requestTimeoutSeconds', 61);
    try {
      assert.notEqual(await getGatewayClient(services), oldClient, 'a new client, as after a reload');
      await control('reset');
      await (await keyStore()).set(gateway.validKey);
      const after = await chat();
      try {
        after.page.fromPage({ type: 'history/open', conversationId: id });
        await waitFor('the conversation to open', () =>
          after.page.posted.some((m) => m.type === 'chat/conversation' && m.conversation.id === id),
        );
        after.page.fromPage({ type: 'chat/send', requestId: 'r2', text: 'and now?', images: [], contexts: [] });
        const end = await waitFor('the answer after the reload', () => after.page.end('r2'));
        assert.equal(end.type, 'chat/done', JSON.stringify(end));
      } finally {
        after.close();
      }
      const sent = await recorded('/v1/responses');
      assert.equal(sent.length, 1, JSON.stringify(sent.map((r) => r.route)));
      const input = sent[0]!.body.input as Array<Record<string, unknown>>;
      assert.deepEqual(
        input.map((i) => i.type ?? i.role),
        ['user', 'reasoning', 'message', 'user'],
      );
      assert.equal(input[1]!.encrypted_content, cipher, 'the stored ciphertext went back before its answer');
    } finally {
      await setSetting('network.requestTimeoutSeconds', undefined);
    }
  });

  describe('thinking in the chat, one model per dialect', () => {
    let controller: ChatController | undefined;
    let page: FakeWebview;
    let attached: vscode.Disposable | undefined;
    beforeEach(async () => {
      const services = (await extension()).exports as Services;
      controller = new ChatController(services);
      page = new FakeWebview();
      attached = controller.attach(page as unknown as vscode.Webview);
      page.fromPage({ type: 'webview/ready' });
      page.fromPage({ type: 'chat/new' });
    });
    afterEach(() => {
      attached?.dispose();
      controller?.dispose();
    });

    for (const [id, dialect] of [
      ['gw-deepseek', 'reasoning_content'],
      ['gw-reasoning', 'reasoning'],
      ['gw-details', 'reasoning_details[]'],
      ['gw-think', '<think> tags'],
      ['gw-codex', 'responses reasoning summary'],
    ] as const) {
      it(`${id} (${dialect}): reasoning streams as thinking, the answer has no tag`, async () => {
        page.fromPage({ type: 'chat/setModel', model: id });
        page.fromPage({ type: 'chat/send', requestId: id, text: 'think about it', images: [], contexts: [] });
        const end = await waitFor(`the end of ${id}`, () => page.end(id));
        assert.equal(end.type, 'chat/done', JSON.stringify(end));
        const reasoning = page.posted
          .map((m) => (m.type === 'chat/delta' && m.requestId === id ? (m.reasoning ?? '') : ''))
          .join('');
        assert.match(reasoning, /I will answer plainly/);
        assert.equal(page.streamed(id), 'Echo: think about it');
        assert.equal(end.message?.content, 'Echo: think about it');
        assert.match(end.message?.reasoning ?? '', /I will answer plainly/);
        assert.equal(typeof end.message?.reasoningMs, 'number');
      });
    }
  });
});
