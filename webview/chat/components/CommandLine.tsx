/**
 * The command of a `run_command` card, shown so that nothing in it can hide (see
 * src/shared/commandDisplay): wrapped, never cut, blank runs and invisible characters as markers,
 * and a warning when the command is long, has several lines or had something to show that way.
 */
import type { JSX } from 'preact';
import { commandDisplay, commandWarnings } from '../../../src/shared/commandDisplay';
import { useChat } from '../useChat';
import { Icon } from './buttons';

/** The `command` argument of a call, when its arguments are JSON with a string there. */
export function commandOf(argumentsJson: string): string | undefined {
  try {
    const args = JSON.parse(argumentsJson) as unknown;
    const command = typeof args === 'object' && args !== null ? (args as { command?: unknown }).command : undefined;
    return typeof command === 'string' ? command : undefined;
  } catch {
    return undefined;
  }
}

export function CommandLine({ command }: { command: string }): JSX.Element {
  const { t } = useChat();
  const d = commandDisplay(command);
  return (
    <div class="tc-command">
      <pre>
        <code>{d.text}</code>
      </pre>
      {commandWarnings(d).map((w) => (
        <p class="tc-warning tc-command-warning" role="note" key={w}>
          <Icon name="warning" /> {t(w)}
        </p>
      ))}
    </div>
  );
}
