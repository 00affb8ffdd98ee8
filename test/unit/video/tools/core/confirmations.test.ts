import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { VideoCreateRequest } from '../../../../../src/api/video/videoRules';
import { CONFIRMATION_TTL_MS, ConfirmationLedger, planKey } from '../../../../../src/video/tools/core/confirmations';

const plan: VideoCreateRequest = { model: 'vendor-image-video', prompt: 'a comet', seconds: 4, resolution: '720p' };

void test('an invoke without a recorded confirmation is refused; a confirmation is used once', () => {
  const ledger = new ConfirmationLedger();
  assert.equal(ledger.consume(planKey(plan)), false, 'never confirmed');
  ledger.record(planKey(plan));
  assert.equal(ledger.consume(planKey(plan)), true);
  assert.equal(ledger.consume(planKey(plan)), false, 'the same confirmation cannot start a second task');
  ledger.record(planKey(plan));
  ledger.record(planKey(plan));
  assert.equal(ledger.consume(planKey(plan)), true);
  assert.equal(ledger.consume(planKey(plan)), true, 'two confirmations, two tasks');
  assert.equal(ledger.consume(planKey(plan)), false);
});

void test('a plan that differs in anything billed (model, duration, image, prompt) is not the confirmed one', () => {
  const ledger = new ConfirmationLedger();
  ledger.record(planKey(plan));
  for (const changed of [
    { ...plan, model: 'vendor-video-1.5' },
    { ...plan, seconds: 8 },
    { ...plan, resolution: '480p' },
    { ...plan, prompt: 'a comet ' },
    { ...plan, image_urls: ['data:image/png;base64,AAAA'] },
  ])
    assert.equal(ledger.consume(planKey(changed)), false, JSON.stringify(changed));
  // Property order and absent fields do not matter: it is the same plan.
  const reordered: VideoCreateRequest = {
    resolution: '720p',
    seconds: 4,
    prompt: 'a comet',
    model: 'vendor-image-video',
  };
  assert.equal(planKey(reordered), planKey(plan));
  assert.equal(planKey({ ...plan, aspect_ratio: undefined }), planKey(plan));
  assert.equal(ledger.consume(planKey(reordered)), true);
});

void test('a confirmation expires, and prepares that never reach invoke do not pile up', () => {
  let now = 1_000;
  const ledger = new ConfirmationLedger(CONFIRMATION_TTL_MS, () => now);
  ledger.record(planKey(plan));
  now += CONFIRMATION_TTL_MS + 1;
  assert.equal(ledger.consume(planKey(plan)), false, 'expired');
  for (let i = 0; i < 500; i++) ledger.record(planKey({ ...plan, prompt: `p${i}` }));
  assert.ok(ledger.size() <= 64, `${ledger.size()} kept`);
  assert.equal(ledger.consume(planKey({ ...plan, prompt: 'p499' })), true, 'the newest is kept');
  assert.equal(ledger.consume(planKey({ ...plan, prompt: 'p0' })), false, 'the oldest was dropped');
});
