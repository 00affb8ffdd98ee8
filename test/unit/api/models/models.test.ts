// The /v1/models body in every shape relays send, and what a record says it can do.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { acceptsImages, isVideoModel, parseModelList } from '../../../../src/api/models/models';
import { gatewayFailure } from '../../../support/helpers';

void test('an OpenAI list, a bare array, a `models` array and plain id strings all read', () => {
  assert.deepEqual(
    parseModelList({ object: 'list', data: [{ id: 'a', owned_by: 'x' }] }).map((m) => m.id),
    ['a'],
  );
  assert.deepEqual(
    parseModelList([{ id: 'a' }, 'b']).map((m) => m.id),
    ['a', 'b'],
  );
  assert.deepEqual(
    parseModelList({ models: ['c'] }).map((m) => m.id),
    ['c'],
  );
});

void test('invalid records are dropped and reported, duplicates kept once', () => {
  const dropped: string[] = [];
  const list = parseModelList({ data: [{ id: 'a' }, { name: 'no id' }, { id: 'a' }] }, (w) => dropped.push(w));
  assert.deepEqual(
    list.map((m) => m.id),
    ['a'],
  );
  assert.equal(dropped.length, 1);
  assert.match(dropped[0]!, /model record 1/);
});

void test('a body of no known shape, or with no valid record, is invalid_response', async () => {
  assert.equal((await gatewayFailure(Promise.resolve().then(() => parseModelList('nope')))).kind, 'invalid_response');
  const e = await gatewayFailure(Promise.resolve().then(() => parseModelList({ data: [{}, { id: 3 }] })));
  assert.equal(e.kind, 'invalid_response');
  assert.equal(parseModelList({ data: [] }).length, 0, 'an empty list is no error');
});

void test('video and image abilities come from capabilities or modalities', () => {
  assert.equal(isVideoModel({ id: 'v', capabilities: ['video'] }), true);
  assert.equal(isVideoModel({ id: 'v', modalities: ['video'] }), true);
  assert.equal(isVideoModel({ id: 't' }), false);
  assert.equal(acceptsImages({ id: 'i', capabilities: ['vision'] }), true);
  assert.equal(acceptsImages({ id: 'i', modalities: ['image'] }), true);
  assert.equal(acceptsImages({ id: 't', capabilities: ['chat'] }), false);
});
