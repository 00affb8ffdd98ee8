// Review: the vscode.lm provider follows gatewayStudio.chat.stream. A user who turned streaming off
// because the gateway or model cannot stream got streamed requests from VS Code's model picker.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { control, setSetting, useGatewayWithValidKey, waitFor } from './env';

interface Recorded {
  route: string;
  body: { stream?: unknown; tool_calls?: unknown };
}

describe('review: vscode.lm and the streaming setting', () => {
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
    for await (const part of (await m!.sendRequest([vscode.LanguageModelChatMessage.User('hello without streaming')], {}, token)).stream) {
      if (part instanceof vscode.LanguageModelTextPart) text += part.value;
    }
    assert.equal(text, 'Echo: hello without streaming');

    const tools: vscode.LanguageModelChatTool[] = [{ name: 'read_file', description: 'Reads', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }];
    const script = '#tools [{"calls":[{"name":"read_file","arguments":{"path":"x.md"}}]}]';
    const calls: vscode.LanguageModelToolCallPart[] = [];
    for await (const part of (await m!.sendRequest([vscode.LanguageModelChatMessage.User(script)], { tools }, token)).stream) {
      if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
    }
    assert.deepEqual(calls.map((c) => [c.name, c.input]), [['read_file', { path: 'x.md' }]]);

    const sent = ((await control('requests')) as Recorded[]).filter((r) => r.route === '/v1/chat/completions');
    assert.equal(sent.length, 2);
    assert.deepEqual(sent.map((r) => r.body.stream), [false, false], 'both requests asked for a non-streaming answer');
  });
});
