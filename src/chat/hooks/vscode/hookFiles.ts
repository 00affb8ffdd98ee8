/**
 * The hook files on disk, only at the documented places: in each workspace folder
 * `.claude/settings.json`, `.claude/settings.local.json` and `.github/hooks/*.json`; for the user
 * `~/.claude/settings.json` and `~/.copilot/hooks/*.json`. Read again at every event (a changed
 * file counts at once), approved by content (../core/hookTrust), and listed for the customizations
 * view with why each one runs or not.
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CustomizationSource, CustomizationSourceProvider } from '../../../contracts/customizations';
import { approvedHookFilesKey } from '../../../contracts/persistedState/hooks';
import type { PersistedState } from '../../../platform/persistedState';
import { linkOutOfWorkspace } from '../../../platform/workspaceLinks';
import { parseHookFile, type HookFlavor, type ParsedHookFile } from '../core/hookFile';
import type { HookSource } from '../core/hookEngine';
import {
  hookFileHash,
  hookFileVerdict,
  hookScriptPaths,
  type HookFileVerdict,
  type HookScript,
} from '../core/hookTrust';

/** A hook file larger than this is not read (settings files are a few KB). */
const MAX_HOOK_FILE_BYTES = 1024 * 1024;

interface FoundFile {
  readonly path: string;
  readonly scope: 'workspace' | 'user';
  readonly flavor: HookFlavor;
  /** The folder its hooks run in. */
  readonly root: string;
  readonly label: string;
}

export interface ReadHookFile extends FoundFile {
  readonly parsed: ParsedHookFile;
  readonly hash: string;
  readonly verdict: HookFileVerdict;
}

export interface HookFilesOptions {
  state: PersistedState;
  isTrusted: () => boolean;
  /** Where `~` is (tests point it elsewhere). */
  home?: string;
}

async function jsonFiles(dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir))
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => path.join(dir, f));
  } catch {
    return [];
  }
}

export class HookFiles implements CustomizationSourceProvider {
  readonly kind = 'hooks' as const;
  /** Per path, the content hash the user declined in this window: not asked again until it changes. */
  private readonly declined = new Map<string, string>();
  /** Approvals being asked, so events at once do not open the modal twice. */
  private readonly asking = new Map<string, Promise<boolean>>();

  constructor(private readonly o: HookFilesOptions) {}

  private async found(): Promise<FoundFile[]> {
    const home = this.o.home ?? os.homedir();
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
    const first = folders[0]?.uri.fsPath ?? home;
    const out: FoundFile[] = [];
    for (const f of folders) {
      const root = f.uri.fsPath;
      const at = (p: string, flavor: HookFlavor): FoundFile => ({
        path: p,
        scope: 'workspace',
        flavor,
        root,
        label: `${folders.length > 1 ? `${f.name}/` : ''}${path.relative(root, p).split(path.sep).join('/')}`,
      });
      out.push(at(path.join(root, '.claude', 'settings.json'), 'claude'));
      out.push(at(path.join(root, '.claude', 'settings.local.json'), 'claude'));
      for (const p of await jsonFiles(path.join(root, '.github', 'hooks'))) out.push(at(p, 'vscode'));
    }
    const user = (p: string, flavor: HookFlavor): FoundFile => ({
      path: p,
      scope: 'user',
      flavor,
      root: first,
      label: `~/${path.relative(home, p).split(path.sep).join('/')}`,
    });
    out.push(user(path.join(home, '.claude', 'settings.json'), 'claude'));
    for (const p of await jsonFiles(path.join(home, '.copilot', 'hooks'))) out.push(user(p, 'vscode'));
    return out;
  }

  /** Every hook file that exists now, read and judged. */
  async read(): Promise<ReadHookFile[]> {
    const approved = this.o.state.get(approvedHookFilesKey);
    const out: ReadHookFile[] = [];
    for (const f of await this.found()) {
      const text = await this.readText(f);
      if (text === undefined) continue;
      const parsed =
        typeof text === 'string'
          ? parseHookFile(text, f.flavor)
          : { flavor: f.flavor, commands: [], problems: [{ message: text.problem }], disabled: false, invalid: true };
      const scripts = f.scope === 'workspace' && typeof text === 'string' ? await this.readScripts(parsed, f.root) : [];
      const hash = hookFileHash(typeof text === 'string' ? text : '', scripts);
      const verdict = hookFileVerdict({
        scope: f.scope,
        workspaceTrusted: this.o.isTrusted(),
        parsed,
        hash,
        approvedHash: approved[f.path],
        ...(this.declined.has(f.path) ? { declinedHash: this.declined.get(f.path) } : {}),
      });
      out.push({ ...f, parsed, hash, verdict });
    }
    return out;
  }

  /** The workspace scripts a file's commands name, for its approval hash (at most 20, 1 MB each). */
  private async readScripts(parsed: ParsedHookFile, root: string): Promise<HookScript[]> {
    const out: HookScript[] = [];
    for (const rel of hookScriptPaths(parsed.commands, root).slice(0, 20)) {
      const abs = path.join(root, rel);
      let content: string | undefined;
      try {
        const stat = await fs.stat(abs);
        const inside = (await linkOutOfWorkspace(vscode.Uri.file(abs))) === undefined;
        if (stat.isFile() && inside && stat.size <= MAX_HOOK_FILE_BYTES) content = await fs.readFile(abs, 'utf8');
      } catch {
        // Missing now: hashed as missing, so a script added later is asked about.
      }
      out.push({ path: rel, content });
    }
    return out;
  }

  /** The file's text; a problem when it may not or cannot be read; undefined when there is none. */
  private async readText(f: FoundFile): Promise<string | { problem: string } | undefined> {
    let stat;
    try {
      stat = await fs.stat(f.path);
    } catch {
      return undefined;
    }
    if (!stat.isFile()) return undefined;
    if (f.scope === 'workspace' && (await linkOutOfWorkspace(vscode.Uri.file(f.path))) !== undefined)
      return { problem: vscode.l10n.t('This file is a link that leads out of the workspace, so it is not read.') };
    if (stat.size > MAX_HOOK_FILE_BYTES)
      return { problem: vscode.l10n.t('This file is larger than 1 MB, so it is not read.') };
    return fs.readFile(f.path, 'utf8');
  }

  /** The files whose hooks may run now, asking the user about workspace files not approved yet. */
  async runnable(): Promise<HookSource[]> {
    const out: HookSource[] = [];
    for (const f of await this.read()) {
      const ok = f.verdict.run || (f.verdict.ask && (await this.askApproval(f)));
      if (ok) out.push({ path: f.path, scope: f.scope, flavor: f.flavor, commands: f.parsed.commands, root: f.root });
    }
    return out;
  }

  private askApproval(f: ReadHookFile): Promise<boolean> {
    const key = `${f.path}\n${f.hash}`;
    let asked = this.asking.get(key);
    if (!asked) {
      asked = this.modal(f).finally(() => this.asking.delete(key));
      this.asking.set(key, asked);
    }
    return asked;
  }

  private async modal(f: ReadHookFile): Promise<boolean> {
    const lines = f.parsed.commands.map((c) => `${c.event}${c.matcher ? ` (${c.matcher})` : ''}: ${c.command}`);
    const shown = lines.slice(0, 15).join('\n');
    const more = lines.length > 15 ? `\n${vscode.l10n.t('…and {0} more', lines.length - 15)}` : '';
    const allow = vscode.l10n.t('Allow these hooks');
    const pick = await vscode.window.showWarningMessage(
      f.verdict.why === 'changed'
        ? vscode.l10n.t('The hooks in {0} changed. Run them?', f.label)
        : vscode.l10n.t('Run the hooks in {0}?', f.label),
      {
        modal: true,
        detail: vscode.l10n.t(
          'This workspace file runs these shell commands on your machine when the agent works. Allow them only if you trust what they do; a change to the file asks again.\n\n{0}',
          shown + more,
        ),
      },
      allow,
    );
    if (pick !== allow) {
      this.declined.set(f.path, f.hash);
      return false;
    }
    const approved = this.o.state.get(approvedHookFilesKey);
    await this.o.state.set(approvedHookFilesKey, { ...approved, [f.path]: f.hash });
    return true;
  }

  async list(): Promise<readonly CustomizationSource[]> {
    return (await this.read()).map((f) => ({
      kind: 'hooks',
      name: f.label,
      path: f.path,
      scope: f.scope,
      state: f.verdict.run ? 'applies' : 'off',
      why: whyText(f),
      problems: f.parsed.problems,
    }));
  }
}

function whyText(f: ReadHookFile): string {
  const n = f.parsed.commands.length;
  switch (f.verdict.why) {
    case 'user':
      return vscode.l10n.t('Your own hooks: {0} command(s), always run.', n);
    case 'approved':
      return vscode.l10n.t('{0} command(s), approved by you for this content.', n);
    case 'restricted':
      return vscode.l10n.t('Off in Restricted Mode: trust the workspace to run its hooks.');
    case 'notApproved':
      return vscode.l10n.t('Not approved yet: you are asked before its {0} command(s) first run.', n);
    case 'changed':
      return vscode.l10n.t('Changed since you approved it: you are asked again before it runs.');
    case 'disabled':
      return vscode.l10n.t('Off: the file sets disableAllHooks.');
    case 'empty':
      return vscode.l10n.t('No hooks in this file.');
    case 'invalid':
      return vscode.l10n.t('Not read: see the problem below.');
  }
}
