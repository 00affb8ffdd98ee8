import { applyTextEdit } from '../edit';
import { assertWritableFile } from '../fs';
import { ToolError, type Tool } from '../runner';
import { str, bool, obj, def, s, isSecret, type BuiltinKit } from './kit';

/** The built-in tool edit_file: its definition (what the model is told) and what a call does. */
export function editFile({ resolve, readCurrent, changeCall, blindChangeCall }: BuiltinKit): Tool {
  return {
    readOnly: false,
    preview: 'diff',
    definition: def(
      'edit_file',
      'Replace an exact piece of text in an existing file. oldText must match the file exactly (whitespace included) and only once, unless replaceAll is true. The user sees the change as a diff and must approve it.',
      obj(
        {
          path: str('File relative to the workspace.'),
          oldText: str(
            'The exact text to replace (copy it from read_file, with a few lines of context so it is unique).',
          ),
          newText: str('The replacement text.'),
          replaceAll: bool('Replace every occurrence instead of requiring exactly one.'),
        },
        ['path', 'oldText', 'newText'],
      ),
    ),
    async prepare(a, ctx) {
      const file = await resolve(a['path']);
      await assertWritableFile(file);
      const edit = { oldText: s(a['oldText']), newText: s(a['newText']), replaceAll: a['replaceAll'] === true };
      const missing = () => new ToolError(`The file "${file.relative}" does not exist. Use write_file to create it.`);
      // A secret file is matched only after approval: whether oldText occurs, and how often, would
      // otherwise tell a guessed value apart before the user was asked (./kit, blindChangeCall).
      if (isSecret(file)) {
        if (!file.exists) throw missing();
        return blindChangeCall(file, 'Replace oldText with newText in', (before) => {
          if (before === undefined) throw missing();
          return applyTextEdit(before, file.relative, edit);
        });
      }
      const before = await readCurrent(file);
      if (before === undefined) throw missing();
      const after = applyTextEdit(before, file.relative, edit);
      return changeCall({ callId: ctx.callId, file, kind: 'modify', before, after });
    },
  };
}
