// The usage channel every feature gets in Services: what one feature emits reaches every listener
// of another, a listener that throws is logged and skipped, and a disposed listener hears nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UsageEvents, type UsageEvent } from '../../../src/platform/usageEvents';

const answer: UsageEvent = { kind: 'answer', gateway: 'http://gw/v1', model: 'gw-chat' };

void test('every listener hears an event; one that throws is logged and the others still hear it', () => {
  const warned: string[] = [];
  const usage = new UsageEvents({ warn: (m) => warned.push(m) });
  const heard: UsageEvent[] = [];
  usage.on(() => {
    throw new Error('listener bug');
  });
  usage.on((e) => heard.push(e));
  usage.emit(answer);
  assert.deepEqual(heard, [answer]);
  assert.deepEqual(warned, ['A usage listener failed: listener bug']);
});

void test('a disposed listener hears nothing more', () => {
  const usage = new UsageEvents({ warn: () => undefined });
  const heard: UsageEvent[] = [];
  const sub = usage.on((e) => heard.push(e));
  usage.emit(answer);
  sub.dispose();
  usage.emit({ kind: 'clip', gateway: 'http://gw/v1', model: 'vendor-image-video', end: 'completed' });
  assert.equal(heard.length, 1);
});
