import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { imageFolderFor } from '../../../../../src/images/jobs/core/outputFolder';
import { useTempDir } from '../../../../support/helpers';

const temp = useTempDir('gws-image-folder-');

void describe('the image output folder', () => {
  void it('defaults to images/ in the first workspace folder', async () => {
    const ws = temp.fresh('ws');
    assert.equal(
      await imageFolderFor({ value: '', repoValue: undefined, folder: ws, roots: [ws] }),
      join(ws, 'images'),
    );
    assert.equal(await imageFolderFor({ value: '', repoValue: undefined, folder: undefined, roots: [] }), undefined);
  });

  void it('a workspace value that leads outside is refused; the user may name any folder', async () => {
    const ws = temp.fresh('ws');
    for (const v of ['/tmp/elsewhere', '../../.config/autostart'])
      await assert.rejects(
        imageFolderFor({ value: v, repoValue: v, folder: ws, roots: [ws] }),
        /points outside the workspace/,
      );
    const mine = temp.fresh('mine');
    assert.equal(await imageFolderFor({ value: mine, repoValue: undefined, folder: ws, roots: [ws] }), mine);
  });

  void it('a committed link that leads the folder outside is refused', async () => {
    const ws = temp.fresh('ws');
    const outside = temp.fresh('outside');
    mkdirSync(join(ws, 'art'));
    symlinkSync(outside, join(ws, 'art', 'out'));
    await assert.rejects(
      imageFolderFor({ value: 'art/out', repoValue: 'art/out', folder: ws, roots: [ws] }),
      /leads outside the workspace through a symbolic link/,
    );
  });
});
