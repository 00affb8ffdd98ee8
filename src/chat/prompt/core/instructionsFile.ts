/**
 * One scoped instructions file read from its frontmatter: `.instructions.md` (VS Code and GitHub:
 * `name`, `description`, `applyTo`, `excludeAgent`) and Claude's `.claude/rules/*.md` (`paths`).
 * Loaded on first use by the rules reader (it pulls in the YAML parser). A file whose frontmatter
 * cannot be read is off, with the line of the error; a pattern that points outside the workspace
 * (`../**`, `/etc/**`, `~/x`) or is not a glob is dropped with a problem, never matched.
 */
import { parseFrontmatter, stringList } from '../../../shared/frontmatter';
import { compileGlob, type Glob } from '../../tools/core/glob';

/** What is wrong, for the reader's own words (the VS Code side words each code in the user's language). */
export type ProblemCode =
  'frontmatter' | 'unknownField' | 'notText' | 'excludeAgent' | 'notGlobs' | 'outside' | 'badGlob' | 'noMatch';

export interface InstructionsProblem {
  readonly code: ProblemCode;
  /** The field, value or pattern it is about. */
  readonly subject: string;
  /** The parser's own message (frontmatter, glob), when there is one. */
  readonly detail?: string;
  /** 1-based line in the file, when known. */
  readonly line?: number;
  /** In English, for the log and the tests. */
  readonly message: string;
}

export interface ScopeRule {
  readonly field: 'applyTo' | 'paths';
  readonly whenAbsent: 'always' | 'manual';
}

export interface ParsedInstructions {
  readonly name?: string;
  readonly description?: string;
  /** The patterns that are matched (written relative to the workspace folder). */
  readonly patterns: readonly string[];
  readonly globs: readonly Glob[];
  /** Applies to every request: `**`, `*` or `**\/*`, or no scope where that means all files. */
  readonly always: boolean;
  /** No scope field where that means "attach it by hand": never applied automatically. */
  readonly manual: boolean;
  /** GitHub's `excludeAgent` (`code-review`, `coding-agent`): agents other than this chat. */
  readonly excludeAgent: readonly string[];
  /** The Markdown sent (the frontmatter left out). */
  readonly body: string;
  readonly problems: readonly InstructionsProblem[];
  /** The frontmatter could not be read: the file is not applied. */
  readonly broken: boolean;
}

const EVERY_FILE = new Set(['**', '*', '**/*']);
const KNOWN_FIELDS: Record<ScopeRule['field'], readonly string[]> = {
  applyTo: ['name', 'description', 'applyTo', 'excludeAgent'],
  paths: ['name', 'description', 'paths'],
};
const AGENTS = ['code-review', 'coding-agent'];

/** Reads `text` as an instructions file scoped by `scope.field`; never throws. */
export function parseInstructions(text: string, scope: ScopeRule): ParsedInstructions {
  const fm = parseFrontmatter(text);
  const problems: InstructionsProblem[] = fm.errors.map((e) => ({
    code: 'frontmatter',
    subject: 'frontmatter',
    detail: e.message,
    line: e.line,
    message: `The frontmatter cannot be read (line ${e.line}: ${e.message}), so the file is not applied.`,
  }));
  const broken = fm.errors.length > 0;
  const a = fm.attributes;
  const line = (key: string) => keyLine(text, key);
  for (const key of Object.keys(a))
    if (!KNOWN_FIELDS[scope.field].includes(key))
      problems.push({
        code: 'unknownField',
        subject: key,
        line: line(key),
        message: `The field "${key}" is not one this chat reads; it is ignored.`,
      });
  const name = textField(a, 'name', problems, line);
  const description = textField(a, 'description', problems, line);
  const excludeAgent = stringList(a['excludeAgent']) ?? [];
  for (const v of excludeAgent)
    if (!AGENTS.includes(v))
      problems.push({
        code: 'excludeAgent',
        subject: v,
        line: line('excludeAgent'),
        message: `excludeAgent "${v}" is not one of ${AGENTS.join(', ')}; it is ignored.`,
      });
  const raw = a[scope.field];
  const written = raw === undefined || raw === null ? undefined : scopePatterns(raw);
  if (raw !== undefined && raw !== null && written === undefined)
    problems.push({
      code: 'notGlobs',
      subject: scope.field,
      line: line(scope.field),
      message: `${scope.field} is not a glob or a list of globs; it is ignored.`,
    });
  const { patterns, globs } = checkedPatterns(written ?? [], scope.field, line(scope.field), problems);
  const absent = written === undefined;
  const always = !broken && (absent ? scope.whenAbsent === 'always' : patterns.some((p) => EVERY_FILE.has(p)));
  return {
    ...(name !== undefined ? { name } : {}),
    ...(description !== undefined ? { description } : {}),
    patterns,
    globs,
    always,
    manual: !broken && absent && scope.whenAbsent === 'manual',
    excludeAgent,
    body: fm.body,
    problems,
    broken,
  };
}

function textField(
  a: Readonly<Record<string, unknown>>,
  key: string,
  problems: InstructionsProblem[],
  line: (k: string) => number | undefined,
): string | undefined {
  const v = a[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string' || typeof v === 'number') return String(v);
  problems.push({ code: 'notText', subject: key, line: line(key), message: `${key} is not text; it is ignored.` });
  return undefined;
}

/** `applyTo: "**\/*.ts,**\/*.tsx"` (commas inside `{…}` belong to the glob) or a YAML list. */
export function scopePatterns(value: unknown): string[] | undefined {
  if (typeof value === 'string') return splitOutsideBraces(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.flatMap(splitOutsideBraces);
  return undefined;
}

function splitOutsideBraces(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const c of s) {
    if (c === '{') depth++;
    else if (c === '}') depth = Math.max(0, depth - 1);
    if (c === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out.map((p) => p.trim()).filter(Boolean);
}

/** Whether a pattern names a place outside the workspace folder it is read against. */
export function leavesWorkspace(pattern: string): boolean {
  const p = pattern.replace(/\\/g, '/');
  return p.startsWith('/') || p.startsWith('~') || /^[a-z]:/i.test(p) || p.split('/').includes('..');
}

function checkedPatterns(
  written: readonly string[],
  field: string,
  line: number | undefined,
  problems: InstructionsProblem[],
): { patterns: string[]; globs: Glob[] } {
  const patterns: string[] = [];
  const globs: Glob[] = [];
  for (const p of written) {
    if (leavesWorkspace(p)) {
      problems.push({
        code: 'outside',
        subject: p,
        line,
        message: `${field} "${p}" points outside the workspace; it is ignored.`,
      });
      continue;
    }
    try {
      globs.push(compileGlob(p));
      patterns.push(p);
    } catch (e) {
      const detail = (e as Error).message;
      problems.push({
        code: 'badGlob',
        subject: p,
        detail,
        line,
        message: `${field} "${p}" is not a valid glob (${detail}); it is ignored.`,
      });
    }
  }
  return { patterns, globs };
}

/** The 1-based line of `key:` in the frontmatter, when it is written at the start of a line. */
function keyLine(text: string, key: string): number | undefined {
  const lines = text.split(/\r?\n/);
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i]!;
    if (/^(---|\.\.\.)\s*$/.test(l)) return undefined;
    if (l.startsWith(`${key}:`) || l.startsWith(`'${key}':`) || l.startsWith(`"${key}":`)) return i + 1;
  }
  return undefined;
}

/**
 * The patterns of `parsed` that match none of `files` (workspace-relative, `/`-separated), as
 * problems: a glob that matches nothing is most often a typo, and the file then never applies.
 */
export function unmatchedPatterns(
  parsed: Pick<ParsedInstructions, 'patterns' | 'globs'>,
  field: string,
  files: readonly string[],
): InstructionsProblem[] {
  const out: InstructionsProblem[] = [];
  parsed.patterns.forEach((p, i) => {
    const g = parsed.globs[i]!;
    if (!EVERY_FILE.has(p) && !files.some((f) => g.test(f)))
      out.push({ code: 'noMatch', subject: p, message: `${field} "${p}" matches no file in the workspace.` });
  });
  return out;
}
