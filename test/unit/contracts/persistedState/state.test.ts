// The machinery every persisted key goes through (src/contracts/persistedState/state.ts): a read
// never fails on what is stored, drops what it does not understand, and reads older shapes
// through the key's migrations.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  decodeState,
  entries,
  fields,
  items,
  loadState,
  oneOf,
  saveState,
  stateKey,
  text,
  finite,
  type StateStorage,
} from '../../../../src/contracts/persistedState/state';

function memory(init: Record<string, unknown> = {}): StateStorage & { data: Map<string, unknown> } {
  const data = new Map(Object.entries(init));
  return {
    data,
    get: (k) => data.get(k),
    update: (k, v) => {
      if (v === undefined) data.delete(k);
      else data.set(k, v);
      return Promise.resolve();
    },
  };
}

/** A key whose shape changed twice: 1 stored a bare number, 2 `{ n }`, 3 (today) `{ count, unit }`. */
const counter = stateKey<{ count: number; unit: string }>({
  key: 'test.counter',
  store: 'global',
  version: 3,
  check: fields({ count: finite, unit: text }),
  fallback: () => ({ count: 0, unit: 'clips' }),
  migrations: [
    { from: 1, read: (v) => (typeof v === 'number' ? { count: v, unit: 'clips' } : undefined) },
    { from: 2, read: (v) => (fields({ n: finite })(v) ? { count: (v as { n: number }).n, unit: 'clips' } : undefined) },
  ],
});

void describe('decodeState and loadState', () => {
  void it('a value of today’s shape is read as it is', () => {
    assert.deepEqual(decodeState(counter, { count: 4, unit: 's' }), { count: 4, unit: 's' });
  });

  void it('every older shape is read through its migration', () => {
    assert.deepEqual(decodeState(counter, 7), { count: 7, unit: 'clips' }, 'version 1');
    assert.deepEqual(decodeState(counter, { n: 5 }), { count: 5, unit: 'clips' }, 'version 2');
  });

  void it('absent or unreadable is undefined, and loadState gives the default then', () => {
    assert.equal(decodeState(counter, undefined), undefined);
    assert.equal(decodeState(counter, 'seven'), undefined);
    assert.deepEqual(loadState(memory({ 'test.counter': ['x'] }), counter), { count: 0, unit: 'clips' });
    assert.deepEqual(loadState(memory(), counter), { count: 0, unit: 'clips' });
  });

  void it('a read never writes: an unreadable value stays stored as it was', () => {
    const m = memory({ 'test.counter': { future: true } });
    loadState(m, counter);
    assert.deepEqual(m.data.get('test.counter'), { future: true });
  });

  void it('saveState writes under the key, and undefined removes it', async () => {
    const m = memory();
    await saveState(m, counter, { count: 1, unit: 's' });
    assert.deepEqual(m.data.get('test.counter'), { count: 1, unit: 's' });
    await saveState(m, counter, undefined);
    assert.equal(m.data.has('test.counter'), false);
  });

  void it('a key is version 1 with no migration unless declared otherwise', () => {
    const k = stateKey({ key: 'test.flag', store: 'workspace', check: text, fallback: () => '' });
    assert.equal(k.version, 1);
    assert.deepEqual(k.migrations, []);
  });
});

void describe('the checks drop what they do not understand, entry by entry', () => {
  void it('entries keeps the good entries of a map, and refuses a list', () => {
    const check = entries(oneOf('a', 'b'));
    assert.deepEqual(check({ x: 'a', y: 'c', z: 'b' }), { x: 'a', z: 'b' });
    assert.equal(check(['a']), undefined);
    assert.equal(check(null), undefined);
  });

  void it('entries never lets a stored "__proto__" key reach the prototype', () => {
    const out = entries(text)(JSON.parse('{"__proto__": "x", "a": "b"}'));
    assert.deepEqual(out, { a: 'b' });
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
  });

  void it('items keeps the good items of a list', () => {
    assert.deepEqual(items(text)(['a', 1, 'b', null]), ['a', 'b']);
    assert.equal(items(text)({ 0: 'a' }), undefined);
  });

  void it('fields needs every field and keeps only those', () => {
    const check = fields({ day: text, spent: finite });
    assert.deepEqual(check({ day: 'd', spent: 1, extra: true }), { day: 'd', spent: 1 });
    assert.equal(check({ day: 'd' }), undefined);
    assert.equal(check({ day: 'd', spent: Number.NaN }), undefined);
  });
});
