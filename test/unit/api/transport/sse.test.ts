// The one reading of a JSON event stream that chat completions and the Responses API share.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isGatewayError } from '../../../../src/api/transport/errors';
import { bytesOf, DONE, parseJsonEvents, parseSse, type JsonEvent } from '../../../../src/api/transport/sse';

async function all(text: string | string[]): Promise<{ events: Array<JsonEvent | typeof DONE>; skipped: string[] }> {
  const skipped: string[] = [];
  const events: Array<JsonEvent | typeof DONE> = [];
  for await (const e of parseJsonEvents(bytesOf(...[text].flat()), (d) => skipped.push(d))) events.push(e);
  return { events, skipped };
}

void test('events are parsed in order; blank ones and a line that is not JSON are left out, the latter reported', async () => {
  const { events, skipped } = await all('data: {"a":1}\n\ndata:\n\ndata: oops\n\ndata: {"a":2}\n\n');
  assert.deepEqual(events, [
    { json: { a: 1 }, error: false },
    { json: { a: 2 }, error: false },
  ]);
  assert.deepEqual(skipped, ['oops']);
});

void test('[DONE] yields the marker once and ends the stream, whatever follows it', async () => {
  const { events } = await all(['data: {"a":1}\n\ndata: [DO', 'NE]\n\ndata: {"a":2}\n\n']);
  assert.deepEqual(events, [{ json: { a: 1 }, error: false }, DONE]);
});

void test('a JSON event sent as `event: error` is flagged; `event: message` is not', async () => {
  const { events } = await all('event: message\ndata: {"a":1}\n\nevent: error\ndata: {"message":"overloaded"}\n\n');
  assert.deepEqual(events, [
    { json: { a: 1 }, error: false },
    { json: { message: 'overloaded' }, error: true },
  ]);
});

void test('a text error event ends the stream with a stream error quoting it (cut at 300 characters)', async () => {
  const long = 'upstream overloaded '.repeat(30);
  await assert.rejects(all(`data: {"a":1}\n\nevent: error\ndata: ${long}\n\n`), (e: unknown) => {
    assert.ok(isGatewayError(e));
    assert.equal(e.kind, 'stream');
    assert.ok(e.message.includes('upstream overloaded'), e.message);
    assert.ok(!e.message.includes(long.trim()), 'the quote is cut');
    return true;
  });
});

void test('an event left without its blank line at the end is still read, and a CRLF split across reads still ends an event', async () => {
  const { events } = await all('data: {"a":1}');
  assert.deepEqual(events, [{ json: { a: 1 }, error: false }]);
  const raw: string[] = [];
  for await (const e of parseSse(bytesOf('data: x\r', '\n\r\ndata: y'))) raw.push(e.data);
  assert.deepEqual(raw, ['x', 'y']);
});
