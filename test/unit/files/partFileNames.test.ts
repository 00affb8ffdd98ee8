// The temporary file a download writes beside its target, and the one shape cleanup recognises.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { partFileName, partFileTarget } from '../../../src/files/partFileNames';

void describe('part file names', () => {
  void it('the temporary name a download uses is recognised, and only that exact shape', () => {
    const name = partFileName('sunset-ab12cd34.mp4');
    assert.match(name, /^\.sunset-ab12cd34\.mp4\.[0-9a-f]{8}\.part$/);
    assert.equal(partFileTarget(name), 'sunset-ab12cd34.mp4');
    for (const other of [
      'sunset-ab12cd34.mp4.0123abcd.part',
      '.sunset-ab12cd34.mp4.0123ABCD.part',
      '.sunset-ab12cd34.mp4.0123abc.part',
      '.sunset-ab12cd34.mp4.0123abcd.part.bak',
      'notes.part',
    ]) {
      assert.equal(partFileTarget(other), undefined, other);
    }
  });
});
