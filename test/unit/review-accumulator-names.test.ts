// Review: relays that repeat one tool-call id (or send none) for every parallel call give the
// accumulator only the tool name to tell calls apart. A first call without parameters may come with
// `arguments: ""`; the next call's fragment, naming another tool, renamed that call instead of
// opening its own, so the parameterless call was silently lost.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChatAccumulator } from '../../src/api/accumulator';

const head = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gw-chat' };
const toolChunk = (tool_calls: unknown[], finish_reason: string | null = null) => ({ ...head, choices: [{ index: 0, delta: { tool_calls }, finish_reason }] });

function calls(id: string | undefined): { id: string; name: string; args: string }[] {
  const a = new ChatAccumulator();
  a.push({ ...head, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  a.push(toolChunk([{ index: 0, id, type: 'function', function: { name: 'get_time', arguments: '' } }]));
  a.push(toolChunk([{ index: 0, id, type: 'function', function: { name: 'read_file', arguments: '' } }]));
  a.push(toolChunk([{ index: 0, function: { arguments: '{"path":' } }]));
  a.push(toolChunk([{ index: 0, function: { arguments: '"a.md"}' } }], 'tool_calls'));
  return (a.result().message.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, args: c.function.arguments }));
}

void describe('review: a parameterless call followed by another tool under one repeated id', () => {
  for (const [label, id] of [['the same id "call_0"', 'call_0'], ['an empty id', ''], ['no id', undefined]] as const) {
    void it(`with ${label} on both calls, both calls are kept, each with its own name and arguments`, () => {
      const got = calls(id);
      assert.deepEqual(got.map((c) => [c.name, c.args]), [['get_time', ''], ['read_file', '{"path":"a.md"}']]);
      assert.equal(new Set(got.map((c) => c.id)).size, 2, `ids are unique: ${got.map((c) => c.id).join(', ')}`);
    });
  }

  void it('a server that repeats the same name on every fragment of one call still gives one call', () => {
    const a = new ChatAccumulator();
    a.push(toolChunk([{ index: 0, id: 'call_0', type: 'function', function: { name: 'read_file', arguments: '' } }]));
    a.push(toolChunk([{ index: 0, id: 'call_0', type: 'function', function: { name: 'read_file', arguments: '{"path":' } }]));
    a.push(toolChunk([{ index: 0, id: 'call_0', type: 'function', function: { name: 'read_file', arguments: '"a.md"}' } }], 'tool_calls'));
    assert.deepEqual(a.result().message.tool_calls?.map((c) => [c.id, c.function.name, c.function.arguments]), [['call_0', 'read_file', '{"path":"a.md"}']]);
  });
});
