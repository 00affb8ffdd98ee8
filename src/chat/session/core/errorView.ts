/**
 * The chat view's words for a failure, in one place: a gateway error through the shared
 * `describeError` (contracts/errorWords), a setting the request refused (`RequestProblem`) with
 * the buttons that fix it. The other audiences (the language-model provider, video, the status
 * bar and notifications) have their own modules.
 */
import * as l10n from '@vscode/l10n';
import { describeError } from '../../../contracts/errorWords';
import type { ErrorView } from '../../../shared/protocol';
import { RequestProblem } from '../../conversation/core/request';

/** Any failure as the chat shows it (a mutable copy of its actions). */
export function errorView(err: unknown): ErrorView {
  if (err instanceof RequestProblem) return problemView(err);
  const d = describeError(err);
  return { title: d.title, detail: d.detail, actions: [...d.actions] };
}

function problemView(p: RequestProblem): ErrorView {
  return {
    title: p.field === 'model' ? l10n.t('No chat model') : l10n.t('Invalid chat setting'),
    detail: p.message,
    actions: p.field === 'model' ? ['selectModel', 'openSettings'] : ['openSettings'],
  };
}
