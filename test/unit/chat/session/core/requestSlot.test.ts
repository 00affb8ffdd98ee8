import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RequestSlot } from '../../../../../src/chat/session/core/requestSlot';
import type { HostMessage } from '../../../../../src/shared/protocol';

/** The one request the session runs at a time (src/chat/session/core/requestSlot.ts). */

function slot() {
  const sent: HostMessage[] = [];
  const s = new RequestSlot({ broadcast: (m) => sent.push(m), delta: () => undefined });
  return { s, sent };
}

void test('a second request while one runs is ended in the views with why, and the running one is shown busy again', () => {
  const { s, sent } = slot();
  assert.equal(s.refuse('r0'), false, 'refused with nothing running');
  s.begin('r1');
  assert.equal(s.refuse('r2'), true);
  assert.deepEqual(
    sent.map((m) => (m.type === 'chat/busy' || m.type === 'chat/done' ? `${m.type} ${m.requestId}` : m.type)),
    ['chat/busy r1', 'chat/done r2', 'chat/notice', 'chat/busy r1'],
  );
  assert.equal(s.busyRequestId, 'r1');
});

void test('cancel stops only the request it names, and a finished request does not free the slot of the next one', () => {
  const { s } = slot();
  const first = s.begin('r1');
  s.cancel('r2');
  assert.equal(first.aborted, false, 'another id stopped it');
  s.cancel('r1');
  assert.equal(first.aborted, true);
  const second = s.begin('r2');
  s.end('r1');
  assert.equal(s.busyRequestId, 'r2', 'the late end of r1 freed r2');
  s.stop();
  assert.equal(second.aborted, true);
  s.end('r2');
  assert.equal(s.busy, false);
});
