import * as vscode from 'vscode';
import { redact } from '../shared/redact';

/**
 * The extension's log: one output channel (`{ log: true }` so the user picks the level). Every
 * line passes through {@link redact}, so a bearer token or key that slipped into a message is
 * masked before it is written anywhere.
 */
export interface Logger {
  trace(msg: string): void;
  debug(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string | Error): void;
  show(): void;
}

export function createLogger(context: vscode.ExtensionContext): Logger {
  const channel = vscode.window.createOutputChannel('Gateway Studio', { log: true });
  context.subscriptions.push(channel);
  const text = (m: string | Error) => redact(m instanceof Error ? `${m.name}: ${m.message}` : m);
  return {
    trace: (m) => channel.trace(text(m)),
    debug: (m) => channel.debug(text(m)),
    info: (m) => channel.info(text(m)),
    warn: (m) => channel.warn(text(m)),
    error: (m) => channel.error(text(m)),
    show: () => channel.show(true),
  };
}
