// The project's rules files, read from the workspace for the system prompt and shown as chips
// above the composer. Which files, and why:
// - `AGENTS.md` at each workspace folder's root: the cross-tool convention (Codex, Cursor, Copilot,
//   Kilo and others read it), so one file serves every assistant a team uses;
// - `.github/copilot-instructions.md`: what teams that use Copilot already wrote;
// - `.gatewaystudio/rules/*.md`: this product's own folder, one topic per file, each a chip the
//   user can switch off on its own;
// - nested `AGENTS.md` files apply only to files mentioned from their folder
//   ({@link RulesSource.nestedFor}), so a monorepo's package rules do not fill every request.
import * as vscode from 'vscode';
import { leadsToSecret, linkOutOfWorkspace } from '../../../platform/workspaceLinks';
import { RULES_FILES } from '../../tools/core/protectedFiles';
import { limitRules, nestedAgentsFor, RULE_LIMITS, type RuleFile, type RuleWarning } from '../core/systemPrompt';
import type { HostMessage } from '../../../shared/protocol';
import { untrustedPromptText, workspacePrompts } from './workspacePrompt';
import { loadState, rulesAllowedUntrustedKey, saveState } from '../../../contracts/persistedState/chat';

export interface RulesOptions {
  workspaceState: vscode.Memento;
  warn(msg: string): void;
  /** `vscode.workspace.isTrusted`; tests stand in for Restricted Mode with their own. */
  isTrusted?: () => boolean;
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
  private last: { rules: RuleFile[]; warnings: RuleWarning[] } = { rules: [], warnings: [] };
  /** Rules files of the last read that are links leading out of the workspace, and so skipped. */
  private linkedOut: string[] = [];
  /** Settings files of the last read whose system prompt was left out (Restricted Mode). */
  private untrustedPrompts: string[] = [];

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

  /** Reads every rules file now and applies the size limits. */
  async read(): Promise<{ rules: RuleFile[]; warnings: RuleWarning[] }> {
    const found: { id: string; path: string; kind: RuleFile['kind']; text: string }[] = [];
    const linkedOut: string[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const candidates: { uri: vscode.Uri; kind: RuleFile['kind'] }[] = [
        // The same list makes tool writes to these files ask every time (../core/protectedFiles).
        { uri: vscode.Uri.joinPath(folder.uri, RULES_FILES.agents), kind: 'agents' },
        { uri: vscode.Uri.joinPath(folder.uri, ...RULES_FILES.copilot), kind: 'copilot' },
      ];
      const dir = vscode.Uri.joinPath(folder.uri, ...RULES_FILES.rulesFolder);
      const entries = await vscode.workspace.fs.readDirectory(dir).then(
        (e) => e,
        () => [] as [string, vscode.FileType][],
      );
      for (const [name, type] of entries.sort(([a], [b]) => a.localeCompare(b)))
        if (type === vscode.FileType.File && name.toLowerCase().endsWith('.md'))
          candidates.push({ uri: vscode.Uri.joinPath(dir, name), kind: 'rules' });
      for (const c of candidates) {
        const text = await this.readRule(c.uri, linkedOut);
        if (text !== undefined) found.push({ id: ruleId(c.uri), path: c.uri.fsPath, kind: c.kind, text });
      }
    }
    // After the files, so the files keep their room under the total limit. A restricted setting:
    // not even read in Restricted Mode, so allowing the rules files does not send it.
    const prompts = workspacePrompts();
    this.untrustedPrompts = this.untrusted ? prompts.map((p) => p.id) : [];
    if (!this.untrusted) for (const p of prompts) found.push({ ...p, kind: 'setting' });
    this.linkedOut = linkedOut;
    this.last = limitRules(found);
    for (const w of this.last.warnings) {
      const key = `${w.id}:${w.reason}`;
      if (!this.logged.has(key)) this.o.warn(`rules: ${warningText(w)}`);
      this.logged.add(key);
    }
    return this.last;
  }

  /**
   * A rules file's text, or undefined when there is none or it is a symbolic link leading out of
   * the workspace: `AGENTS.md -> /proc/self/environ` would otherwise put the editor's environment
   * (keys included) into every prompt; nor when it is, or links to, a secret file inside it
   * (`AGENTS.md -> .env`, ../../../shared/sensitiveFiles). Such a file is logged once and its
   * warning kept in `linkedOut`.
   */
  private async readRule(uri: vscode.Uri, linkedOut: string[]): Promise<string | undefined> {
    const id = ruleId(uri);
    const out = await linkOutOfWorkspace(uri);
    const refusal =
      out !== undefined
        ? { text: linkOutText(id), detail: `${uri.fsPath} -> ${out}` }
        : (await leadsToSecret(uri))
          ? { text: secretText(id), detail: uri.fsPath }
          : undefined;
    if (!refusal) return readText(uri);
    linkedOut.push(refusal.text);
    const key = `${id}:refused:${refusal.detail}`;
    if (!this.logged.has(key)) this.o.warn(`rules: ${refusal.text} (${refusal.detail})`);
    this.logged.add(key);
    return undefined;
  }

  /** The chips' message: the files found, whether they are blocked, the size warnings. */
  async message(): Promise<Extract<HostMessage, { type: 'prompt/rules' }>> {
    const { rules, warnings } = await this.read();
    return {
      type: 'prompt/rules',
      rules: rules.map((r) => ({ id: r.id, kind: r.kind, truncated: r.truncated })),
      blocked: this.blocked,
      warnings: [...this.untrustedPrompts.map(untrustedPromptText), ...this.linkedOut, ...warnings.map(warningText)],
    };
  }

  /** The file of a chip, from the last read (ids are only ever those the webview was sent). */
  pathOf(id: string): string | undefined {
    return this.last.rules.find((r) => r.id === id)?.path;
  }

  /**
   * The nested `AGENTS.md` files that apply to `files` (absolute paths): those of the folders
   * between each file's workspace folder and the file. For mentions of files.
   */
  async nestedFor(files: vscode.Uri[]): Promise<RuleFile[]> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    // Paths are compared as URI paths; each candidate goes back to a URI of its folder's scheme.
    const uriOf = (p: string) => folders.find((f) => p.startsWith(`${f.uri.path}/`))?.uri.with({ path: p });
    const texts = new Map<string, string>();
    const paths = await nestedAgentsFor(
      files.map((f) => f.path),
      folders.map((f) => f.uri.path),
      async (p) => {
        const uri = uriOf(p);
        const text = uri && (await this.readRule(uri, []));
        if (text !== undefined) texts.set(p, text);
        return text !== undefined;
      },
    );
    return limitRules(
      paths.map((p) => {
        const uri = uriOf(p)!;
        return { id: ruleId(uri), path: uri.fsPath, kind: 'nested' as const, text: texts.get(p) ?? '' };
      }),
    ).rules;
  }

  private watch(): void {
    for (const w of this.watchers) w.dispose();
    this.watchers = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, RULES_FILES.watchGlob));
      const fire = () => this.changed.fire();
      this.watchers.push(w, w.onDidCreate(fire), w.onDidChange(fire), w.onDidDelete(fire));
    }
  }

  dispose(): void {
    for (const w of this.watchers) w.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

function ruleId(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

function secretText(id: string): string {
  return vscode.l10n.t(
    'Rules file {0} is, or links to, a file that may hold secrets (such as .env), so it is not sent.',
    id,
  );
}

function linkOutText(id: string): string {
  return vscode.l10n.t('Rules file {0} is a symbolic link that leads outside the workspace, so it is not sent.', id);
}

function warningText(w: RuleWarning): string {
  return w.reason === 'file'
    ? vscode.l10n.t(
        'Rules file {0} is longer than {1} characters: only its first {1} characters are sent.',
        w.id,
        RULE_LIMITS.perFile,
      )
    : vscode.l10n.t(
        'Rules file {0} goes past the limit of {1} characters for all rules together: it is cut or left out.',
        w.id,
        RULE_LIMITS.total,
      );
}
