// Tool-call ids made unique within an answer and against the conversation's earlier ids.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_TOOL_CALL_ID_LENGTH, uniqueToolCallIds } from '../../../../src/api/chat/toolCallIds';

void test('distinct ids are kept exactly as sent', () => {
  assert.deepEqual(uniqueToolCallIds(['call_a', 'call_b']), ['call_a', 'call_b']);
});

void test('a repeated id gets the first free numbered suffix; a missing one call_gs_<position>', () => {
  assert.deepEqual(uniqueToolCallIds(['c', 'c', undefined, '']), ['c', 'c_2', 'call_gs_2', 'call_gs_3']);
});

void test('ids taken by earlier messages are not reused, and a replacement never takes a sent id', () => {
  assert.deepEqual(uniqueToolCallIds(['call_0', 'call_0_2'], new Set(['call_0'])), ['call_0_3', 'call_0_2']);
});

void test('a suffix past the length limit falls back to call_gs_, and the result is deterministic', () => {
  const long = 'x'.repeat(MAX_TOOL_CALL_ID_LENGTH);
  const ids = uniqueToolCallIds([long, long]);
  assert.deepEqual(ids, [long, 'call_gs_1']);
  assert.deepEqual(uniqueToolCallIds([long, long]), ids);
});
