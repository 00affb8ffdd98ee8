// The rules and instructions files as the Customizations list shows them: every file the one list
// (../core/promptSources) found, whether it applies to the shown conversation now and why, or is
// available (a scoped file no touched file matches yet; a file without `applyTo`), or is off and
// why (Restricted Mode, switched off for this conversation, refused as a link out or a secret, a
// frontmatter that cannot be read, with its line). Patterns that match no workspace file are
// reported here, where a search of the workspace is worth its cost.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { checkInside } from '../../../files/insideWorkspace';
import type {
  CustomizationProblem,
  CustomizationSource,
  CustomizationSourceProvider,
} from '../../../contracts/customizations';
import type { Conversation } from '../../../shared/protocol';
import type { InstructionsProblem } from '../core/instructionsFile';
import type { RuleFile } from '../core/systemPrompt';
import type { PromptContext } from './promptContext';
import type { FoundRule, ScopedRule } from './rules';
import { problemWords } from './ruleWords';

/** Files listed to find patterns that match nothing; past it each such pattern is searched alone. */
const LISTED_FILES = 20_000;
const EXCLUDE = '**/{node_modules,.git}/**';

export function instructionsProvider(
  prompt: PromptContext,
  shown: () => Conversation | undefined,
): CustomizationSourceProvider {
  return {
    kind: 'instructions',
    async list() {
      const c = shown();
      const snapshot = await prompt.snapshot(c);
      const rules = prompt.rules;
      const off = new Set(c?.disabledRules ?? []);
      const sent = new Map(snapshot.rules.map((r) => [r.id, r]));
      const unmatched = await unmatchedProblems(rules.scoped);
      const links = await outsideLinks(rules.found);
      const out: CustomizationSource[] = rules.found.map((f) =>
        source(
          f,
          stateOf(f, sent.get(f.id), { blocked: rules.blocked, off }),
          unmatched.get(f.id) ?? [],
          links.get(f.id) ?? [],
        ),
      );
      // Nested files and the workspace's system prompt setting are no files of the list.
      for (const r of snapshot.rules)
        if (r.kind === 'nested' || r.kind === 'setting')
          out.push({
            kind: 'instructions',
            name: r.id,
            path: r.path,
            scope: 'workspace',
            ...stateOf({ status: 'always', user: false, id: r.id }, r, { blocked: rules.blocked, off }),
            problems: cutProblem(r),
          });
      for (const id of rules.untrustedPrompts)
        out.push({
          kind: 'instructions',
          name: id,
          path: id,
          scope: 'workspace',
          state: 'off',
          why: vscode.l10n.t(
            'Restricted Mode: a workspace system prompt is not sent while the workspace is not trusted',
          ),
          problems: [],
        });
      return out;
    },
  };
}

function source(
  f: FoundRule,
  state: Pick<CustomizationSource, 'state' | 'why'>,
  extra: readonly InstructionsProblem[],
  links: readonly CustomizationProblem[],
): CustomizationSource {
  return {
    kind: 'instructions',
    name: f.name ? `${f.name} (${f.id})` : f.id,
    path: f.path,
    scope: f.user ? 'user' : 'workspace',
    ...state,
    problems: [
      ...[...f.problems, ...extra].map((p): CustomizationProblem => ({
        ...(p.line !== undefined ? { line: p.line } : {}),
        message: problemWords(p),
      })),
      ...links,
    ],
  };
}

/** Applies now, available, or off, and why, in the user's words. */
function stateOf(
  f: Pick<FoundRule, 'status' | 'user' | 'id'> & Partial<Pick<FoundRule, 'refused' | 'patterns' | 'field'>>,
  sent: RuleFile | undefined,
  o: { blocked: boolean; off: ReadonlySet<string> },
): Pick<CustomizationSource, 'state' | 'why'> {
  if (f.status === 'refused') return { state: 'off', why: f.refused ?? '' };
  if (f.status === 'broken')
    return {
      state: 'off',
      why: vscode.l10n.t('its frontmatter cannot be read (see the line below), so it is not applied'),
    };
  if (o.blocked && !f.user)
    return {
      state: 'off',
      why: vscode.l10n.t(
        'Restricted Mode: the workspace is not trusted and its rules are not allowed yet (the chat can allow them)',
      ),
    };
  if (o.off.has(f.id)) return { state: 'off', why: vscode.l10n.t('turned off for this conversation (its chip)') };
  if (f.status === 'manual')
    return {
      state: 'available',
      why: vscode.l10n.t('no applyTo: not applied by itself; @-mention the file to use it'),
    };
  if (f.status === 'scoped' && !sent)
    return {
      state: 'available',
      why: vscode.l10n.t(
        'applies when the conversation mentions, opens, reads or edits a file matching {0}',
        (f.patterns ?? []).join(', '),
      ),
    };
  if (sent && sent.text.trim() === '')
    return { state: 'off', why: vscode.l10n.t('empty, or left out by the size limit') };
  return { state: 'applies', why: sent?.why ?? vscode.l10n.t('always on') };
}

function cutProblem(r: RuleFile): CustomizationProblem[] {
  return r.truncated ? [{ message: vscode.l10n.t('cut to {0} of {1} characters', r.text.length, r.size) }] : [];
}

/**
 * The links of each workspace file (by id) that lead out of the workspace by the one rule
 * (src/files/insideWorkspace.ts: where the path really is, links followed). The chat follows no
 * link; this names those a reader might think it does.
 */
async function outsideLinks(found: readonly FoundRule[]): Promise<Map<string, CustomizationProblem[]>> {
  const out = new Map<string, CustomizationProblem[]>();
  const roots = (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => f.uri.fsPath);
  for (const f of found) {
    if (f.folder === undefined || !f.links?.length || roots.length === 0) continue;
    const problems: CustomizationProblem[] = [];
    for (const l of f.links) {
      const target = /^file:/i.test(l.target)
        ? vscode.Uri.parse(l.target).fsPath
        : path.resolve(path.dirname(f.path), l.target);
      const inside = await checkInside(target, roots).then(
        (c) => c.inside,
        () => false,
      );
      if (!inside)
        problems.push({
          line: l.line,
          message: vscode.l10n.t('links to {0}, outside the workspace: the link is not followed', l.target),
        });
    }
    if (problems.length) out.set(f.id, problems);
  }
  return out;
}

/** The patterns of each workspace scoped file (by id) that match no file of its folder. */
async function unmatchedProblems(scoped: readonly ScopedRule[]): Promise<Map<string, InstructionsProblem[]>> {
  const out = new Map<string, InstructionsProblem[]>();
  if (scoped.length === 0) return out;
  const { unmatchedPatterns } = await import('../core/instructionsFile');
  const listed = await vscode.workspace.findFiles('**/*', EXCLUDE, LISTED_FILES);
  const complete = listed.length < LISTED_FILES;
  const folders = vscode.workspace.workspaceFolders ?? [];
  const relative = (folder: number | undefined) =>
    listed.flatMap((u) => {
      const f = vscode.workspace.getWorkspaceFolder(u);
      return f && (folder === undefined || f.index === folder)
        ? [u.path.slice(f.uri.path.replace(/\/$/, '').length + 1)]
        : [];
    });
  for (const s of scoped) {
    let problems = unmatchedPatterns(
      { patterns: s.found.patterns ?? [], globs: s.globs },
      s.found.field ?? 'applyTo',
      relative(s.found.folder),
    );
    // The listing stopped short: a pattern is reported only when its own search finds nothing.
    if (!complete) {
      const kept: InstructionsProblem[] = [];
      for (const p of problems) {
        const glob = p.subject.includes('/') || p.subject.startsWith('**') ? p.subject : `**/${p.subject}`;
        const bases = s.found.folder !== undefined ? [folders[s.found.folder]!] : folders;
        const hits = await Promise.all(
          bases.map((b) => vscode.workspace.findFiles(new vscode.RelativePattern(b, glob), EXCLUDE, 1)),
        );
        if (hits.every((h) => h.length === 0)) kept.push(p);
      }
      problems = kept;
    }
    if (problems.length) out.set(s.found.id, problems);
  }
  return out;
}
