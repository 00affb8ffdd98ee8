import { commandDisplay, commandWarnings, visibleText, type CommandWarning } from '../../../shared/commandDisplay';
import type { ApprovalRequest } from './runner';

/**
 * The text of the host's own approval prompts (the modal and the quick pick shown when the chat
 * is not on screen), built the way the chat card shows a call: blank runs and invisible
 * characters as markers (see shared/commandDisplay), and for a command its warnings first, so a
 * modal cannot show `npm test` while the rest of the line sits past 200 spaces.
 */
export function approvalDetail(
  req: Pick<ApprovalRequest, 'preview' | 'args' | 'argumentsJson' | 'summary'>,
  translate: (w: CommandWarning) => string = (w) => w,
): string {
  const command = req.preview === 'command' ? req.args['command'] : undefined;
  const warnings = typeof command === 'string' ? commandWarnings(commandDisplay(command)).map(translate) : [];
  return [
    ...warnings,
    ...(req.summary ? [visibleText(req.summary)] : []),
    visibleText(req.argumentsJson, { keepIndent: true }),
  ].join('\n\n');
}

/** The first `n` lines of a text, made visible, on one line (a quick pick's placeholder or detail). */
export function firstLines(text: string, n: number): string {
  return visibleText(text, { keepIndent: true }).split('\n').slice(0, n).join(' · ');
}
