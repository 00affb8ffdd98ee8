/**
 * Which workspace files a conversation touches, for scoped instructions (`applyTo`, `paths`): the
 * files its user messages mention (@-mentions, attachments), the files its tools read or edited
 * (read from the stored tool calls, so a reopened conversation knows them too), and the active
 * editor's file. Paths are judged as names only: a path with `..`, or an absolute one outside
 * every workspace folder, touches nothing, so no pattern can be made to match outside files.
 */
import type { Conversation } from '../../../shared/protocol';
import type { Glob } from '../../tools/core/glob';

export type TouchHow = 'mentioned' | 'edited' | 'read' | 'active';

/** One file the conversation touched: the index of its workspace folder and its path there. */
export interface Touch {
  readonly folder: number;
  readonly relative: string;
  readonly how: TouchHow;
}

/** A workspace folder: its name (the first segment of paths in a multi-root workspace) and URI path. */
export interface TouchRoot {
  readonly name: string;
  readonly path: string;
}

const READS = new Set(['read_file']);
const EDITS = new Set(['edit_file', 'write_file']);

/**
 * `p` as a path inside one of `roots`: relative ones belong to the first folder unless their first
 * segment names another folder of a multi-root workspace; absolute ones must lie below a folder.
 */
export function insideRoot(p: string, roots: readonly TouchRoot[]): { folder: number; relative: string } | undefined {
  let s = p.trim().replace(/\\/g, '/');
  if (!s || roots.length === 0) return undefined;
  if (/^[a-z]:\//i.test(s)) s = `/${s}`;
  if (s.startsWith('/')) {
    const lower = s.toLowerCase();
    const i = roots.findIndex((r) => lower.startsWith(`${r.path.replace(/\/$/, '').toLowerCase()}/`));
    if (i < 0) return undefined;
    return clean(s.slice(roots[i]!.path.replace(/\/$/, '').length + 1), i);
  }
  const parts = s.split('/');
  const named = roots.length > 1 ? roots.findIndex((r) => r.name === parts[0]) : -1;
  return named > 0 ? clean(parts.slice(1).join('/'), named) : clean(s, 0);
}

function clean(rel: string, folder: number): { folder: number; relative: string } | undefined {
  const segs = rel.split('/').filter((x) => x !== '' && x !== '.');
  if (segs.length === 0 || segs.includes('..')) return undefined;
  return { folder, relative: segs.join('/') };
}

/**
 * The files `c` touched, in the order it touched them (mentions, then each tool call); with
 * `tools` false only the mentions (nothing scoped to match: the calls' arguments are not parsed).
 */
export function conversationTouches(
  c: Pick<Conversation, 'messages'>,
  roots: readonly TouchRoot[],
  tools = true,
): Touch[] {
  const out: Touch[] = [];
  const add = (p: unknown, how: TouchHow) => {
    const at = typeof p === 'string' ? insideRoot(p, roots) : undefined;
    if (at) out.push({ ...at, how });
  };
  for (const m of c.messages) {
    if (m.role === 'user')
      for (const a of m.attachments ?? []) if (a.path) add(mentionPath(a.path, roots), 'mentioned');
    if (m.role !== 'assistant' || !tools) continue;
    for (const call of m.toolCalls ?? []) {
      const how = READS.has(call.function.name) ? 'read' : EDITS.has(call.function.name) ? 'edited' : undefined;
      if (how) add(argumentPath(call.function.arguments), how);
    }
  }
  return out;
}

/** Attachment paths name the folder first in a multi-root workspace, always. */
function mentionPath(p: string, roots: readonly TouchRoot[]): string | undefined {
  if (roots.length < 2) return p;
  const i = roots.findIndex((r) => p.startsWith(`${r.name}/`));
  return i < 0 ? undefined : `${roots[i]!.path.replace(/\/$/, '')}/${p.slice(roots[i]!.name.length + 1)}`;
}

function argumentPath(args: string): unknown {
  try {
    const a = JSON.parse(args) as unknown;
    return a && typeof a === 'object' ? (a as Record<string, unknown>)['path'] : undefined;
  } catch {
    return undefined;
  }
}

/** The order reasons are given in: what the user pointed at first, then what the tools did. */
const PRIORITY: readonly TouchHow[] = ['mentioned', 'edited', 'read', 'active'];

/**
 * The touch that makes a scoped file apply: one of `touches` in its folder (`folder` undefined: a
 * user-level file, any folder) whose path a glob matches, the latest of the first kind found in
 * {@link PRIORITY} order; undefined when none does.
 */
export function matchingTouch(
  scoped: { readonly folder: number | undefined; readonly globs: readonly Glob[] },
  touches: readonly Touch[],
): Touch | undefined {
  const hits = touches.filter(
    (t) => (scoped.folder === undefined || t.folder === scoped.folder) && scoped.globs.some((g) => g.test(t.relative)),
  );
  for (const how of PRIORITY) {
    const last = hits.filter((t) => t.how === how).at(-1);
    if (last) return last;
  }
  return undefined;
}
