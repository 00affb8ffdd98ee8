// Where exports are written: the board's outputs folder only, never over an existing file, and
// only bytes that are what they claim to be.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
  exportTarget,
  isExportKind,
  isInside,
  outputsFolder,
  refuseBytes,
} from '../../../../../src/video/storyboard/core/stitchOutput';

const board = path.join('/ws', 'docs', 'demo.storyboard.json');

void describe('stitch outputs', () => {
  void it('puts exports in the board outputs folder, numbering instead of replacing', () => {
    assert.equal(outputsFolder(board), path.join('/ws', 'docs', 'demo.storyboard'));
    const taken = new Set([path.join('/ws', 'docs', 'demo.storyboard', 'film.mp4')]);
    assert.equal(
      exportTarget(board, 'gif', (p) => taken.has(p)),
      path.join('/ws', 'docs', 'demo.storyboard', 'film.gif'),
    );
    assert.equal(
      exportTarget(board, 'film', (p) => taken.has(p)),
      path.join('/ws', 'docs', 'demo.storyboard', 'film-2.mp4'),
    );
    taken.add(path.join('/ws', 'docs', 'demo.storyboard', 'film-2.mp4'));
    assert.equal(
      exportTarget(board, 'film', (p) => taken.has(p)),
      path.join('/ws', 'docs', 'demo.storyboard', 'film-3.mp4'),
    );
    assert.throws(() => outputsFolder('/ws/notes.json'), /not a \*\.storyboard\.json file/);
  });

  void it('accepts only the known kinds from the page', () => {
    assert.ok(isExportKind('gif'));
    for (const v of ['../x', 'film.mp4', '', null, 3]) assert.equal(isExportKind(v), false);
  });

  void it('tells inside from outside, .. included', () => {
    assert.ok(isInside('/ws/a', '/ws/a/b.mp4'));
    assert.ok(isInside('/ws/a', '/ws/a'));
    assert.equal(isInside('/ws/a', '/ws/a/../b.mp4'), false);
    assert.equal(isInside('/ws/a', '/ws/ab/c.mp4'), false);
    assert.equal(isInside('/ws/a', '/etc/passwd'), false);
  });

  void it('refuses bytes that are not what the kind says', () => {
    const gif = new TextEncoder().encode('GIF89a....');
    const mp4 = new Uint8Array([0, 0, 0, 24, ...new TextEncoder().encode('ftypisom')]);
    assert.equal(refuseBytes('gif', gif), undefined);
    assert.equal(refuseBytes('film', mp4), undefined);
    assert.equal(refuseBytes('gif', mp4), 'the export is not a GIF');
    assert.equal(refuseBytes('reencoded', gif), 'the export is not an MP4');
    assert.equal(refuseBytes('film', new Uint8Array()), 'the export is empty');
    assert.equal(refuseBytes('gif', new TextEncoder().encode('<script>')), 'the export is not a GIF');
  });
});
