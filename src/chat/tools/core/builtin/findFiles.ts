import { compileGlob } from '../glob';
import { findFilesForModel } from '../search';
import type { Tool } from '../runner';
import { str, int, obj, def, s, n, later, type BuiltinKit } from './kit';

/** The built-in tool find_files: its definition (what the model is told) and what a call does. */
export function findFiles({ host, ignore }: BuiltinKit): Tool {
  return {
    readOnly: true,
    definition: def(
      'find_files',
      'Find workspace files by glob, e.g. "src/**/*.ts" or "*.json" (a pattern without "/" matches at any depth). Skips .git, .vscode, node_modules and what .gitignore or files.exclude hide.',
      obj({ pattern: str('Glob pattern.'), maxResults: int('At most this many paths (default 200).') }, ['pattern']),
    ),
    prepare(a) {
      const pattern = s(a['pattern']);
      compileGlob(pattern);
      return Promise.resolve(
        later((ctx) =>
          findFilesForModel(host.roots(), pattern, Math.min(n(a['maxResults']) ?? 200, 1000), ctx.signal, ignore()),
        ),
      );
    },
  };
}
