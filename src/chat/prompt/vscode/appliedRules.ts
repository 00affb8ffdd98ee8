// The rules that apply to one conversation on top of the always-on ones: nested AGENTS.md and
// CLAUDE.md files of the folders of mentioned files, and scoped instructions (`applyTo`, `paths`)
// whose patterns match a file the conversation touched (mentioned, read or edited by a tool, the
// active editor). Each carries why it applies, for its chip; together they share what the
// always-on rules left of the total size limit.
import * as vscode from 'vscode';
import type { Conversation } from '../../../shared/protocol';
import { activeEditors } from '../../../platform/activeEditor';
import { limitRules, nestedAgentsFor, RULE_LIMITS, type RuleFile, type RuleWarning } from '../core/systemPrompt';
import { conversationTouches, matchingTouch, type Touch, type TouchRoot } from '../core/touchedFiles';
import { ruleId } from './ruleFiles';
import type { RulesSource } from './rules';
import { touchText } from './ruleWords';

/** What applies to `c` beyond `base` (the always-on rules), limited to the room `base` left. */
export async function appliedRules(
  source: RulesSource,
  base: readonly RuleFile[],
  c: Conversation | undefined,
): Promise<{ rules: RuleFile[]; warnings: RuleWarning[]; notes: string[] }> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const roots: TouchRoot[] = folders.map((f) => ({ name: f.name, path: f.uri.path }));
  const touches = c ? conversationTouches(c, roots, source.scoped.length > 0) : [];
  const active = activeTouch();
  if (active) touches.push(active);
  const shown = (t: Touch) => (folders.length > 1 ? `${roots[t.folder]!.name}/${t.relative}` : t.relative);
  const notes: string[] = [];
  const nested = await nestedRules(source, touches, shown, notes);
  const scoped: Parameters<typeof limitRules>[0] = [];
  for (const s of source.scoped) {
    const t = matchingTouch({ folder: s.found.folder, globs: s.globs }, touches);
    if (!t) continue;
    const f = s.found;
    scoped.push({
      id: f.id,
      path: f.path,
      kind: f.kind,
      text: s.text,
      why: touchText(t, shown(t)),
      appliesTo: f.patterns ?? [],
      ...(f.user ? { user: true } : {}),
    });
  }
  const extra = [...nested, ...scoped].filter((r) => !base.some((b) => b.id === r.id));
  const used = base.reduce((n, r) => n + r.text.length, 0);
  const limited = limitRules(extra, { perFile: RULE_LIMITS.perFile, total: Math.max(0, RULE_LIMITS.total - used) });
  return { ...limited, notes };
}

/** The active editor's file, when it is one of a workspace folder. */
function activeTouch(): Touch | undefined {
  const uri = activeEditors().current()?.document.uri;
  const folder = uri && vscode.workspace.getWorkspaceFolder(uri);
  if (!uri || !folder) return undefined;
  const relative = uri.path.slice(folder.uri.path.replace(/\/$/, '').length + 1);
  return relative ? { folder: folder.index, relative, how: 'active' } : undefined;
}

/** The nested AGENTS.md and CLAUDE.md files of the mentioned files' folders, outermost first. */
async function nestedRules(
  source: RulesSource,
  touches: readonly Touch[],
  shown: (t: Touch) => string,
  notes: string[],
): Promise<Parameters<typeof limitRules>[0]> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const mentioned = touches.filter((t) => t.how === 'mentioned');
  if (mentioned.length === 0) return [];
  const uriOf = (t: Touch) => vscode.Uri.joinPath(folders[t.folder]!.uri, ...t.relative.split('/'));
  // Paths are compared as URI paths; each candidate goes back to a URI of its folder's scheme.
  const folderOf = (p: string) => folders.find((f) => p.startsWith(`${f.uri.path}/`));
  const texts = new Map<string, string>();
  const paths = await nestedAgentsFor(
    mentioned.map((t) => uriOf(t).path),
    folders.map((f) => f.uri.path),
    async (p) => {
      const f = folderOf(p);
      if (!f) return false;
      const uri = f.uri.with({ path: p });
      const read = await source.readRule({ uri, id: ruleId(uri), folder: f.index });
      if (read && 'refused' in read) notes.push(read.refused);
      if (read && 'text' in read) texts.set(p, read.text);
      return texts.has(p);
    },
  );
  return paths.map((p) => {
    const uri = folderOf(p)!.uri.with({ path: p });
    const dir = p.slice(0, p.lastIndexOf('/') + 1);
    const t = mentioned.find((m) => uriOf(m).path.startsWith(dir))!;
    return {
      id: ruleId(uri),
      path: uri.fsPath,
      kind: 'nested' as const,
      text: texts.get(p) ?? '',
      why: touchText(t, shown(t)),
    };
  });
}
