// Checkpoints in a workspace of 5,000 files (about 20 MB of text): time and storage of one
// answer's checkpoint as built (the prior content of the files it changes), against reading the
// same files (the floor any recording pays), and against the alternative not built: a shadow git
// snapshot of the whole workspace outside it, as Cline does. Prints figures; asserts nothing
// about time.
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CheckpointStore, FolderCheckpointStorage, readDiskText } from '../src/chat/checkpoints/core/checkpoints';

const FILES = 5000;

async function folderBytes(dir: string): Promise<number> {
  let sum = 0;
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    sum += e.isDirectory() ? await folderBytes(p) : (await fs.stat(p)).size;
  }
  return sum;
}

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

async function main(): Promise<void> {
  const tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gs-ckpt-bench-')));
  const ws = path.join(tmp, 'ws');
  try {
    const files: string[] = [];
    let wsBytes = 0;
    for (let i = 0; i < FILES; i++) {
      const rel = path.join(`pkg${i % 50}`, `mod${Math.floor(i / 50) % 10}`, `file${i}.ts`);
      const abs = path.join(ws, rel);
      await fs.mkdir(path.dirname(abs), { recursive: true });
      // 1-8 KB of source-like text per file.
      const lines = 30 + ((i * 37) % 220);
      const text = Array.from(
        { length: lines },
        (_, l) => `export const v${i}_${l} = ${l} * ${i}; // line ${l}\n`,
      ).join('');
      await fs.writeFile(abs, text);
      files.push(abs);
      wsBytes += Buffer.byteLength(text);
    }
    console.log(`workspace: ${FILES} files, ${mb(wsBytes)}`);

    for (const changed of [2, 20, 200]) {
      const picked = files.filter((_, i) => i % Math.floor(FILES / changed) === 0).slice(0, changed);
      // Baseline: reading the files the answer changes.
      let t0 = process.hrtime.bigint();
      const texts: string[] = [];
      for (const f of picked) texts.push(await fs.readFile(f, 'utf8'));
      const readMs = ms(t0);

      const root = path.join(tmp, `store-${changed}`);
      const store = new CheckpointStore(new FolderCheckpointStorage(root));
      t0 = process.hrtime.bigint();
      for (let i = 0; i < picked.length; i++) {
        await store.record({
          conversationId: 'c_bench',
          answerId: 'a_1',
          callId: `call_${i}`,
          absolute: picked[i] ?? '',
          relative: path.relative(ws, picked[i] ?? ''),
          existed: true,
          before: texts[i] ?? '',
          after: `${texts[i] ?? ''}// changed\n`,
        });
      }
      const recordMs = ms(t0);
      t0 = process.hrtime.bigint();
      const plan = await store.plan('c_bench', 'a_1', readDiskText, [{ name: 'ws', path: ws }]);
      const planMs = ms(t0);
      const stored = await folderBytes(root);
      const prior = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
      console.log(
        `checkpoint of an answer changing ${String(changed).padStart(3)} files: record ${recordMs.toFixed(1)} ms ` +
          `(reading them: ${readMs.toFixed(1)} ms, ${(recordMs / Math.max(readMs, 0.001)).toFixed(1)}x), ` +
          `restore plan ${planMs.toFixed(1)} ms (${plan?.files.length ?? 0} files), ` +
          `storage ${kb(stored)} for ${kb(prior)} of prior content`,
      );
    }

    // The alternative not built: a shadow git repository outside the workspace.
    const gitDir = path.join(tmp, 'shadow.git');
    const git = (...args: string[]) =>
      execFileSync('git', [`--git-dir=${gitDir}`, `--work-tree=${ws}`, ...args], {
        stdio: 'pipe',
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 'b',
          GIT_AUTHOR_EMAIL: 'b@b',
          GIT_COMMITTER_NAME: 'b',
          GIT_COMMITTER_EMAIL: 'b@b',
        },
      });
    try {
      execFileSync('git', ['init', '--bare', '-q', gitDir]);
      let t0 = process.hrtime.bigint();
      git('add', '-A');
      git('commit', '-q', '-m', 'checkpoint');
      const firstMs = ms(t0);
      const firstBytes = await folderBytes(gitDir);
      // A later snapshot after an answer changed 20 files.
      for (const f of files.slice(0, 20)) await fs.appendFile(f, '// changed\n');
      t0 = process.hrtime.bigint();
      git('add', '-A');
      git('commit', '-q', '-m', 'checkpoint 2');
      const nextMs = ms(t0);
      console.log(
        `shadow git (not built, for comparison): first snapshot ${firstMs.toFixed(0)} ms, ${mb(firstBytes)}; ` +
          `next after 20 changed files ${nextMs.toFixed(0)} ms, ${mb((await folderBytes(gitDir)) - firstBytes)} more`,
      );
    } catch (e) {
      console.log(`shadow git comparison skipped: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    }
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

void main();
