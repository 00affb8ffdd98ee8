// A small workspace on disk for the file tools' tests: sources at two depths, a .git folder,
// node_modules, a binary file and a symbolic link to a folder outside, made once per test file.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before } from 'node:test';
import { resolveWorkspacePath, type WorkspaceRoot } from '../../src/chat/tools/core/paths';

export interface ToolWorkspace {
  /** The workspace folder (its parent also holds `elsewhere/`, where the link leads). */
  readonly ws: string;
  readonly roots: WorkspaceRoot[];
  /** A path checked against the workspace, as the tools resolve it. */
  at(p: string): ReturnType<typeof resolveWorkspacePath>;
}

export function useToolWorkspace(): ToolWorkspace {
  const w = {
    ws: '',
    roots: [] as WorkspaceRoot[],
    at: (p: string) => resolveWorkspacePath(p, w.roots),
  };
  before(async () => {
    const tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gs-fs-')));
    w.ws = path.join(tmp, 'ws');
    await fs.mkdir(path.join(w.ws, 'src', 'deep'), { recursive: true });
    await fs.mkdir(path.join(w.ws, '.git'));
    await fs.mkdir(path.join(w.ws, 'node_modules', 'pkg'), { recursive: true });
    await fs.mkdir(path.join(tmp, 'elsewhere'));
    await fs.writeFile(path.join(tmp, 'elsewhere', 'hidden.ts'), 'const needle = 1;\n');
    await fs.symlink(path.join(tmp, 'elsewhere'), path.join(w.ws, 'linked'));
    await fs.writeFile(
      path.join(w.ws, 'src', 'a.ts'),
      Array.from({ length: 30 }, (_, i) => `line ${i + 1} needle`).join('\n') + '\n',
    );
    await fs.writeFile(path.join(w.ws, 'src', 'deep', 'b.tsx'), 'const needle = 2;\n');
    await fs.writeFile(path.join(w.ws, '.git', 'HEAD'), 'needle\n');
    await fs.writeFile(path.join(w.ws, 'node_modules', 'pkg', 'index.ts'), 'needle\n');
    await fs.writeFile(path.join(w.ws, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]));
    w.roots = [{ name: 'ws', path: w.ws }];
  });
  after(async () => fs.rm(path.dirname(w.ws), { recursive: true, force: true }));
  return w;
}
