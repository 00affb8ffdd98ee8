import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FeatureToolError, storedMediaKind } from '../../../src/contracts/featureTools';

void describe('the contract between a feature’s tools and the chat', () => {
  void it('a stored followed call names its media kind; calls stored before media kinds ("videoTask") are video jobs', () => {
    assert.equal(storedMediaKind('video'), 'video');
    assert.equal(storedMediaKind('videoTask'), 'video');
    assert.equal(storedMediaKind('storyboard'), 'storyboard');
    assert.equal(storedMediaKind('image'), 'image');
  });

  void it('anything else names no kind, so the stored call is dropped rather than followed wrongly', () => {
    for (const v of ['images', 'Video', '', undefined, null, 1, { kind: 'video' }])
      assert.equal(storedMediaKind(v), undefined);
  });

  void it('a FeatureToolError is an Error the chat can tell apart, with the message the model reads', () => {
    const e = new FeatureToolError('seconds-max: at most 10 s');
    assert.ok(e instanceof Error);
    assert.ok(e instanceof FeatureToolError);
    assert.equal(e.name, 'FeatureToolError');
    assert.equal(e.message, 'seconds-max: at most 10 s');
  });
});
