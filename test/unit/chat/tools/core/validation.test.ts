import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ToolCallValidator } from '../../../../../src/chat/tools/core/validation';
import type { ToolCall, ToolDefinition } from '../../../../../src/api/chat/wire';

const readFile: ToolDefinition = {
  type: 'function',
  function: {
    name: 'read_file',
    description: 'Read a file',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string' }, startLine: { type: 'integer', minimum: 1 } },
      required: ['path'],
      additionalProperties: false,
    },
  },
};
const noArgs: ToolDefinition = {
  type: 'function',
  function: { name: 'get_selection', parameters: { type: 'object', properties: {} } },
};
const call = (name: string, args: string, id = 'call_1'): ToolCall => ({
  id,
  type: 'function',
  function: { name, arguments: args },
});

void test('well-formed arguments that match the schema are accepted with the parsed object', () => {
  const r = new ToolCallValidator([readFile]).check(call('read_file', '{"path":"src/a.ts","startLine":3}'));
  assert.equal(r.ok, true);
  assert.deepEqual(r.ok && r.args, { path: 'src/a.ts', startLine: 3 });
});

void test('an unknown tool is refused with a tool message naming every available tool', () => {
  const r = new ToolCallValidator([readFile, noArgs]).check(call('delete_everything', '{}', 'call_x'));
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.equal(r.reason, 'unknown-tool');
  assert.equal(r.message.role, 'tool');
  assert.equal(r.message.tool_call_id, 'call_x');
  assert.match(r.message.content, /no tool named "delete_everything"/);
  assert.match(r.message.content, /read_file, get_selection/);
});

void test('arguments cut off mid-string are refused as invalid JSON, quoting the end of the text', () => {
  const r = new ToolCallValidator([readFile]).check(call('read_file', '{"path": "src/a'));
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.equal(r.reason, 'invalid-json');
  assert.match(r.message.content, /not valid JSON/);
  assert.match(r.message.content, /src\/a/);
  assert.match(r.message.content, /not run/);
});

void test('a stray character in the arguments is reported with the text around its position', () => {
  const r = new ToolCallValidator([readFile]).check(call('read_file', '{"path": "a.ts",, }'));
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.equal(r.reason, 'invalid-json');
  assert.match(r.detail, /Near position 16: `\{"path": "a\.ts",, \}`/);
});

void test('arguments that are JSON but not an object are refused saying what they are', () => {
  const v = new ToolCallValidator([readFile]);
  const arr = v.check(call('read_file', '["src/a.ts"]'));
  assert.equal(arr.ok, false);
  assert.match(!arr.ok ? arr.detail : '', /must be a JSON object.*an array/);
  const str = v.check(call('read_file', '"src/a.ts"'));
  assert.match(!str.ok ? str.detail : '', /a string/);
});

void test('a missing required property, a wrong type and an unknown property are all listed', () => {
  const r = new ToolCallValidator([readFile]).check(call('read_file', '{"startLine":"three","pathh":"a"}'));
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.equal(r.reason, 'schema');
  assert.match(r.detail, /missing required property "path"/);
  assert.match(r.detail, /"startLine" must be integer/);
  assert.match(r.detail, /unknown property "pathh"/);
});

void test('empty arguments count as an empty object for a tool without parameters', () => {
  const r = new ToolCallValidator([noArgs]).check(call('get_selection', ''));
  assert.equal(r.ok, true);
});

void test('a tool whose schema cannot be compiled refuses its calls instead of throwing', () => {
  const broken: ToolDefinition = { type: 'function', function: { name: 'odd', parameters: { type: 'no-such-type' } } };
  const v = new ToolCallValidator([broken, readFile]);
  const r = v.check(call('odd', '{}'));
  assert.equal(r.ok, false);
  assert.equal(!r.ok && r.reason, 'bad-schema');
  assert.equal(v.check(call('read_file', '{"path":"x"}')).ok, true);
});
