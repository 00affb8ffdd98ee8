/**
 * Where two mention kinds come from in VS Code: the git working tree (through the built-in
 * `vscode.git` extension's API) and the last command of a terminal (through shell integration).
 * Each answers with text, or with a sentence saying why there is none.
 */
import * as vscode from 'vscode';
import { formatTerminalOutput } from '../core/mentions';

/** The part of the `vscode.git` extension's API (version 1) that the changes mention uses. */
interface GitChange {
  readonly uri: vscode.Uri;
  readonly status: number;
}
interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly state: {
    readonly workingTreeChanges: readonly GitChange[];
    readonly untrackedChanges?: readonly GitChange[];
  };
  diff(cached?: boolean): Promise<string>;
  status(): Promise<void>;
}
interface GitApi {
  readonly state: 'uninitialized' | 'initialized';
  readonly onDidChangeState: vscode.Event<'uninitialized' | 'initialized'>;
  readonly repositories: readonly GitRepository[];
  openRepository?(root: vscode.Uri): Promise<GitRepository | null>;
}
interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): GitApi;
}

/** `Status.UNTRACKED` of the git extension's API. */
const UNTRACKED = 7;

export type Outcome = { ok: true; text: string; note?: string } | { ok: false; note: string };

/**
 * The working-tree diff of every workspace folder's repository: staged, then unstaged changes,
 * then the names of untracked files (git's diff leaves those out).
 */
export async function gitChanges(): Promise<Outcome> {
  const ext = vscode.extensions.getExtension<GitExtension>('vscode.git');
  if (!ext)
    return {
      ok: false,
      note: vscode.l10n.t('The Git extension of VS Code is not available, so there are no changes to attach.'),
    };
  const git = ext.isActive ? ext.exports : await ext.activate();
  if (!git.enabled)
    return {
      ok: false,
      note: vscode.l10n.t('Git is turned off in VS Code (setting git.enabled), so there are no changes to attach.'),
    };
  const api = await gitApi(git);
  if (!api)
    return {
      ok: false,
      note: vscode.l10n.t('The Git extension of VS Code is not ready, so there are no changes to attach.'),
    };
  if (api.state !== 'initialized') await waitInitialized(api, 5000);
  const folders = vscode.workspace.workspaceFolders ?? [];
  const repos: GitRepository[] = [];
  for (const f of folders) {
    let repo = api.repositories.find((r) => contains(r.rootUri, f.uri) || contains(f.uri, r.rootUri));
    // A repository made after the window opened may not be discovered yet; ask for it.
    if (!repo && api.openRepository) repo = (await api.openRepository(f.uri)) ?? undefined;
    if (repo && !repos.includes(repo)) repos.push(repo);
  }
  if (repos.length === 0) {
    return {
      ok: false,
      note: vscode.l10n.t('No git repository is open in this workspace, so there are no changes to attach.'),
    };
  }
  const parts: string[] = [];
  for (const repo of repos) {
    await repo.status();
    const name = vscode.workspace.asRelativePath(repo.rootUri, true) || repo.rootUri.fsPath;
    const staged = (await repo.diff(true)).trim();
    const unstaged = (await repo.diff(false)).trim();
    const untracked = [
      ...(repo.state.untrackedChanges ?? []),
      ...repo.state.workingTreeChanges.filter((c) => c.status === UNTRACKED),
    ].map((c) => vscode.workspace.asRelativePath(c.uri, false));
    const section: string[] = [];
    if (staged) section.push(`# Staged changes\n${staged}`);
    if (unstaged) section.push(`# Unstaged changes\n${unstaged}`);
    if (untracked.length) section.push(`# Untracked files\n${[...new Set(untracked)].sort().join('\n')}`);
    if (section.length === 0) section.push('No changes: the working tree matches HEAD.');
    parts.push(repos.length > 1 ? `## Repository ${name}\n${section.join('\n\n')}` : section.join('\n\n'));
  }
  return { ok: true, text: parts.join('\n\n') };
}

/** The API; right after git is turned on its model is still being made, and getAPI throws until then. */
async function gitApi(git: GitExtension): Promise<GitApi | undefined> {
  for (let i = 0; i < 50; i++) {
    try {
      return git.getAPI(1);
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return undefined;
}

function contains(parent: vscode.Uri, child: vscode.Uri): boolean {
  const p = parent.fsPath.replace(/[\\/]+$/, '');
  return child.fsPath === p || child.fsPath.startsWith(p + '/') || child.fsPath.startsWith(p + '\\');
}

function waitInitialized(api: GitApi, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    const sub = api.onDidChangeState((s) => {
      if (s === 'initialized') done();
    });
    function done() {
      clearTimeout(timer);
      sub.dispose();
      resolve();
    }
  });
}

/** At most this many characters of a command's output are kept. */
const OUTPUT_KEEP = 200_000;

interface Finished {
  commandLine: string;
  output: string;
  exitCode: number | undefined;
}

/**
 * Keeps the last finished command of each terminal with its output. Shell integration hands out
 * a command's output only to a reader that starts while it runs, so it is read as it comes.
 */
export class TerminalOutputs implements vscode.Disposable {
  private readonly last = new Map<vscode.Terminal, Finished>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor() {
    this.disposables.push(
      vscode.window.onDidStartTerminalShellExecution((e) => void this.read(e.terminal, e.execution)),
      vscode.window.onDidCloseTerminal((t) => this.last.delete(t)),
    );
  }

  private async read(terminal: vscode.Terminal, execution: vscode.TerminalShellExecution): Promise<void> {
    let output = '';
    const ended = new Promise<number | undefined>((resolve) => {
      const sub = vscode.window.onDidEndTerminalShellExecution((e) => {
        if (e.execution === execution) {
          sub.dispose();
          resolve(e.exitCode);
        }
      });
      this.disposables.push(sub);
    });
    try {
      for await (const data of execution.read()) {
        if (output.length < OUTPUT_KEEP) output += data;
      }
    } catch {
      // A terminal closed mid-command ends the stream; what was read is kept.
    }
    const exitCode = await Promise.race([ended, new Promise<undefined>((r) => setTimeout(() => r(undefined), 2000))]);
    const commandLine = execution.commandLine.value.trim();
    // Executions without a command line (a bare Enter, the shell's own start-up) are not what the
    // user means by "the last command", and must not hide it.
    if (commandLine === '' && output.trim() === '') return;
    this.last.set(terminal, { commandLine, output, exitCode });
  }

  /** The active terminal's last command and output, or why there is none. */
  lastOutput(): Outcome & { label?: string } {
    const terminal = vscode.window.activeTerminal ?? vscode.window.terminals.at(-1);
    if (!terminal)
      return { ok: false, note: vscode.l10n.t('There is no terminal open, so there is no output to attach.') };
    const found = this.last.get(terminal);
    if (found) {
      if (found.output.trim() === '') {
        return {
          ok: true,
          text: formatTerminalOutput(found.commandLine, '', found.exitCode),
          note: vscode.l10n.t(
            'No output of this command was captured: shell integration hands output only to a reader that starts while the command runs, which a very quick command can outrun.',
          ),
          label: terminal.name,
        };
      }
      return {
        ok: true,
        text: formatTerminalOutput(found.commandLine, found.output, found.exitCode),
        label: terminal.name,
      };
    }
    if (!terminal.shellIntegration) {
      return {
        ok: false,
        note: vscode.l10n.t(
          'The terminal "{0}" has no shell integration, so its output cannot be read. Turn on terminal.integrated.shellIntegration.enabled and use bash, zsh, fish or PowerShell, or paste the output.',
          terminal.name,
        ),
      };
    }
    return {
      ok: false,
      note: vscode.l10n.t('No command has finished in the terminal "{0}" since Gateway Studio started.', terminal.name),
    };
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
