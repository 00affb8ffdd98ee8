import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ReasoningMemory } from '../../../../../src/lm/answer/core/reasoningMemory';

void test('reasoning is remembered per call and empty reasoning is not', () => {
  const m = new ReasoningMemory();
  m.remember(['call_1', 'call_2'], 'I should read both files');
  m.remember(['call_3'], '');
  m.remember(['call_4'], undefined);
  assert.equal(m.get('call_1'), 'I should read both files');
  assert.equal(m.get('call_2'), 'I should read both files');
  assert.equal(m.get('call_3'), undefined);
  assert.equal(m.size, 2);
});

void test('a whole call is told apart by its tool and arguments, not by its id alone (relays reuse call_0)', () => {
  const m = new ReasoningMemory();
  m.remember([{ callId: 'call_0', name: 'read_file', input: { path: 'a.ts' } }], 'conversation A');
  assert.equal(m.get({ callId: 'call_0', name: 'read_file', input: { path: 'a.ts' } }), 'conversation A');
  assert.equal(m.get({ callId: 'call_0', name: 'read_file', input: { path: 'b.ts' } }), undefined);
  assert.equal(m.get({ callId: 'call_0', name: 'list_directory', input: { path: 'a.ts' } }), undefined);
  assert.equal(m.get('call_0'), undefined);
});

void test('the memory is bounded: the oldest go first, and remembering again makes an entry new', () => {
  const m = new ReasoningMemory(2);
  m.remember(['a'], 'ra');
  m.remember(['b'], 'rb');
  m.remember(['a'], 'ra2');
  m.remember(['c'], 'rc');
  assert.equal(m.size, 2);
  assert.equal(m.get('b'), undefined);
  assert.equal(m.get('a'), 'ra2');
  assert.equal(m.get('c'), 'rc');
});
