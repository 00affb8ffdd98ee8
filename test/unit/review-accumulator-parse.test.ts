// Review: relays that send the tool's name on every fragment made the accumulator try JSON.parse on
// the whole argument text so far at every fragment (to see whether a named fragment opens the next
// call): quadratic in the argument size. 200 KB of arguments in 20-byte pieces took 3.4 s of the
// extension host's thread against 0.5 s without the names. Counted here as parses, not as time.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChatAccumulator } from '../../src/api/accumulator';

const head = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gw-chat' };

/** How often `JSON.parse` read a text of at least `minLength` characters while `fn` ran. */
function bigParses(minLength: number, fn: () => void): number {
  const original = JSON.parse;
  let n = 0;
  JSON.parse = ((text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
    if (typeof text === 'string' && text.length >= minLength) n++;
    return original(text, reviver);
  }) as typeof JSON.parse;
  try {
    fn();
  } finally {
    JSON.parse = original;
  }
  return n;
}

void describe('review: the cost of a tool name repeated on every fragment', () => {
  void it('50 KB of arguments in 20-byte fragments that all repeat id and name are parsed a handful of times, not once per fragment', () => {
    const args = JSON.stringify({ path: 'big.ts', content: 'x{y}z"q\\"}'.repeat(5_000) });
    const a = new ChatAccumulator();
    const parses = bigParses(10_000, () => {
      for (let i = 0; i < args.length; i += 20) {
        a.push({ ...head, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_0', type: 'function', function: { name: 'write_file', arguments: args.slice(i, i + 20) } }] }, finish_reason: null }] });
      }
      // The next call under the same id, opened by its name once the first call's JSON is complete.
      a.push({ ...head, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_0', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } }] }, finish_reason: 'tool_calls' }] });
    });
    const calls = a.result().message.tool_calls ?? [];
    assert.deepEqual(calls.map((c) => c.function.name), ['write_file', 'read_file'], 'the named fragment after complete arguments still opens the next call');
    assert.equal(calls[0]?.function.arguments, args, 'the first call has all its arguments');
    assert.ok(parses <= 3, `the growing arguments were parsed ${parses} times for ${Math.ceil(args.length / 20)} fragments`);
  });
});
