import type { ChangeRecorder } from '../../../conversation/core/contracts';
import { summarizeChange } from '../edit';
import { assertWritableFile, looksBinary, MAX_READ_BYTES, readRegularFile } from '../fs';
import type { FileChange, ToolHost } from '../host';
import { isSecretFile, writeGuard } from '../protectedFiles';
import { resolveWorkspacePath, type ResolvedPath } from '../paths';
import { ToolError, type PreparedCall, type Tool, type ToolCallContext, type ToolResult } from '../runner';
import { workspaceIgnore } from '../ignore';
import type { SkillLibrary } from './loadSkill';
import type { AskUserBroker } from './askUser';

/**
 * What the built-in tools (one file each beside this one, assembled by ../builtins.ts) share,
 * written against a small {@link ToolHost} so the same code runs in VS Code
 * (editor buffers, diff view, undoable WorkspaceEdit, terminal) and in plain-node tests (disk).
 *
 * Safety rules, enforced here whatever the host: every path goes through
 * `resolveWorkspacePath` (workspace folders only; no `..` escape, outside absolute path,
 * symlink out, `.git/` or `.vscode/`); changing tools compute their change before approval and
 * re-check the file when applying, so what runs is what the user saw.
 */

export const READ_ONLY_TOOL_NAMES = [
  'read_file',
  'list_directory',
  'find_files',
  'search_text',
  'get_selection',
  'get_diagnostics',
  'load_skill',
  'ask_user',
] as const;
export const CHANGING_TOOL_NAMES = ['write_file', 'edit_file', 'run_command'] as const;
export type BuiltinToolName = (typeof READ_ONLY_TOOL_NAMES)[number] | (typeof CHANGING_TOOL_NAMES)[number];

export const str = (description: string) => ({ type: 'string', description });
export const int = (description: string, minimum = 1) => ({ type: 'integer', minimum, description });
export const bool = (description: string) => ({ type: 'boolean', description });
export const obj = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});
export const def = (
  name: BuiltinToolName,
  description: string,
  parameters: Record<string, unknown>,
): Tool['definition'] => ({
  type: 'function',
  function: { name, description, parameters },
});

export const s = (v: unknown): string => (typeof v === 'string' ? v : '');
export const n = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
/** Whether a tool must not read `file` before approval (blindChangeCall below). */
export const isSecret = (file: ResolvedPath): boolean => isSecretFile(file.relative) || isSecretFile(file.realRelative);

/**
 * A read-only call whose work happens when it runs, after approval: `prepare` only checks the
 * arguments, so nothing is read for a call the user then denies.
 */
export const later = (work: (ctx: ToolCallContext) => Promise<string>): PreparedCall => ({
  run: async (ctx) => ({ content: await work(ctx) }),
});

export interface BuiltinToolOptions {
  /** Records each file's prior content before write_file or edit_file applies a change. */
  recorder?: ChangeRecorder;
  /** The skills `load_skill` reads; without it the tool is not offered. */
  skills?: SkillLibrary;
  /** Where ask_user's questions wait for the chat's answer; without it the tool is not offered. */
  ask?: AskUserBroker;
}

/** What every built-in tool is written against: the host, and the checks all of them share. */
export interface BuiltinKit {
  host: ToolHost;
  /** A path the model gave, checked against the workspace (see ../paths). */
  resolve(p: unknown): Promise<ResolvedPath>;
  /** Made per call: settings and `.gitignore` files may change between calls. */
  ignore(): ReturnType<typeof workspaceIgnore>;
  /** A file's text as the user has it (an open editor's buffer first). */
  readCurrent(file: ResolvedPath): Promise<string | undefined>;
  /** The shared part of write_file and edit_file: show, re-check, apply, report. */
  changeCall(change: FileChange): PreparedCall;
  /**
   * The same for a secret file, read only after approval: `change` gets the content then (or
   * undefined when there is no file) and returns the new content, or throws a ToolError.
   */
  blindChangeCall(file: ResolvedPath, what: string, change: (before: string | undefined) => string): PreparedCall;
}

/** A file's text as the user has it: an open editor's buffer first, else the file if it is text. */
async function readCurrentText(host: ToolHost, file: ResolvedPath): Promise<string | undefined> {
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
}

export function makeKit(host: ToolHost, opts: BuiltinToolOptions = {}): BuiltinKit {
  const resolve = (p: unknown) => resolveWorkspacePath(p, host.roots());
  /** Made per call: settings and `.gitignore` files may change between calls. */
  const ignore = () => workspaceIgnore(host.roots(), (r) => host.excludePatterns?.(r) ?? []);

  const readCurrent = (file: ResolvedPath) => readCurrentText(host, file);

  /** After approval: re-check the target, record the prior content, apply, report. */
  const apply = async (change: FileChange, ctx: ToolCallContext): Promise<ToolResult> => {
    const lines = change.after.split('\n').length;
    const diff = summarizeChange(change.before, change.after);
    // Checked again at the last moment: a hard link made while the user looked at the diff.
    await assertWritableFile(change.file);
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
        return apply({ ...change, file: again }, ctx);
      },
    };
  };

  /**
   * write_file and edit_file on a secret file: nothing is read before the user allows the call,
   * so no answer before approval depends on the content (a found or missing oldText, "already has
   * this content" would each tell a guessed value apart). No diff opens either: an open document
   * is visible to every extension. The card shows the requested change; the read, the match and
   * the write happen only in `run`.
   */
  const blindChangeCall = (
    file: ResolvedPath,
    what: string,
    change: (before: string | undefined) => string,
  ): PreparedCall => ({
    guard: writeGuard(file.relative) ?? writeGuard(file.realRelative) ?? 'secrets',
    summary: `${what} ${file.relative}. This file may hold secrets, so it is not read before you allow this call and no diff is shown: the change in the arguments is applied to the file as it is then.`,
    run: async (ctx) => {
      const again = await resolve(file.absolute);
      const before = await readCurrent(again);
      const after = change(before);
      return apply(
        {
          callId: ctx.callId,
          file: again,
          kind: before === undefined ? 'create' : 'modify',
          before: before ?? '',
          after,
        },
        ctx,
      );
    },
  });
  return { host, resolve, ignore, readCurrent, changeCall, blindChangeCall };
}
