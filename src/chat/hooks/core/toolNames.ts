/**
 * Our tools under the names and fields Claude Code's hooks expect, and back. A matcher written for
 * Claude Code (`Bash`, `Edit|Write`, `Read`) must find our run_command, edit_file, write_file,
 * read_file, and a script reading `tool_input.file_path` or `tool_input.command` must find its
 * value, so a `.claude/settings.json` works here unchanged:
 *
 * | ours | Claude Code | fields (ours → Claude's) |
 * | --- | --- | --- |
 * | run_command | Bash | command → command (cwd kept) |
 * | read_file | Read | path → file_path (absolute), startLine → offset, endLine → limit (a line count) |
 * | write_file | Write | path → file_path, content → content |
 * | edit_file | Edit | path → file_path, oldText → old_string, newText → new_string, replaceAll → replace_all |
 * | find_files | Glob | pattern → pattern |
 * | search_text | Grep | query → pattern, include → glob |
 * | list_directory | LS | path → path |
 *
 * get_selection, get_diagnostics and other extensions' tools have no Claude Code name and are
 * matched by their own. A matcher matches either name, whatever format its file is in.
 */
import * as path from 'node:path';

/** Claude Code's name for each of our tools that has one. */
export const CLAUDE_TOOL_NAMES: Readonly<Record<string, string>> = {
  run_command: 'Bash',
  read_file: 'Read',
  write_file: 'Write',
  edit_file: 'Edit',
  find_files: 'Glob',
  search_text: 'Grep',
  list_directory: 'LS',
};

/** Our field → Claude's, per tool (fields not listed keep their name). */
const FIELDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  read_file: { path: 'file_path', startLine: 'offset' },
  write_file: { path: 'file_path' },
  edit_file: { path: 'file_path', oldText: 'old_string', newText: 'new_string', replaceAll: 'replace_all' },
  search_text: { query: 'pattern', include: 'glob' },
};

/** The names a matcher is tested against for one of our tools. */
export function matchNames(tool: string): string[] {
  const claude = CLAUDE_TOOL_NAMES[tool];
  return claude ? [tool, claude] : [tool];
}

/** The tool's name as a hook file of `flavor` expects it on stdin. */
export function hookToolName(tool: string, flavor: 'claude' | 'vscode'): string {
  return flavor === 'claude' ? (CLAUDE_TOOL_NAMES[tool] ?? tool) : tool;
}

/** Our arguments as Claude Code's `tool_input` (file paths absolute, as Claude Code sends them). */
export function toClaudeInput(tool: string, args: Record<string, unknown>, root: string): Record<string, unknown> {
  const map = FIELDS[tool] ?? {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    const name = map[k] ?? k;
    out[name] = name === 'file_path' && typeof v === 'string' ? path.resolve(root, v) : v;
  }
  if (tool === 'read_file') {
    // Claude's Read takes a line count where ours takes the last line.
    const start = typeof args['startLine'] === 'number' ? args['startLine'] : 1;
    delete out['endLine'];
    if (typeof args['endLine'] === 'number') out['limit'] = args['endLine'] - start + 1;
  }
  return out;
}

/** A hook's `updatedInput` in Claude Code's fields, as our arguments (validated again by the runner). */
export function fromClaudeInput(tool: string, input: Record<string, unknown>): Record<string, unknown> {
  const map = FIELDS[tool] ?? {};
  const back: Record<string, string> = {};
  for (const [ours, theirs] of Object.entries(map)) back[theirs] = ours;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    if (tool === 'read_file' && k === 'limit') continue;
    out[back[k] ?? k] = v;
  }
  if (tool === 'read_file' && typeof input['limit'] === 'number') {
    const start = typeof input['offset'] === 'number' ? input['offset'] : 1;
    out['endLine'] = start + input['limit'] - 1;
  }
  return out;
}
