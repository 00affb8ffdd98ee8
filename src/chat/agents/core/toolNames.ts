/**
 * The one table from the tool names agent files are written with onto our tools: VS Code's tools
 * and tool sets (`read`, `search`, `edit`, `execute`, older `runCommands`, `search/codebase`, …),
 * Claude Code's (`Read`, `Edit`, `Write`, `Bash`, `Grep`, `Glob`, …) and our own names. A name
 * with no tool here is reported (a line in the agent's source entry), never fatal: VS Code too
 * ignores a tool it does not have.
 */
import * as l10n from '@vscode/l10n';
import { CHANGING_TOOL_NAMES, READ_ONLY_TOOL_NAMES } from '../../tools/core/builtins';

const READ = ['read_file', 'get_diagnostics', 'get_selection'];
const SEARCH = ['find_files', 'search_text', 'list_directory'];
const EDIT = ['edit_file', 'write_file'];
const RUN = ['run_command'];

/** VS Code's names (tool sets and `set/tool`), matched without case. */
const VSCODE: Record<string, readonly string[]> = {
  read: READ,
  'read/readfile': ['read_file'],
  readfile: ['read_file'],
  'read/problems': ['get_diagnostics'],
  problems: ['get_diagnostics'],
  selection: ['get_selection'],
  search: SEARCH,
  'search/codebase': ['search_text', 'find_files'],
  codebase: ['search_text', 'find_files'],
  'search/filesearch': ['find_files'],
  filesearch: ['find_files'],
  'search/listdirectory': ['list_directory'],
  listdirectory: ['list_directory'],
  'search/textsearch': ['search_text'],
  textsearch: ['search_text'],
  'search/usages': ['search_text'],
  usages: ['search_text'],
  edit: EDIT,
  'edit/editfiles': EDIT,
  editfiles: EDIT,
  'edit/createfile': ['write_file'],
  createfile: ['write_file'],
  execute: RUN,
  'execute/runinterminal': RUN,
  runinterminal: RUN,
  runcommands: RUN,
  terminal: RUN,
  agent: ['run_subagent'],
  'agent/runsubagent': ['run_subagent'],
  runsubagent: ['run_subagent'],
};

/** Claude Code's names, as its documentation spells them. */
const CLAUDE: Record<string, readonly string[]> = {
  Read: ['read_file'],
  Edit: ['edit_file'],
  MultiEdit: ['edit_file'],
  Write: ['write_file'],
  Bash: RUN,
  Grep: ['search_text'],
  Glob: ['find_files'],
  LS: ['list_directory'],
  Task: ['run_subagent'],
  Agent: ['run_subagent'],
};

/** Documented names of tools Gateway Studio does not have: said so, rather than "unknown". */
const NOT_HERE = new Set([
  'web',
  'web/fetch',
  'fetch',
  'websearch',
  'webfetch',
  'todo',
  'todos',
  'todowrite',
  'search/changes',
  'changes',
  'githubrepo',
  'read/terminallastcommand',
  'terminallastcommand',
  'notebookedit',
  'vscode',
  'new',
]);

const OURS = new Set<string>([...READ_ONLY_TOOL_NAMES, ...CHANGING_TOOL_NAMES, 'run_subagent']);

export interface MappedTools {
  /** Our tool names, each once, in table order. */
  readonly names: string[];
  /** Names that map to nothing of ours (unknown, or a documented tool we do not have). */
  readonly unmapped: { readonly name: string; readonly why: 'unknown' | 'notHere' }[];
  /** Notes on names that map with a caveat (a Bash pattern is not enforced). */
  readonly notes: string[];
}

/**
 * Maps an agent file's tool names. `extra` are other tools offered now (another feature's, other
 * extensions'), accepted under their own names.
 */
export function mapToolNames(names: readonly string[], extra: ReadonlySet<string> = new Set()): MappedTools {
  const out = new Set<string>();
  const unmapped: MappedTools['unmapped'][number][] = [];
  const notes: string[] = [];
  for (const raw of names) {
    const name = raw.trim().replace(/^#(tool:)?/, '');
    if (!name) continue;
    // Claude's `Bash(npm test:*)` narrows the commands; the pattern is not ours to enforce.
    const pattern = /^(\w+)\((.*)\)$/.exec(name);
    const base = pattern?.[1] ?? name;
    const mapped = lookUp(base, extra);
    if (mapped) {
      for (const m of mapped) out.add(m);
      if (pattern)
        notes.push(
          l10n.t('{0}: the pattern in brackets is not enforced here; {1} asks as usual', name, mapped.join(', ')),
        );
    } else unmapped.push({ name, why: NOT_HERE.has(base.toLowerCase()) ? 'notHere' : 'unknown' });
  }
  return { names: [...out], unmapped, notes };
}

function lookUp(name: string, extra: ReadonlySet<string>): readonly string[] | undefined {
  if (OURS.has(name) || extra.has(name)) return [name];
  if (Object.hasOwn(CLAUDE, name)) return CLAUDE[name];
  const lower = name.toLowerCase();
  if (Object.hasOwn(VSCODE, lower)) return VSCODE[lower];
  // A Claude name written in another case (`bash`, `grep`).
  const claude = Object.keys(CLAUDE).find((k) => k.toLowerCase() === lower);
  return claude ? CLAUDE[claude] : undefined;
}

/** The line an unmapped name gets in the agent's source entry. */
export function unmappedText(u: MappedTools['unmapped'][number]): string {
  return u.why === 'notHere'
    ? l10n.t('Tool "{0}" is not available in Gateway Studio; the agent runs without it.', u.name)
    : l10n.t('Unknown tool "{0}"; the agent runs without it.', u.name);
}
