import { assertWritableFile } from '../fs';
import { ToolError, type Tool } from '../runner';
import { str, obj, def, s, isSecret, type BuiltinKit } from './kit';

/** Largest content write_file accepts (the diff view and the model both struggle beyond it). */
export const MAX_WRITE_CHARS = 1_000_000;

/** The built-in tool write_file: its definition (what the model is told) and what a call does. */
export function writeFile({ resolve, readCurrent, changeCall, blindChangeCall }: BuiltinKit): Tool {
  return {
    readOnly: false,
    preview: 'diff',
    definition: def(
      'write_file',
      'Create a file, or replace the whole content of an existing one. The user sees the change as a diff and must approve it. Prefer edit_file for small changes to existing files.',
      obj({ path: str('File relative to the workspace.'), content: str('The complete new content of the file.') }, [
        'path',
        'content',
      ]),
    ),
    async prepare(a, ctx) {
      const content = s(a['content']);
      if (content.length > MAX_WRITE_CHARS)
        throw new ToolError(`The content is ${content.length} characters, more than the ${MAX_WRITE_CHARS} limit.`);
      const file = await resolve(a['path']);
      if (file.relative === '') throw new ToolError('The path is the workspace folder itself; give a file path.');
      await assertWritableFile(file);
      const same = () => new ToolError(`"${file.relative}" already has exactly this content; nothing to change.`);
      // A secret file is compared only after approval: "already has exactly this content" would
      // otherwise confirm a guessed value before the user was asked (./kit, blindChangeCall).
      if (isSecret(file)) {
        return blindChangeCall(file, `Write ${content.split('\n').length} lines over the whole of`, (before) => {
          if (before === content) throw same();
          return content;
        });
      }
      const before = await readCurrent(file);
      if (before === content) throw same();
      return changeCall({
        callId: ctx.callId,
        file,
        kind: before === undefined ? 'create' : 'modify',
        before: before ?? '',
        after: content,
      });
    },
  };
}
