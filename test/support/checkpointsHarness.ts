// The checkpoint tests' workspace: the real built-in tools over a temporary folder, recording
// into a FolderCheckpointStorage in another (see test/unit/chat/checkpoints/core/).
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach } from 'node:test';
import {
  CheckpointStore,
  FolderCheckpointStorage,
  readDiskText,
  type CheckpointStoreOptions,
} from '../../src/chat/checkpoints/core/checkpoints';
import { builtinTools } from '../../src/chat/tools/core/builtins';
import { ToolRunner } from '../../src/chat/tools/core/runner';
import type { ToolCardUpdate } from '../../src/chat/tools/core/runner';
import { nodeToolHost } from './nodeToolHost';

/*
 * Checkpoints through the real built-in tools: write_file and edit_file over a temporary
 * workspace record into a FolderCheckpointStorage in another temporary folder; plans are made
 * from the disk and restores applied to it.
 */

/** The temporary folders of the running test: its workspace and the checkpoint storage beside it. */
export const dirs = { tmp: '', ws: '', store: '' };

/** Fresh folders for every test of the file that calls it. */
export function useCheckpointDirs(): void {
  beforeEach(async () => {
    dirs.tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gs-ckpt-')));
    dirs.ws = path.join(dirs.tmp, 'ws');
    dirs.store = path.join(dirs.tmp, 'store');
    await fs.mkdir(path.join(dirs.ws, 'src'), { recursive: true });
    await fs.writeFile(path.join(dirs.ws, 'src', 'a.ts'), 'export const a = 1;\n');
    await fs.writeFile(path.join(dirs.ws, 'src', 'b.ts'), 'export const b = 2;\n');
  });
  afterEach(async () => {
    await fs.rm(dirs.tmp, { recursive: true, force: true });
  });
}

export function setup(opts: CheckpointStoreOptions = {}) {
  const checkpoints = new CheckpointStore(new FolderCheckpointStorage(dirs.store), opts);
  const cards: ToolCardUpdate[] = [];
  const tools = builtinTools(nodeToolHost([{ name: 'ws', path: dirs.ws }]), { recorder: checkpoints });
  const runner = new ToolRunner({
    tools: () => tools,
    approve: () => Promise.resolve('allow'),
    trust: { isTrusted: () => false, trust: () => undefined },
    onUpdate: (u) => cards.push(u),
  });
  let n = 0;
  const answer = async (answerId: string, ...calls: [string, Record<string, unknown>][]) => {
    const results = await runner.execute(
      calls.map(([name, args]) => ({
        id: `call_${++n}`,
        type: 'function' as const,
        function: { name, arguments: JSON.stringify(args) },
      })),
      { signal: new AbortController().signal, conversationId: 'c1', answerId },
    );
    for (const r of results) assert.match(r.content, /^(Created|Edited)/, r.content);
  };
  return { checkpoints, answer, cards };
}

export const ROOTS = () => [{ name: 'ws', path: dirs.ws }];
export const read = (rel: string) => readDiskText(path.join(dirs.ws, rel));
export const write = (rel: string, text: string) => fs.writeFile(path.join(dirs.ws, rel), text);

/** Rewrites the stored index of c1 (a hostile or corrupted checkpoint storage), then reopens the dirs.store. */
export async function editIndex(
  edit: (files: { absolute: string; relative: string }[]) => void,
): Promise<CheckpointStore> {
  const file = path.join(dirs.store, 'c1', 'index.json');
  const index = JSON.parse(await fs.readFile(file, 'utf8')) as {
    answers: { files: { absolute: string; relative: string }[] }[];
  };
  edit(index.answers.flatMap((a) => a.files));
  await fs.writeFile(file, JSON.stringify(index));
  return new CheckpointStore(new FolderCheckpointStorage(dirs.store));
}
