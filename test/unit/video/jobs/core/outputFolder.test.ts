// Where clips are written: a repository's settings or links may not send them out of the workspace.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isGatewayError } from '../../../../../src/api/transport/errors';
import { outputFolderFor } from '../../../../../src/video/jobs/core/outputFolder';

let base: string;
let ws: string;
let outside: string;

before(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gws-outdir-')));
  ws = path.join(base, 'ws');
  outside = path.join(base, 'autostart');
  await fs.mkdir(ws);
  await fs.mkdir(outside);
});
after(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

const refused = (re: RegExp) => (e: unknown) => isGatewayError(e, 'config') && re.test(e.message);

void test('output folder: the default relative folder inside the workspace is used', async () => {
  assert.equal(
    await outputFolderFor({ value: '', repoValue: undefined, folder: ws, roots: [ws] }),
    path.join(ws, 'videos'),
  );
});

void test('output folder: a repository link `videos -> outside` is refused, whoever set the value', async () => {
  const link = path.join(ws, 'clips');
  await fs.symlink(outside, link);
  try {
    for (const repoValue of [undefined, 'clips']) {
      await assert.rejects(
        outputFolderFor({ value: 'clips', repoValue, folder: ws, roots: [ws] }),
        refused(/leads outside the workspace through a symbolic link/),
      );
    }
    // A folder below the link, not created yet, is caught too (mkdir would create it outside).
    await assert.rejects(
      outputFolderFor({ value: 'clips/new', repoValue: undefined, folder: ws, roots: [ws] }),
      refused(/symbolic link/),
    );
  } finally {
    await fs.unlink(link);
  }
});

void test('output folder: a workspace value that is absolute or climbs out is refused', async () => {
  for (const v of [outside, '../autostart']) {
    await assert.rejects(
      outputFolderFor({ value: v, repoValue: v, folder: ws, roots: [ws] }),
      refused(/workspace setting gatewayStudio\.video\.outputFolder/),
    );
  }
});

void test('output folder: the user setting may name a folder outside the workspace', async () => {
  assert.equal(await outputFolderFor({ value: outside, repoValue: undefined, folder: ws, roots: [ws] }), outside);
});

void test('output folder: relative with no folder open is left to the caller (it asks)', async () => {
  assert.equal(
    await outputFolderFor({ value: 'videos', repoValue: undefined, folder: undefined, roots: [] }),
    undefined,
  );
});
