import { promises as fs } from 'node:fs';
import { describeCommandResult } from './command';
import type { ChangeRecorder } from '../../checkpoints/core/checkpoints';
import { applyTextEdit, summarizeChange } from './edit';
import {
  assertWritableFile,
  listDirectoryForModel,
  looksBinary,
  MAX_READ_BYTES,
  readFileForModel,
  readRegularFile,
} from './fs';
import { compileGlob } from './glob';
import type { FileChange, ToolHost } from './host';
import { isSecretFile, readGuard, writeGuard } from './protectedFiles';
import { resolveWorkspacePath, type ResolvedPath } from './paths';
import { ToolError, type PreparedCall, type Tool, type ToolCallContext } from './runner';
import { diagnosticsText } from './diagnostics';
import { workspaceIgnore } from './ignore';
import { findFilesForModel, searchPattern, searchTextForModel } from './search';

/**
 * The built-in tools, written against a small {@link ToolHost} so the same code runs in VS Code
 * (editor buffers, diff view, undoable WorkspaceEdit, terminal) and in plain-node tests (disk).
 *
 * Safety rules, enforced here whatever the host: every path goes through
 * `resolveWorkspacePath` (workspace folders only; no `..` escape, outside absolute path,
 * symlink out, `.git/` or `.vscode/`); changing tools compute their change before approval and
 * re-check the file when applying, so what runs is what the user saw.
 */

/** Largest content write_file accepts (the diff view and the model both struggle beyond it). */
export const MAX_WRITE_CHARS = 1_000_000;
/** Command output kept for the model. */
export const MAX_COMMAND_OUTPUT_BYTES = 64 * 1024;

export const READ_ONLY_TOOL_NAMES = [
  'read_file',
  'list_directory',
  'find_files',
  'search_text',
  'get_selection',
  'get_diagnostics',
] as const;
export const CHANGING_TOOL_NAMES = ['write_file', 'edit_file', 'run_command'] as const;
export type BuiltinToolName = (typeof READ_ONLY_TOOL_NAMES)[number] | (typeof CHANGING_TOOL_NAMES)[number];

const str = (description: string) => ({ type: 'string', description });
const int = (description: string, minimum = 1) => ({ type: 'integer', minimum, description });
const bool = (description: string) => ({ type: 'boolean', description });
const obj = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});
const def = (name: BuiltinToolName, description: string, parameters: Record<string, unknown>): Tool['definition'] => ({
  type: 'function',
  function: { name, description, parameters },
});

const s = (v: unknown): string => (typeof v === 'string' ? v : '');
const n = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
/**
 * A read-only call whose work happens when it runs, after approval: `prepare` only checks the
 * arguments, so nothing is read for a call the user then denies.
 */
const later = (work: (ctx: ToolCallContext) => Promise<string>): PreparedCall => ({
  run: async (ctx) => ({ content: await work(ctx) }),
});

/** Line the run_command approval shows: checkpoints record file tools only (see ./checkpoints). */
export const COMMAND_NOT_RESTORABLE =
  'A command\'s effects are not recorded in checkpoints: "Restore files to before this answer" cannot undo them.';

export interface BuiltinToolOptions {
  /** Records each file's prior content before write_file or edit_file applies a change. */
  recorder?: ChangeRecorder;
}

/** Every built-in tool over `host`. */
export function builtinTools(host: ToolHost, opts: BuiltinToolOptions = {}): Tool[] {
  const resolve = (p: unknown) => resolveWorkspacePath(p, host.roots());
  /** Made per call: settings and `.gitignore` files may change between calls. */
  const ignore = () => workspaceIgnore(host.roots(), (r) => host.excludePatterns?.(r) ?? []);

  const readCurrent = async (file: ResolvedPath): Promise<string | undefined> => {
    const open = host.editorText(file.absolute);
    if (open !== undefined) return open;
    if (!file.exists) return undefined;
    const buf = await readRegularFile(file, (size) =>
      size > MAX_READ_BYTES
        ? `"${file.relative}" is larger than ${MAX_READ_BYTES / 1024 / 1024} MB and cannot be edited by a tool.`
        : undefined,
    );
    if (looksBinary(buf)) throw new ToolError(`"${file.relative}" is a binary file and cannot be edited as text.`);
    return buf.toString('utf8');
  };

  /** The shared part of write_file and edit_file: show, re-check, apply, report. */
  const changeCall = (change: FileChange): PreparedCall => {
    const lines = change.after.split('\n').length;
    const diff = summarizeChange(change.before, change.after);
    const guard = writeGuard(change.file.relative) ?? writeGuard(change.file.realRelative);
    return {
      ...(guard ? { guard } : {}),
      summary: `${change.kind === 'create' ? 'Create' : 'Change'} ${change.file.relative} (${lines} lines)\n${diff}`,
      show: host.showChange ? () => host.showChange?.(change) ?? Promise.resolve() : undefined,
      dispose: () => host.closeChange?.(change),
      run: async (ctx) => {
        // The file may have changed while the user looked at the diff: never apply over that.
        const again = await resolve(change.file.absolute);
        const now = await readCurrent(again);
        if ((now ?? '') !== change.before || (now === undefined) !== (change.kind === 'create')) {
          throw new ToolError(
            `"${change.file.relative}" changed while the edit waited for approval, so it was not applied. Read the file again and propose the change anew.`,
          );
        }
        // Checked again at the last moment: a hard link made while the user looked at the diff.
        await assertWritableFile(again);
        // Recorded before anything is written, so the checkpoint holds the content the user had.
        const unrecorded = await opts.recorder?.record({
          conversationId: ctx.conversationId,
          answerId: ctx.answerId ?? ctx.callId,
          callId: ctx.callId,
          absolute: change.file.absolute,
          relative: change.file.relative,
          existed: change.kind === 'modify',
          before: change.before,
          after: change.after,
        });
        const note = await host.applyChange(change);
        const verb = change.kind === 'create' ? 'Created' : 'Edited';
        return {
          content: `${verb} ${change.file.relative} (${lines} lines).${note ? ` ${note}` : ''} Change:\n${diff}`,
          // The card says when a change cannot be restored, rather than the Restore button failing later.
          preview: unrecorded ? `${unrecorded}\n${diff}` : diff,
        };
      },
    };
  };

  const tools: Tool[] = [
    {
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
    },
    {
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
    },
    {
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
    },
    {
      readOnly: true,
      definition: def(
        'search_text',
        'Search the text of workspace files (not those .gitignore or files.exclude hide); returns "path:line: text" per matching line.',
        obj(
          {
            query: str('Text to find (or a regular expression with isRegex).'),
            isRegex: bool('Treat query as a JavaScript regular expression.'),
            caseSensitive: bool('Match letter case exactly (default false).'),
            include: str('Glob limiting the files searched, e.g. "src/**/*.ts".'),
            maxResults: int('At most this many matching lines (default 100).'),
          },
          ['query'],
        ),
      ),
      prepare(a) {
        const include = s(a['include']);
        const query = {
          query: s(a['query']),
          isRegex: a['isRegex'] === true,
          caseSensitive: a['caseSensitive'] === true,
        };
        searchPattern(query);
        if (include) compileGlob(include);
        return Promise.resolve(
          later((ctx) =>
            searchTextForModel(host.roots(), {
              ...query,
              ...(include ? { include } : {}),
              maxResults: Math.min(n(a['maxResults']) ?? 100, 500),
              signal: ctx.signal,
              ignore: ignore(),
            }),
          ),
        );
      },
    },
    {
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
    },
    {
      readOnly: true,
      definition: def(
        'get_diagnostics',
        'Get the errors and warnings the editor reports, for one file or (without path) the whole workspace.',
        obj({ path: str('File relative to the workspace; omit for every file.') }),
      ),
      async prepare(a) {
        const p = s(a['path']).trim();
        const file = p ? await resolve(p) : undefined;
        return later(() => diagnosticsText(host, file));
      },
    },
    {
      readOnly: false,
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
        const before = await readCurrent(file);
        if (before === content)
          throw new ToolError(`"${file.relative}" already has exactly this content; nothing to change.`);
        return changeCall({
          callId: ctx.callId,
          file,
          kind: before === undefined ? 'create' : 'modify',
          before: before ?? '',
          after: content,
        });
      },
    },
    {
      readOnly: false,
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
        const before = await readCurrent(file);
        if (before === undefined)
          throw new ToolError(`The file "${file.relative}" does not exist. Use write_file to create it.`);
        const after = applyTextEdit(before, file.relative, {
          oldText: s(a['oldText']),
          newText: s(a['newText']),
          replaceAll: a['replaceAll'] === true,
        });
        return changeCall({ callId: ctx.callId, file, kind: 'modify', before, after });
      },
    },
    {
      readOnly: false,
      definition: def(
        'run_command',
        'Run a shell command in a workspace folder and return its output (cut at 64 KB) and exit code. The user sees the full command and must approve it. The command is stopped after the time limit.',
        obj(
          {
            command: str('The command line, run by the system shell.'),
            cwd: str('Folder relative to the workspace to run in (default: the workspace folder).'),
          },
          ['command'],
        ),
      ),
      async prepare(a) {
        const command = s(a['command']);
        if (command.trim() === '') throw new ToolError('The command is empty.');
        const cwdArg = s(a['cwd']).trim();
        const dir = await resolve(cwdArg === '' ? '.' : cwdArg);
        if (!dir.exists || !(await fs.stat(dir.absolute)).isDirectory())
          throw new ToolError(`The folder "${cwdArg}" does not exist.`);
        const timeoutMs = host.commandTimeoutMs();
        return {
          summary: `Run in ${dir.relative || dir.root.name}:\n${command}\n\n${COMMAND_NOT_RESTORABLE}`,
          run: async (ctx) => {
            // The folder may have become a link out of the workspace while awaiting approval.
            const cwd = await resolve(dir.absolute);
            const r = await host.runCommand(command, {
              cwd: cwd.absolute,
              timeoutMs,
              maxOutputBytes: MAX_COMMAND_OUTPUT_BYTES,
              signal: ctx.signal,
            });
            return {
              content: describeCommandResult(command, r, timeoutMs),
              preview: r.output.slice(-4000) || '(no output)',
            };
          },
        };
      },
    },
  ];
  return tools;
}
