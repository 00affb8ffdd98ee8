// Resources as @-mention rows and prompts as `/server.prompt`, against server-everything (from npm,
// over real stdio): its resources and templates listed, a template filled and read, its prompts
// listed with their arguments and run; and what a server's odd contents become.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { readMcpConfig } from '../../../../../src/chat/mcp/core/config';
import { McpConnection } from '../../../../../src/chat/mcp/core/connection';
import {
  expandTemplate,
  findPrompt,
  parseResourceRef,
  promptArguments,
  promptCommandName,
  promptSlashItems,
  promptText,
  resourceContents,
  resourceRef,
  resourceRows,
  templateVariables,
} from '../../../../../src/chat/mcp/core/resourcesPrompts';

const EVERYTHING = path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');

async function everything(): Promise<McpConnection> {
  const def = readMcpConfig({ servers: { everything: { command: 'node' } } }, { scope: 'workspace', source: 't' })
    .servers[0]!;
  const c = new McpConnection(
    { def, command: process.execPath, args: [EVERYTHING, 'stdio'], env: {} },
    { client: { name: 't', version: '0' }, log: () => undefined, onChange: () => undefined },
  );
  await c.start();
  assert.equal(c.state, 'running', c.error);
  return c;
}
const images = { acceptsImages: true, maxImageBytes: 1000 };

void test("server-everything's resources and templates are picker rows; a picked one reads back", async (t) => {
  const c = await everything();
  t.after(() => c.stop());
  const rows = resourceRows([c]);
  const doc = rows.find((r) => r.label === 'everything: architecture.md')!;
  assert.equal(doc.kind, 'mcpResource');
  assert.equal(doc.detail, 'demo://resource/static/document/architecture.md');
  const ref = parseResourceRef(doc.ref)!;
  assert.deepEqual(ref, { server: 'everything', uri: doc.detail, template: false });
  const read = resourceContents(await c.readResource(ref.uri), images);
  assert.ok(read.text.length > 50, read.text);
  assert.deepEqual(read.images, []);

  const tpl = rows.find((r) => r.label === 'everything: Dynamic Text Resource')!;
  const tref = parseResourceRef(tpl.ref)!;
  assert.equal(tref.template, true);
  assert.deepEqual(templateVariables(tref.uri), ['resourceId']);
  const uri = expandTemplate(tref.uri, { resourceId: '7' });
  assert.equal(uri, 'demo://resource/dynamic/text/7');
  assert.match(resourceContents(await c.readResource(uri), images).text, /7/);
  const blob = resourceContents(
    await c.readResource(expandTemplate('demo://resource/dynamic/blob/{resourceId}', { resourceId: '3' })),
    images,
  );
  assert.equal(blob.text, '');
  assert.match(blob.notes.join(), /is binary \(.+\) and was not sent/);
});

void test("server-everything's prompts are /everything.<name> with their arguments, and run", async (t) => {
  const c = await everything();
  t.after(() => c.stop());
  const items = promptSlashItems([c]);
  const args = items.find((i) => i.name === 'everything.args-prompt')!;
  assert.deepEqual(args, {
    kind: 'prompt',
    name: 'everything.args-prompt',
    description: 'Arguments Prompt (MCP server everything)',
    argumentHint: 'city=… [state=…]',
    scope: 'workspace',
  });
  const found = findPrompt([c], 'everything.args-prompt')!;
  const given = promptArguments('city="New York" state=NY', found.prompt);
  assert.deepEqual(given, { values: { city: 'New York', state: 'NY' }, missing: [] });
  assert.deepEqual(promptArguments('state=NY other=1', found.prompt), { values: { state: 'NY' }, missing: ['city'] });
  const text = promptText(await c.getPrompt(found.prompt.name, given.values));
  assert.match(text, /New York/);
  const simple = findPrompt([c], 'everything.simple-prompt')!;
  assert.ok(promptText(await c.getPrompt(simple.prompt.name, {})).length > 0);
  assert.equal(findPrompt([c], 'everything.nope'), undefined);
});

void test('refs: a server name cannot break out of its field; other schemes are not ours', () => {
  const ref = resourceRef('a|b:c', 'file:///x|y', true);
  assert.deepEqual(parseResourceRef(ref), { server: 'a|b:c', uri: 'file:///x|y', template: true });
  assert.equal(parseResourceRef('file:///etc/passwd'), undefined);
  assert.equal(parseResourceRef('mcp-resource:|x'), undefined);
  assert.equal(parseResourceRef('mcp-resource:%E0%A4%A|x'), undefined);
  assert.deepEqual(templateVariables('{unclosed'), []);
});

void test('command names: cleaned to what a / command may hold, at most 64', () => {
  assert.equal(promptCommandName('my server', 'do it!'), 'my_server.do_it_');
  assert.equal(promptCommandName('-x', 'p'), 'x.p');
  assert.ok(promptCommandName('s'.repeat(70), 'p').length <= 64);
});

void test('one argument takes the whole text; no arguments take nothing', () => {
  const one = { name: 'p', arguments: [{ name: 'q', required: true }] };
  assert.deepEqual(promptArguments('what is this', one), { values: { q: 'what is this' }, missing: [] });
  assert.deepEqual(promptArguments('', one), { values: {}, missing: ['q'] });
  assert.deepEqual(promptArguments('x', { name: 'p' }), { values: {}, missing: [] });
});

void test('resource contents: images go as images when the model takes them and they fit; else a note', () => {
  const png = 'iVBORw0KGgo=';
  const r = {
    contents: [
      { uri: 'a://1', text: 'one' },
      { uri: 'a://img', mimeType: 'image/png', blob: png },
    ],
  };
  const sent = resourceContents(r, images);
  assert.equal(sent.text, 'a://1:\none');
  assert.deepEqual(sent.images, [{ mime: 'image/png', base64: png, bytes: 9, uri: 'a://img' }]);
  assert.match(resourceContents(r, { ...images, acceptsImages: false }).notes[0]!, /does not take images/);
  assert.match(resourceContents(r, { ...images, maxImageBytes: 4 }).notes[0]!, /over the limit/);
  const bad = resourceContents({ contents: [{ uri: 'a://x', mimeType: 'image/png', blob: 'not base64!' }] }, images);
  assert.deepEqual(bad.images, []);
  assert.match(bad.notes[0]!, /binary/);
});

void test('prompt messages: one user text alone; several by role with their parts named', () => {
  assert.equal(promptText({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] }), 'hi');
  assert.equal(
    promptText({
      messages: [
        { role: 'user', content: { type: 'text', text: 'q' } },
        { role: 'assistant', content: { type: 'resource', resource: { uri: 'r://1', text: 'body' } } },
        { role: 'user', content: { type: 'image', data: 'AA==', mimeType: 'image/png' } },
      ],
    }),
    'User: q\n\nAssistant: Resource r://1:\nbody\n\nUser: [image image/png]',
  );
});
