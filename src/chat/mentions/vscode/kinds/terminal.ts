/**
 * @terminal: the last finished command of the active terminal with its output, read through shell
 * integration as it runs.
 */
import * as vscode from 'vscode';
import type { ContextAttachment, MentionItem } from '../../../../shared/protocol';
import { formatTerminalOutput, makeAttachment, noteOnly } from '../../core/mentions';
import type { Outcome } from './outcome';

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

/** The @terminal mention's content. */
export function resolveTerminal(item: MentionItem, terminals: TerminalOutputs): ContextAttachment {
  const r = terminals.lastOutput();
  return r.ok
    ? makeAttachment(
        {
          kind: 'terminal',
          label: r.label ? `${item.label}: ${r.label}` : item.label,
          ...(r.note ? { note: r.note } : {}),
        },
        r.text,
      )
    : noteOnly(item, r.note);
}

/** The picker's row. */
export function terminalRow(): MentionItem {
  return { kind: 'terminal', label: vscode.l10n.t('Terminal'), detail: vscode.l10n.t('last command output'), ref: '' };
}
