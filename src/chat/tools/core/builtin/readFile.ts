import { readFileForModel } from '../fs';
import { readGuard } from '../protectedFiles';
import type { Tool } from '../runner';
import { str, int, obj, def, n, later, type BuiltinKit } from './kit';

/** The built-in tool read_file: its definition (what the model is told) and what a call does. */
export function readFile({ host, resolve }: BuiltinKit): Tool {
  return {
    readOnly: true,
    definition: def(
      'read_file',
      'Read a text file of the workspace. Returns up to 2000 lines; use startLine/endLine (1-based, inclusive) for other parts of long files.',
      obj(
        {
          path: str('Path relative to the workspace folder, e.g. "src/index.ts".'),
          startLine: int('First line to read (1-based).'),
          endLine: int('Last line to read (inclusive).'),
        },
        ['path'],
      ),
    ),
    async prepare(a) {
      const checked = await resolve(a['path']);
      // A secret file asks every time, even when read_file is trusted (./protectedFiles).
      const guard = readGuard(checked.relative) ?? readGuard(checked.realRelative);
      return {
        ...(guard ? { guard } : {}),
        ...later(async () => {
          // Checked again when it runs: the file may have become a link out while awaiting approval.
          const file = await resolve(checked.absolute);
          const editorText = host.editorText(file.absolute);
          return readFileForModel(file, {
            ...(n(a['startLine']) !== undefined ? { startLine: n(a['startLine']) } : {}),
            ...(n(a['endLine']) !== undefined ? { endLine: n(a['endLine']) } : {}),
            ...(editorText !== undefined ? { editorText } : {}),
          });
        }),
      };
    },
  };
}
