import { listDirectoryForModel } from '../fs';
import type { Tool } from '../runner';
import { str, obj, def, s, later, type BuiltinKit } from './kit';

/** The built-in tool list_directory: its definition (what the model is told) and what a call does. */
export function listDirectory({ resolve, ignore }: BuiltinKit): Tool {
  return {
    readOnly: true,
    definition: def(
      'list_directory',
      'List the files and folders in a workspace folder (folders end with "/").',
      obj({ path: str('Folder relative to the workspace; "." or omitted for the top.') }),
    ),
    async prepare(a) {
      const p = s(a['path']).trim();
      const checked = await resolve(p === '' ? '.' : p);
      return later(async () => listDirectoryForModel(await resolve(checked.absolute), 500, ignore()));
    },
  };
}
