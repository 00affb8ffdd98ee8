// What a failure of the language-model provider says, to its caller and to the log, without
// `vscode`: the provider words every error through here.
import * as l10n from '@vscode/l10n';
import { isGatewayError, notFoundCause, type GatewayError } from '../../../api/transport/errors';
import { describeError } from '../../../contracts/errorWords';
import { readOverflow } from '../../../api/chat/overflow';

/** The outcome of {@link lmFailure}. */
export interface LmFailure {
  /** The `Error` message for the caller (Copilot Chat or another extension shows only this). */
  message: string;
  /** Whether the cached model list should be dropped, so VS Code lists the models again. */
  refreshModels: boolean;
}

/** The log's words for a failure of the provider (listing the models, answering): title and detail. */
export function lmLogText(e: unknown): string {
  const d = describeError(e);
  return `${d.title}: ${d.detail}`;
}

/**
 * The words of a failed language-model request. Most errors keep the product's words (they say
 * what to do: set the key, check the balance, …). A 404 does not: the chat panel's advice ("Select
 * Chat Model", the model setting) means nothing to someone who chose the model in VS Code's
 * picker, so it says what a 404 means there (spec 4.7 and 7: a model the gateway no longer offers,
 * or a base URL without /v1), and asks for the list to be refreshed so the picker drops a model
 * that is gone.
 */
export function lmFailure(e: unknown, modelId: string): LmFailure {
  const d = describeError(e);
  const overflow = readOverflow(e);
  if (overflow) {
    const figures =
      overflow.window !== undefined && overflow.promptTokens !== undefined
        ? l10n.t('the server counted {0} tokens for a window of {1}', overflow.promptTokens, overflow.window)
        : overflow.window !== undefined
          ? l10n.t('its window is {0} tokens', overflow.window)
          : l10n.t('the server did not say its size');
    return {
      message: `${l10n.t('The request does not fit the context window of "{0}" ({1}). Send less (fewer or shorter messages, fewer tools), or set the model\'s window in gatewayStudio.models.overrides so that the right size is reported.', modelId, figures)} ${l10n.t('Server said: {0}', e instanceof Error ? e.message : String(e))}`,
      refreshModels: false,
    };
  }
  if (!isGatewayError(e, 'not_found')) return { message: `${d.title}. ${d.detail}`, refreshModels: false };
  const server =
    l10n.t('Server said: {0}', e.message) + (e.requestId ? ' ' + l10n.t('(request id {0})', e.requestId) : '');
  return { message: `${d.title}. ${notFoundWords(e, modelId)} ${server}`, refreshModels: true };
}

function notFoundWords(e: GatewayError, modelId: string): string {
  const baseUrlAdvice = l10n.t(
    'If every model answers 404, the base URL (gatewayStudio.baseUrl) probably lacks /v1: it must end at /v1 and never include /chat/completions.',
  );
  switch (lmNotFoundCause(e, modelId)) {
    case 'model':
      return `${l10n.t('The gateway answers 404 for the model "{0}": it may no longer offer it, or not to this key. Gateway Studio refreshes its list of models, so the model picker drops a model that is gone; choose another model there.', modelId)} ${baseUrlAdvice}`;
    case 'baseUrl':
      return l10n.t(
        'The gateway has no {0} {1}: the base URL (gatewayStudio.baseUrl) probably lacks /v1 or points to the wrong host. It must end at /v1 and never include /chat/completions.',
        e.method ?? 'POST',
        e.path ?? '/chat/completions',
      );
    default:
      return `${l10n.t('The gateway answers 404 for "{0}": either it no longer offers this model (the model list is refreshed, so the picker drops it if it is gone) or the base URL is wrong.', modelId)} ${baseUrlAdvice}`;
  }
}

/**
 * Which 404 this is, judged more closely than the chat panel does: the error names the model
 * (param, code, or the id in the message), or the route as unknown (see notFoundCause), or neither.
 */
function lmNotFoundCause(e: GatewayError, modelId: string): 'model' | 'baseUrl' | 'unsure' {
  if (e.param === 'model' || /model/i.test(e.code ?? '') || (modelId !== '' && e.message.includes(modelId)))
    return 'model';
  // notFoundCause recognises a route the server does not have ("Invalid URL", "Cannot POST").
  const guess = notFoundCause(e);
  return guess === 'baseUrl' ? 'baseUrl' : guess === 'model' && /\bmodel\b/i.test(e.message) ? 'model' : 'unsure';
}
