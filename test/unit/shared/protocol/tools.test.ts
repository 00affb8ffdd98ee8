import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hostMessageSchema, parseWebviewMessage } from '../../../../src/shared/protocol';

void test('a tool decision must be allow, deny or alwaysAllow', () => {
  assert.equal(parseWebviewMessage({ type: 'tools/decide', callId: 'c1', decision: 'allow' }).ok, true);
  assert.equal(parseWebviewMessage({ type: 'tools/decide', callId: 'c1', decision: 'sure' }).ok, false);
  assert.equal(parseWebviewMessage({ type: 'tools/decide', callId: '', decision: 'deny' }).ok, false);
});

void test('host tool-call updates validate their state and keep the result preview', () => {
  const m = hostMessageSchema.safeParse({
    type: 'tools/call',
    update: {
      callId: 'c1',
      name: 'read_file',
      argumentsJson: '{"path":"a"}',
      state: 'done',
      readOnly: true,
      resultPreview: 'abc',
    },
  });
  assert.equal(m.data?.type, 'tools/call');
  assert.equal(
    hostMessageSchema.safeParse({
      type: 'tools/call',
      update: { callId: 'c1', name: 'x', argumentsJson: '{}', state: 'finished', readOnly: true },
    }).data,
    undefined,
  );
});

void test("a video card's action is one of open, reveal and openExternal, for a call id; anything else is refused", () => {
  const ok = parseWebviewMessage({ type: 'tools/videoAction', callId: 'call_0', action: 'reveal' });
  assert.deepEqual(ok, { ok: true, message: { type: 'tools/videoAction', callId: 'call_0', action: 'reveal' } });
  for (const bad of [
    { type: 'tools/videoAction', callId: 'call_0', action: 'deleteFile' },
    { type: 'tools/videoAction', callId: '', action: 'open' },
    { type: 'tools/videoAction', action: 'open' },
  ])
    assert.equal(parseWebviewMessage(bad).ok, false, JSON.stringify(bad));
});
