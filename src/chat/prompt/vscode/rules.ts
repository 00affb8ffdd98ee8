// The project's rules and instructions files, read for the system prompt and shown as chips above
// the composer. Which files, from where, and how each applies is the one list
// (../core/promptSources): always-on files (AGENTS.md, CLAUDE.md, copilot-instructions, this
// product's rules folder, instructions for every file) go into every request; scoped ones
// (`applyTo`, `paths`) when the conversation touches a matching file (./appliedRules); nested
// AGENTS.md and CLAUDE.md files for files mentioned below them.
import * as vscode from 'vscode';
import type { HostMessage } from '../../../shared/protocol';
import { loadState, rulesAllowedUntrustedKey, saveState } from '../../../contracts/persistedState/chat';
import { PROMPT_WATCH_GLOB, type RuleKind } from '../core/promptSources';
import type { InstructionsProblem, parseInstructions } from '../core/instructionsFile';
import { markdownLinks, type MarkdownLink } from '../core/markdownLinks';
import { limitRules, type RuleFile, type RuleWarning } from '../core/systemPrompt';
import { readText, refusal, ruleCandidates, type RuleCandidate, type UserPlaces } from './ruleFiles';
import { fileProblemText, linkOutText, secretText, warningText } from './ruleWords';
import { untrustedPromptText, workspacePrompts } from './workspacePrompt';

export interface RulesOptions {
  workspaceState: vscode.Memento;
  warn(msg: string): void;
  /** `vscode.workspace.isTrusted`; tests stand in for Restricted Mode with their own. */
  isTrusted?: () => boolean;
  /** The documented user-level folders (the home folder, the VS Code profile's prompts folder). */
  userPlaces?: UserPlaces;
}

/** A file of the list as last read, for the Customizations view: what it is and how it applies. */
export interface FoundRule {
  readonly id: string;
  readonly path: string;
  readonly kind: RuleKind;
  readonly user: boolean;
  /** `always`: every request; `scoped`: when a matching file is touched; `manual`: never by itself. */
  readonly status: 'always' | 'scoped' | 'manual' | 'refused' | 'broken';
  /** Why it was not read (a link out, a secret). */
  readonly refused?: string;
  readonly problems: readonly InstructionsProblem[];
  readonly patterns?: readonly string[];
  /** The field that scopes it (`applyTo`, `paths`). */
  readonly field?: string;
  readonly name?: string;
  readonly description?: string;
  /** Workspace folder index of a workspace file. */
  readonly folder?: number;
  /** Its local Markdown links (a workspace file's), judged by the Customizations list. */
  readonly links?: readonly MarkdownLink[];
}

/** A scoped file whose patterns decide, per conversation, whether it applies. */
export interface ScopedRule {
  readonly found: FoundRule;
  readonly globs: ReturnType<typeof parseInstructions>['globs'];
  readonly text: string;
}

export interface RulesRead {
  rules: RuleFile[];
  warnings: RuleWarning[];
}

/** Rules files found in the workspace, re-read for every request; a watcher keeps the chips current. */
export class RulesSource implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when a rules file is created, changed or deleted, or trust changes. */
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private watchers: vscode.Disposable[] = [];
  private readonly isTrusted: () => boolean;
  /** The warnings already logged, so a file over the limit is not logged on every request. */
  private readonly logged = new Set<string>();
  private last: RulesRead = { rules: [], warnings: [] };
  /** Every file of the last read (the Customizations view), and its scoped ones. */
  found: FoundRule[] = [];
  scoped: ScopedRule[] = [];
  /** The last read's warnings in words: refusals, problems of instructions files. */
  private notes: string[] = [];
  /** Settings files of the last read whose system prompt was left out (Restricted Mode). */
  untrustedPrompts: string[] = [];
  /** The scoped and nested files applying to the last conversation asked for (./appliedRules), for the chips. */
  private applied: RuleFile[] = [];
  private appliedWarnings: RuleWarning[] = [];
  private appliedNotes: string[] = [];

  constructor(private readonly o: RulesOptions) {
    this.isTrusted = o.isTrusted ?? (() => vscode.workspace.isTrusted);
    this.watch();
    this.disposables.push(
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.watch();
        this.changed.fire();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('gatewayStudio.chat.systemPrompt')) this.changed.fire();
      }),
    );
  }

  /** True in Restricted Mode, whatever the user allowed for the rules files. */
  get untrusted(): boolean {
    return !this.isTrusted();
  }

  /** True while the workspace is untrusted and the user has not allowed its rules. */
  get blocked(): boolean {
    return !this.isTrusted() && !loadState(this.o.workspaceState, rulesAllowedUntrustedKey);
  }

  async allowUntrusted(): Promise<void> {
    await saveState(this.o.workspaceState, rulesAllowedUntrustedKey, true);
    this.changed.fire();
  }

  /** Reads every file of the list now and applies the size limits to the always-on ones. */
  async read(): Promise<RulesRead> {
    const always: Parameters<typeof limitRules>[0] = [];
    const found: FoundRule[] = [];
    const scoped: ScopedRule[] = [];
    const notes: string[] = [];
    let parse: typeof parseInstructions | undefined;
    for (const c of await ruleCandidates(this.o.userPlaces ?? {})) {
      const file = { id: c.id, path: c.uri.fsPath, kind: c.kind, user: c.folder === undefined };
      const read = await this.readRule(c);
      if (read === undefined) continue;
      if ('refused' in read) {
        notes.push(read.refused);
        found.push({ ...file, status: 'refused', refused: read.refused, problems: [] });
        continue;
      }
      const base = { ...file, ...(c.folder !== undefined ? { links: markdownLinks(read.text) } : {}) };
      if (!c.scope) {
        always.push({ ...file, text: read.text });
        found.push({ ...base, status: 'always', problems: [] });
        continue;
      }
      // The YAML parser loads with the first scoped file: a workspace without one never needs it.
      parse ??= (await import('../core/instructionsFile')).parseInstructions;
      const p = parse(read.text, c.scope);
      for (const problem of p.problems) notes.push(fileProblemText(c.id, problem));
      const status = p.broken ? 'broken' : p.always ? 'always' : p.manual ? 'manual' : 'scoped';
      const f: FoundRule = {
        ...base,
        status,
        problems: p.problems,
        patterns: p.patterns,
        field: c.scope.field,
        ...(p.name !== undefined ? { name: p.name } : {}),
        ...(p.description !== undefined ? { description: p.description } : {}),
        ...(c.folder !== undefined ? { folder: c.folder } : {}),
      };
      found.push(f);
      if (status === 'always') always.push({ ...file, text: p.body });
      if (status === 'scoped') scoped.push({ found: f, globs: p.globs, text: p.body });
    }
    // After the files, so the files keep their room under the total limit. A restricted setting:
    // not even read in Restricted Mode, so allowing the rules files does not send it.
    const prompts = workspacePrompts();
    this.untrustedPrompts = this.untrusted ? prompts.map((p) => p.id) : [];
    if (!this.untrusted) for (const p of prompts) always.push({ ...p, kind: 'setting' });
    this.found = found;
    this.scoped = scoped;
    this.notes = notes;
    this.last = limitRules(always);
    this.log([...notes, ...this.last.warnings.map(warningText)]);
    return this.last;
  }

  /** Logs each line once (a file over the limit is not logged on every request). */
  log(lines: readonly string[]): void {
    for (const line of lines) {
      if (!this.logged.has(line)) this.o.warn(`rules: ${line}`);
      this.logged.add(line);
    }
  }

  /**
   * A file's text; `refused` when it is a workspace file that is a symbolic link leading out of the
   * workspace (`AGENTS.md -> /proc/self/environ` would put the editor's environment, keys
   * included, into every prompt) or is, or links to, a secret file inside it (`AGENTS.md -> .env`);
   * undefined when there is none.
   */
  async readRule(
    c: Pick<RuleCandidate, 'uri' | 'id' | 'folder'>,
  ): Promise<{ text: string } | { refused: string } | undefined> {
    if (c.folder !== undefined) {
      const why = await refusal(c.uri);
      if (why) return { refused: why === 'linkOut' ? linkOutText(c.id) : secretText(c.id) };
    }
    const text = await readText(c.uri);
    return text === undefined ? undefined : { text };
  }

  /** Keeps what applies to the conversation now; true when its chips changed. */
  setApplied(rules: RuleFile[], warnings: RuleWarning[], notes: string[]): boolean {
    const key = (xs: RuleFile[], ws: RuleWarning[], ns: string[]) =>
      JSON.stringify([xs.map((r) => [r.id, r.why, r.truncated]), ws, ns]);
    const changed = key(rules, warnings, notes) !== key(this.applied, this.appliedWarnings, this.appliedNotes);
    this.applied = rules;
    this.appliedWarnings = warnings;
    this.appliedNotes = notes;
    this.log([...notes, ...warnings.map(warningText)]);
    return changed;
  }

  /** The chips' message: the files in effect, whether they are blocked, the warnings. */
  async message(fresh = true): Promise<Extract<HostMessage, { type: 'prompt/rules' }>> {
    const { rules, warnings } = fresh ? await this.read() : this.last;
    const chip = (r: RuleFile) => ({
      id: r.id,
      kind: r.kind,
      truncated: r.truncated,
      ...(r.why ? { why: r.why } : {}),
      ...(r.user ? { user: true } : {}),
    });
    return {
      type: 'prompt/rules',
      rules: [...rules, ...this.applied.filter((a) => !rules.some((r) => r.id === a.id))].map(chip),
      blocked: this.blocked,
      warnings: [
        ...this.untrustedPrompts.map(untrustedPromptText),
        ...this.notes,
        ...this.appliedNotes,
        ...[...warnings, ...this.appliedWarnings].map(warningText),
      ],
    };
  }

  /** The file of a chip, from the last read (ids are only ever those the webview was sent). */
  pathOf(id: string): string | undefined {
    return [...this.last.rules, ...this.applied].find((r) => r.id === id)?.path;
  }

  private watch(): void {
    for (const w of this.watchers) w.dispose();
    this.watchers = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, PROMPT_WATCH_GLOB));
      const fire = () => this.changed.fire();
      this.watchers.push(w, w.onDidCreate(fire), w.onDidChange(fire), w.onDidDelete(fire));
    }
  }

  dispose(): void {
    for (const w of this.watchers) w.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
