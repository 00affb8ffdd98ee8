// An MCP tool's images reach the model as images (issue 38 1c): parts and embedded image
// resources of a real server (server-everything) go, after the turn's tool messages, as image
// parts of a user message the local gateway receives; a model without image input, an image over
// the limit and something that only claims to be an image get a line saying why instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { GatewayClient } from '../../../../../src/api/client';
import { readMcpConfig } from '../../../../../src/chat/mcp/core/config';
import { McpConnection, type CallToolResult } from '../../../../../src/chat/mcp/core/connection';
import { listMcpTools, mcpChatTool } from '../../../../../src/chat/mcp/core/mcpTools';
import { resultParts, type ResultImageOptions } from '../../../../../src/chat/mcp/core/toolResult';
import { runTurn } from '../../../../../src/chat/session/core/turnRunner';
import { ToolRunner } from '../../../../../src/chat/tools/core/runner';
import type { ToolResultMessage } from '../../../../../src/shared/protocol';
import { UNSET_PARAMS, useGateway, userConversation } from '../../../../support/helpers';

const EVERYTHING = path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const PNG = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');
const OPEN: ResultImageOptions = { acceptsImages: true, maxImageBytes: 1_000_000 };

void test('parts: images within the limits are attached, the rest named with the reason', () => {
  const r: CallToolResult = {
    content: [
      { type: 'text', text: 'look:' },
      { type: 'image', mimeType: 'image/png', data: PNG },
      { type: 'image', mimeType: 'image/svg+xml', data: PNG },
      { type: 'image', mimeType: 'image/png', data: 'not base64!' },
      { type: 'resource', resource: { uri: 'mem://shot.png', mimeType: 'image/png', blob: PNG } },
      { type: 'resource', resource: { uri: 'mem://a.bin', mimeType: 'application/zip', blob: PNG } },
      { type: 'audio', mimeType: 'audio/wav', data: PNG },
    ],
  };
  const got = resultParts(r, OPEN);
  assert.deepEqual(
    got.images.map((i) => i.image_url.url),
    [`data:image/png;base64,${PNG}`, `data:image/png;base64,${PNG}`],
  );
  assert.match(got.text, /^look:\n\[image image\/png, 8 bytes: attached after the tool results as image 1\]/);
  assert.match(got.text, /\[image image\/svg\+xml, 8 bytes: not sent, not an image the model can read\]/);
  assert.match(got.text, /\[image image\/png, \d+ bytes: not sent, not an image the model can read\]/);
  assert.match(got.text, /\[image resource mem:\/\/shot\.png, image\/png, 8 bytes: attached .* as image 2\]/);
  assert.match(got.text, /\[resource mem:\/\/a\.bin, application\/zip\]/);
  assert.match(got.text, /\[audio audio\/wav, 8 bytes\]/);

  const blind = resultParts(r, { ...OPEN, acceptsImages: false });
  assert.equal(blind.images.length, 0);
  assert.match(blind.text, /8 bytes: not sent, the model does not take images\]/);
  const small = resultParts(r, { ...OPEN, maxImageBytes: 5 });
  assert.equal(small.images.length, 0);
  assert.match(small.text, /not sent, over the chat's image limit of 5 bytes\]/);
  const many = resultParts({ content: Array.from({ length: 6 }, () => r.content![1]!) }, OPEN);
  assert.equal(many.images.length, 4);
  assert.equal((many.text.match(/too many images in one result/g) ?? []).length, 2);
  // Without the options (VS Code's own view of a result), images are only named, as before.
  assert.deepEqual(resultParts(r).images, []);
  assert.match(resultParts(r).text, /^look:\n\[image image\/png, 8 bytes\]$/m);
});

const gw = useGateway();

async function everything(t: { after: (f: () => Promise<void> | void) => void }): Promise<McpConnection> {
  const def = readMcpConfig({ servers: { everything: { command: 'node' } } }, { scope: 'user', source: 't' })
    .servers[0]!;
  const c = new McpConnection(
    { def, command: process.execPath, args: [EVERYTHING, 'stdio'], env: {} },
    { client: { name: 't', version: '0' }, log: () => undefined, onChange: () => undefined, startTimeoutMs: 20_000 },
  );
  t.after(() => c.stop());
  await c.start();
  assert.equal(c.state, 'running', c.error);
  return c;
}

async function turnWithImage(c: McpConnection, model: string, images: ResultImageOptions) {
  const { offered } = listMcpTools([c], { taken: new Set(), max: 200 });
  const entry = offered.find((e) => e.tool.name === 'get-tiny-image')!;
  const tool = mcpChatTool(entry, c, { summary: (s, n) => `${n} of ${s}`, images: () => images });
  const runner = new ToolRunner({
    tools: () => [tool],
    approve: () => Promise.resolve('allow'),
    trust: { isTrusted: () => false, trust: () => undefined },
  });
  const conv = userConversation(
    `show me #tools ${JSON.stringify([{ calls: [{ name: entry.wireName, arguments: {} }] }])}`,
  );
  const before = gw.requests().length;
  const out = await runTurn({
    backend: new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 }),
    conversation: conv,
    defaults: { model, systemPrompt: '', params: UNSET_PARAMS },
    executor: runner,
    maxRounds: 3,
    signal: new AbortController().signal,
    callbacks: { onMessage: () => undefined, onDelta: () => undefined },
  });
  type Body = { messages: { role: string; content?: unknown; tool_call_id?: string }[] };
  const sent = gw
    .requests()
    .slice(before)
    .filter((r) => r.route === '/v1/chat/completions')
    .map((r) => r.body as Body);
  const stored = conv.messages.find((m): m is ToolResultMessage => m.role === 'tool');
  return { out, sent, stored, conv };
}

void test('server-everything: get-tiny-image reaches a vision model as an image after the tool message', async (t) => {
  const c = await everything(t);
  const { out, sent, stored } = await turnWithImage(c, 'gw-vision', OPEN);
  assert.equal(out.status, 'done', JSON.stringify(out));
  assert.equal(stored?.images?.length, 1, 'kept with the tool message (it survives a reload)');
  assert.match(stored!.images![0]!.dataUrl, /^data:image\/png;base64,iVBORw0KGgo/);
  const second = sent[1]!.messages;
  const toolAt = second.findIndex((m) => m.role === 'tool');
  assert.match(String(second[toolAt]!.content), /attached after the tool results as image 1/);
  const next = second[toolAt + 1]!;
  assert.equal(next.role, 'user');
  const parts = next.content as { type: string; text?: string; image_url?: { url: string } }[];
  assert.match(parts[0]!.text!, /^Images returned by the tool calls mcp_everything_get-tiny-image \(/);
  assert.match(parts[0]!.text!, /not the user's words/);
  assert.equal(parts[1]!.image_url!.url, stored!.images![0]!.dataUrl);
});

void test('server-everything: a model without image input gets the line, and the request is not refused', async (t) => {
  const c = await everything(t);
  const { out, sent, stored } = await turnWithImage(c, 'gw-chat', { ...OPEN, acceptsImages: false });
  assert.equal(out.status, 'done', JSON.stringify(out));
  assert.equal(stored?.images, undefined);
  assert.match(stored!.content, /not sent, the model does not take images/);
  assert.ok(!JSON.stringify(sent[1]).includes('image_url'), 'no image part goes to gw-chat (it would refuse it)');
});
