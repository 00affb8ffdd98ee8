import { isSecretFile } from '../protectedFiles';
import type { Tool } from '../runner';
import { obj, def, later, type BuiltinKit } from './kit';

/** The built-in tool get_selection: its definition (what the model is told) and what a call does. */
export function getSelection({ host, resolve }: BuiltinKit): Tool {
  return {
    readOnly: true,
    definition: def(
      'get_selection',
      "Get the text selected in the user's active editor, with its file and line numbers.",
      obj({}),
    ),
    prepare() {
      // Read when it runs: the user may change the selection while deciding.
      return Promise.resolve(
        later(async () => {
          const sel = host.selection?.();
          if (!sel) return 'No editor is active, so there is no selection.';
          if (sel.absolute !== undefined) {
            const file = await resolve(sel.absolute);
            // get_selection may be trusted; a secret is shared only through read_file, which asks.
            if (isSecretFile(file.relative) || isSecretFile(file.realRelative))
              return `The active editor is ${sel.label}, a file that may hold secrets, so its selection is not shared. If it is needed, read_file asks the user for it.`;
          }
          if (sel.text === '')
            return `The active editor is ${sel.label} (cursor on line ${sel.startLine}); nothing is selected.`;
          return `Selection in ${sel.label}, lines ${sel.startLine}-${sel.endLine} (${sel.language}):\n${sel.text}`;
        }),
      );
    },
  };
}
