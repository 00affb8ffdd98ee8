// The user-facing words for an error: the one place a failure becomes a title, a detail and the
// actions worth offering. The error itself is in ./errors.
import * as l10n from '@vscode/l10n';
import { redact } from '../shared/redact';
import { GatewayError, notFoundCause } from './errors';

/** Actions a UI can offer for an error. */
export type ErrorAction = 'setApiKey' | 'openSettings' | 'retry' | 'showLog';

/** User-facing text for an error. */
export interface ErrorDescription {
  title: string;
  detail: string;
  actions: ErrorAction[];
}

/**
 * The one place errors become user text: a short title, a detail paragraph that says what the
 * spec says the status means and what to do, and the actions worth offering.
 */
export function describeError(err: unknown): ErrorDescription {
  if (!(err instanceof GatewayError)) {
    const msg = err instanceof Error ? err.message : String(err);
    return { title: l10n.t('Unexpected error'), detail: redact(msg), actions: ['showLog'] };
  }
  const server = err.message;
  const reqId = err.requestId ? ' ' + l10n.t('(request id {0})', err.requestId) : '';
  switch (err.kind) {
    case 'auth':
      return {
        title: l10n.t('The API key was refused (401)'),
        detail:
          l10n.t(
            'The gateway answers 401 when the key is missing or wrong. Run "Set API Key" with a key copied from the console\'s API Keys page (a web-login password is not a key). If a key is set, an old environment variable or another configuration may be overriding it.',
          ) + reqId,
        actions: ['setApiKey', 'showLog'],
      };
    case 'forbidden': {
      const tag = `${err.code ?? ''} ${err.type ?? ''} ${server}`.toLowerCase();
      const which = /quota|balance|insufficient|credit/.test(tag)
        ? l10n.t('The account balance looks insufficient.')
        : /group|permission|not allowed|denied/.test(tag)
          ? l10n.t("The key's group is not allowed to use this model.")
          : '';
      return {
        title: l10n.t('Access denied (403)'),
        detail:
          [
            l10n.t(
              'The gateway answers 403 when the key lacks permission for the model, the balance is used up, or the group does not allow it.',
            ),
            which,
            l10n.t("Check the key's permissions, the balance and the group in the console, or choose another model."),
            l10n.t('Server said: {0}', server),
          ]
            .filter(Boolean)
            .join(' ') + reqId,
        actions: ['openSettings', 'showLog'],
      };
    }
    case 'not_found': {
      const cause = notFoundCause(err);
      const detail =
        cause === 'model'
          ? l10n.t(
              'The gateway answers 404 for a wrong model ID or a base URL without /v1. Here the model ID is the likelier cause: pick a model with "Select Chat Model" or check the model setting.',
            )
          : cause === 'id'
            ? l10n.t('The gateway answers 404 for an unknown video id. Use the id returned when the task was created.')
            : l10n.t(
                'The gateway answers 404 for a base URL without /v1 or a wrong model ID. Here the base URL is the likelier cause ({0} {1} does not exist): the base URL must end at /v1 and never include /chat/completions.',
                err.method ?? 'GET',
                err.path ?? '',
              );
      return {
        title: l10n.t('Not found (404)'),
        detail: `${detail} ${l10n.t('Server said: {0}', server)}${reqId}`,
        actions: cause === 'id' ? ['showLog'] : ['openSettings', 'showLog'],
      };
    }
    case 'rate_limit':
      return {
        title: l10n.t('Rate limited (429)'),
        detail:
          (err.retries > 0
            ? l10n.t(
                'The gateway is rate limiting this key or model; still limited after {0} automatic retries. Wait a moment and try again.',
                err.retries,
              )
            : l10n.t('The gateway is rate limiting this key or model. Wait a moment and try again.')) + reqId,
        actions: ['retry', 'showLog'],
      };
    case 'network':
      return {
        title: l10n.t('Could not reach the gateway'),
        detail:
          l10n.t("{0} Check the base URL, your network connection and VS Code's proxy settings (http.proxy).", server) +
          retriesNote(err),
        actions: ['retry', 'openSettings', 'showLog'],
      };
    case 'timeout':
      return {
        title: l10n.t('The gateway did not answer in time'),
        detail:
          l10n.t('{0} Try again, or raise the request or stream idle timeout in the settings.', server) +
          retriesNote(err),
        actions: ['retry', 'openSettings', 'showLog'],
      };
    case 'image_fetch':
      return {
        title: l10n.t('The gateway could not fetch a reference image'),
        detail: l10n.t(
          '{0} Use a public direct HTTPS link to the image file (not a page that shows it) or a complete base64 data URL.',
          server,
        ),
        actions: ['showLog'],
      };
    case 'config':
      return {
        title: l10n.t('Configuration problem'),
        detail: `${server} ${err.hint}`,
        actions: err.field === 'apiKey' ? ['setApiKey'] : ['openSettings'],
      };
    case 'validation':
      return { title: l10n.t('Invalid request'), detail: server, actions: [] };
    case 'aborted':
      return { title: l10n.t('Stopped'), detail: server, actions: [] };
    case 'truncated':
      // The same kind covers a chat answer and a video download; a download's error names the
      // path it came from and carries no partial answer.
      return {
        title:
          err.partial !== undefined || !err.path || err.path.endsWith('/chat/completions')
            ? l10n.t('The answer was cut off')
            : l10n.t('The download was cut off'),
        detail: `${server} ${err.hint}`,
        actions: ['retry', 'showLog'],
      };
    case 'stream':
      return {
        title: l10n.t('The gateway reported an error during the answer'),
        detail: server + reqId,
        actions: ['retry', 'showLog'],
      };
    case 'server':
      return {
        title: l10n.t('Gateway error ({0})', err.status ?? '5xx'),
        detail: server + retriesNote(err) + reqId,
        actions: ['retry', 'showLog'],
      };
    case 'bad_request':
      return {
        title: l10n.t('The gateway rejected the request ({0})', err.status ?? 400),
        detail: server + reqId,
        actions: ['showLog'],
      };
    case 'invalid_response':
      return {
        title: l10n.t('Unexpected answer from the gateway'),
        detail: `${server} ${err.hint}`,
        actions: ['openSettings', 'showLog'],
      };
    case 'video_failed':
      return { title: l10n.t('The video task failed'), detail: `${server} ${err.hint}`, actions: ['showLog'] };
    case 'not_video':
      return { title: l10n.t('The download was not a video'), detail: `${server} ${err.hint}`, actions: ['showLog'] };
  }
}

function retriesNote(err: GatewayError): string {
  return err.retries > 0 ? ' ' + l10n.t('({0} automatic retries were made.)', err.retries) : '';
}
