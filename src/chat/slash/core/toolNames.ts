/**
 * A prompt file's `tools` list, in the names of the tool it was written for (VS Code's built-in
 * tools and tool sets such as `search/codebase` or `edit`, Claude Code's `Read` or `Bash`), read
 * as our tools. The list can only narrow what the user turned on: {@link narrowTools} keeps the
 * tools that are both named and enabled, so a repository's prompt file never offers a tool the
 * user turned off. A name we do not know is ignored (VS Code: "If a given tool is not available
 * when running the prompt, it is ignored") and reported.
 */

/** Our built-in tools each outside name stands for (lower case; a tool set names several). */
const OUTSIDE_NAMES: Record<string, readonly string[]> = {
  // VS Code's tool sets (`#read`, `#search`, `#edit`, `#execute`) and their tools.
  read: ['read_file', 'get_diagnostics', 'get_selection'],
  readfile: ['read_file'],
  problems: ['get_diagnostics'],
  terminalselection: ['get_selection'],
  selection: ['get_selection'],
  search: ['find_files', 'search_text', 'list_directory'],
  codebase: ['search_text', 'find_files'],
  filesearch: ['find_files'],
  textsearch: ['search_text'],
  listdirectory: ['list_directory'],
  edit: ['write_file', 'edit_file'],
  editfiles: ['write_file', 'edit_file'],
  createfile: ['write_file'],
  execute: ['run_command'],
  runincommandline: ['run_command'],
  runinterminal: ['run_command'],
  runcommands: ['run_command'],
  // Claude Code's tool names.
  bash: ['run_command'],
  glob: ['find_files'],
  grep: ['search_text'],
  ls: ['list_directory'],
  write: ['write_file'],
  multiedit: ['edit_file'],
};

/** The tools a written name stands for: ours by name, an outside name mapped, `set/tool` by its tool. */
export function toolsNamed(written: string, available: readonly string[]): string[] {
  const name = written.trim().replace(/^#(?:tool:)?/, '');
  if (available.includes(name)) return [name];
  // `server/*`: every tool of an MCP server, whose wire names we list as `server_tool` or `ext_…`.
  const server = /^([^/]+)\/\*$/.exec(name);
  if (server) {
    const prefix = server[1]!.replace(/[^A-Za-z0-9_-]/g, '_');
    return available.filter((t) => t.startsWith(`${prefix}_`) || t.startsWith(`ext_${prefix}_`));
  }
  const lower = name.toLowerCase();
  const mapped = OUTSIDE_NAMES[lower] ?? OUTSIDE_NAMES[lower.split('/').pop() ?? ''];
  // Claude Code's `Bash(git *)` style: the tool before the parenthesis.
  const claude = /^([A-Za-z]+)\(/.exec(name);
  const viaClaude = claude ? OUTSIDE_NAMES[claude[1]!.toLowerCase()] : undefined;
  return (mapped ?? viaClaude ?? []).filter((t) => available.includes(t));
}

/**
 * The tools a request may offer: those `requested` names that the user has `enabled`, in the
 * user's order. Never more than `enabled`; `unknown` lists the names that matched none of them.
 */
export function narrowTools(
  requested: readonly string[],
  enabled: readonly string[],
  known: readonly string[] = enabled,
): { tools: string[]; unknown: string[] } {
  const picked = new Set<string>();
  const unknown: string[] = [];
  for (const r of requested) {
    const found = toolsNamed(r, known);
    if (found.length === 0) unknown.push(r);
    for (const t of found) picked.add(t);
  }
  return { tools: enabled.filter((t) => picked.has(t)), unknown };
}
