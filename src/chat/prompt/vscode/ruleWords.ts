// The rules reader's words for the user: the chips' warnings, why a file applies, what is wrong
// with one (the codes of ../core/instructionsFile in the user's language).
import * as vscode from 'vscode';
import type { InstructionsProblem } from '../core/instructionsFile';
import { RULE_LIMITS, type RuleWarning } from '../core/systemPrompt';
import type { Touch } from '../core/touchedFiles';

export function secretText(id: string): string {
  return vscode.l10n.t(
    'Rules file {0} is, or links to, a file that may hold secrets (such as .env), so it is not sent.',
    id,
  );
}

export function linkOutText(id: string): string {
  return vscode.l10n.t('Rules file {0} is a symbolic link that leads outside the workspace, so it is not sent.', id);
}

export function warningText(w: RuleWarning): string {
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

/** Why a scoped file applies: the file and what the conversation did with it. */
export function touchText(t: Pick<Touch, 'how'>, file: string): string {
  switch (t.how) {
    case 'mentioned':
      return vscode.l10n.t('applies: {0} is mentioned', file);
    case 'edited':
      return vscode.l10n.t('applies: {0} was edited', file);
    case 'read':
      return vscode.l10n.t('applies: {0} was read', file);
    case 'active':
      return vscode.l10n.t('applies: {0} is the active file', file);
  }
}

/** One problem of an instructions file, with its line when it has one. */
export function problemText(p: InstructionsProblem): string {
  const text = problemWords(p);
  return p.line !== undefined ? vscode.l10n.t('line {0}: {1}', p.line, text) : text;
}

/** A problem in words, without its line. */
export function problemWords(p: InstructionsProblem): string {
  switch (p.code) {
    case 'frontmatter':
      return vscode.l10n.t('the frontmatter cannot be read ({0}), so the file is not applied', p.detail ?? '');
    case 'unknownField':
      return vscode.l10n.t('the field "{0}" is not one this chat reads; it is ignored', p.subject);
    case 'notText':
      return vscode.l10n.t('{0} is not text; it is ignored', p.subject);
    case 'excludeAgent':
      return vscode.l10n.t('excludeAgent "{0}" is not code-review or coding-agent; it is ignored', p.subject);
    case 'notGlobs':
      return vscode.l10n.t('{0} is not a glob or a list of globs; it is ignored', p.subject);
    case 'outside':
      return vscode.l10n.t('the pattern "{0}" points outside the workspace; it is ignored', p.subject);
    case 'badGlob':
      return vscode.l10n.t('the pattern "{0}" is not a valid glob ({1}); it is ignored', p.subject, p.detail ?? '');
    case 'noMatch':
      return vscode.l10n.t('the pattern "{0}" matches no file in the workspace', p.subject);
  }
}

/** The chips' warning line of a problem in file `id`. */
export function fileProblemText(id: string, p: InstructionsProblem): string {
  return vscode.l10n.t('Instructions file {0}: {1}', id, problemText(p));
}
