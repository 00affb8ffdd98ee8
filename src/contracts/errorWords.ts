// The user-facing words for a gateway failure: the one place its facts (./gatewayError) become a
// title, a detail, the advice and the actions worth offering. The chat view, the language-model
// provider, the video feature and the notifications each shape these words for their audience.
import * as l10n from '@vscode/l10n';
import { redact } from '../shared/redact';
import type { ErrorAction, ErrorView } from '../shared/protocol';
import { isGatewayFailure, notFoundCause, type GatewayErrorFacts } from './gatewayError';

/**
 * The buttons worth offering for a gateway failure: a part of the protocol's one `ErrorAction`
 * (the chat adds Select Model and its context-window buttons to it).
 */
export type GatewayErrorAction = Extract<ErrorAction, 'setApiKey' | 'openSettings' | 'retry' | 'showLog'>;

/** User-facing text for an error, in the shape of the protocol's error view. */
export interface ErrorDescription extends ErrorView {
  actions: GatewayErrorAction[];
}

/**
 * The one place errors become user text: a short title, a detail paragraph that says what the
 * spec says the status means and what to do, and the actions worth offering.
 */
export function describeError(err: unknown): ErrorDescription {
  if (!isGatewayFailure(err)) {
    const msg = err instanceof Error ? err.message : String(err);
    return { title: l10n.t('Unexpected error'), detail: redact(msg), actions: ['showLog'] };
  }
  const server = err.message;
  const reqId = err.requestId ? ' ' + l10n.t('(request id {0})', err.requestId) : '';
  switch (err.kind) {
    case 'auth':
      return authWords(reqId);
    case 'forbidden':
      return forbiddenWords(err, server, reqId);
    case 'not_found':
      return notFoundWords(err, server, reqId);
    case 'rate_limit':
      return rateLimitWords(err, reqId);
    case 'network':
    case 'timeout':
      return unreachedWords(err, server);
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
        detail: `${server} ${errorHint(err)}`,
        actions: err.field === 'apiKey' ? ['setApiKey'] : ['openSettings'],
      };
    case 'validation':
      return { title: l10n.t('Invalid request'), detail: server, actions: [] };
    case 'aborted':
      return { title: l10n.t('Stopped'), detail: server, actions: [] };
    case 'truncated':
      return truncatedWords(err, server);
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
        detail: `${server} ${errorHint(err)}`,
        actions: ['openSettings', 'showLog'],
      };
    case 'video_failed':
      return { title: l10n.t('The video task failed'), detail: `${server} ${errorHint(err)}`, actions: ['showLog'] };
    case 'not_video':
      return {
        title: l10n.t('The download was not a video'),
        detail: `${server} ${errorHint(err)}`,
        actions: ['showLog'],
      };
  }
}

/** 401: the key. */
function authWords(reqId: string): ErrorDescription {
  return {
    title: l10n.t('The API key was refused (401)'),
    detail:
      l10n.t(
        'The gateway answers 401 when the key is missing or wrong. Run "Set API Key" with a key copied from the console\'s API Keys page (a web-login password is not a key). If a key is set, an old environment variable or another configuration may be overriding it.',
      ) + reqId,
    actions: ['setApiKey', 'showLog'],
  };
}

/** 403: permission, balance or group, named when the server's words say which. */
function forbiddenWords(err: GatewayErrorFacts, server: string, reqId: string): ErrorDescription {
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

/** 404: the model id, a video id or the base URL, whichever the request makes likelier. */
function notFoundWords(err: GatewayErrorFacts, server: string, reqId: string): ErrorDescription {
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

/** 429, after the automatic retries. */
function rateLimitWords(err: GatewayErrorFacts, reqId: string): ErrorDescription {
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
}

/** No answer: the connection failed or the gateway took too long. */
function unreachedWords(err: GatewayErrorFacts, server: string): ErrorDescription {
  if (err.kind === 'timeout') {
    return {
      title: l10n.t('The gateway did not answer in time'),
      detail:
        l10n.t('{0} Try again, or raise the request or stream idle timeout in the settings.', server) +
        retriesNote(err),
      actions: ['retry', 'openSettings', 'showLog'],
    };
  }
  return {
    title: l10n.t('Could not reach the gateway'),
    detail:
      l10n.t("{0} Check the base URL, your network connection and VS Code's proxy settings (http.proxy).", server) +
      retriesNote(err),
    actions: ['retry', 'openSettings', 'showLog'],
  };
}

/** A chat answer or a download that ended early. */
function truncatedWords(err: GatewayErrorFacts, server: string): ErrorDescription {
  // The same kind covers a chat answer and a video download; a download's error names the
  // path it came from and carries no partial answer.
  return {
    title:
      err.partial !== undefined || !err.path || err.path.endsWith('/chat/completions')
        ? l10n.t('The answer was cut off')
        : l10n.t('The download was cut off'),
    detail: `${server} ${errorHint(err)}`,
    actions: ['retry', 'showLog'],
  };
}

function retriesNote(err: GatewayErrorFacts): string {
  return err.retries > 0 ? ' ' + l10n.t('({0} automatic retries were made.)', err.retries) : '';
}

/** One line: what the user can do about `e` (its thrower's advice, else what its kind calls for). */
export function errorHint(e: GatewayErrorFacts): string {
  switch (e.advice) {
    case 'checkVideoAddress':
      return l10n.t('Check the video base URL and the API key, then resume the task; nothing was saved.');
    case 'resumeDownload':
      return l10n.t('Resume the task to download the video again. Nothing was saved.');
    case 'proxyCutDownload':
      return l10n.t('A proxy may cut long transfers; resume the task to download again. Nothing was saved.');
    case 'freshResultLink':
      return l10n.t(
        'A temporary result link may have expired: resume the task to ask for its status and a fresh link. Nothing was saved.',
      );
    case 'stillRateLimited':
      return l10n.t('Still rate limited after {0} retries; wait a moment and try again.', e.retries);
    case 'raiseIdleTimeout':
      return l10n.t('Try again, or raise gatewayStudio.network.streamIdleTimeoutSeconds.');
    case 'brokenToolCall':
      return l10n.t('The model produced a broken tool call; send the request again.');
    case 'raiseSizeLimit':
      return l10n.t('If this size is expected, raise {0} in your user settings and try again.', e.field ?? '');
    case undefined:
      return kindHint(e);
  }
}

function kindHint(e: GatewayErrorFacts): string {
  switch (e.kind) {
    case 'config':
      return l10n.t('Check the Gateway Studio settings.');
    case 'validation':
      return l10n.t('Correct {0} and send again.', e.field ?? l10n.t('the request'));
    case 'auth':
      return l10n.t('Set a valid API key from the console (API Keys page); a web-login password is not a key.');
    case 'forbidden':
      return l10n.t('The key lacks permission, balance or group access for this; check the console.');
    case 'not_found':
      switch (notFoundCause(e)) {
        case 'model':
          return l10n.t('The model ID is probably wrong: pick one from the model list.');
        case 'id':
          return l10n.t('Use the id from the creation response.');
        default:
          return l10n.t('The base URL probably lacks /v1 or points to the wrong host.');
      }
    case 'rate_limit':
      return l10n.t('Wait a moment and try again.');
    case 'bad_request':
      return l10n.t('The gateway rejected the request; see the message for the field.');
    case 'server':
      return l10n.t('The gateway had a problem; try again later.');
    case 'network':
      return l10n.t('Check the base URL, your network and the proxy settings.');
    case 'timeout':
      return l10n.t('Try again, or raise the timeout in the settings.');
    case 'aborted':
      return l10n.t('Stopped on request.');
    case 'stream':
      return l10n.t('The gateway reported an error during the answer; try again.');
    case 'truncated':
      return l10n.t('The answer was cut off; the text received so far is kept. Try again.');
    case 'invalid_response':
      return l10n.t('The gateway answered in an unexpected format; check the base URL.');
    case 'image_fetch':
      return l10n.t('Use a public direct HTTPS link to the image or a complete base64 data URL.');
    case 'video_failed':
      return l10n.t('Change the prompt or the reference images and try again.');
    case 'not_video':
      return l10n.t(
        'The content was not a video: check the path and the API key, or wait until the task is completed.',
      );
  }
}
