/**
 * The images an answer carries, in every form relays use: `/v1/images/*` (`data[].b64_json` or
 * `data[].url`) and chat completions for Gemini-class models (`message.images[]`, image parts of
 * the content, or a Markdown image in the text). A content-policy refusal is said in the relay's
 * own words with what it means; an answer with no image at all is an error, never an empty success.
 */
import * as l10n from '@vscode/l10n';
import { redact } from '../../shared/redact';
import { GatewayError, isGatewayError } from '../transport/errors';

/** One image of an answer: base64 bytes, or a link to download (checked before it is fetched). */
export type ImageOutput =
  | { readonly kind: 'b64'; readonly data: string; readonly revisedPrompt?: string }
  | { readonly kind: 'url'; readonly url: string; readonly revisedPrompt?: string };

function rec(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}
const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/** A `data:image/...;base64,` URL as base64 data; anything else as a link. */
function fromUrl(url: string, revisedPrompt?: string): ImageOutput {
  const m = /^data:image\/[A-Za-z0-9.+-]+;base64,(.*)$/s.exec(url);
  const extra = revisedPrompt !== undefined ? { revisedPrompt } : {};
  return m ? { kind: 'b64', data: m[1]!, ...extra } : { kind: 'url', url, ...extra };
}

function noImage(what: string): GatewayError {
  return new GatewayError(
    'invalid_response',
    l10n.t(
      'The gateway answered {0} without any image (no b64_json and no url). Nothing was saved; if the relay billed it, its usage log shows the request.',
      what,
    ),
  );
}

/** The images of a `/v1/images/*` answer (`{ data: [{ b64_json | url, revised_prompt }] }`). */
export function imagesFromImagesAnswer(body: unknown, path: string): ImageOutput[] {
  const data = rec(body)?.data;
  const out: ImageOutput[] = [];
  for (const item of Array.isArray(data) ? data : []) {
    const r = rec(item);
    const revised = str(r?.revised_prompt);
    const extra = revised !== undefined ? { revisedPrompt: revised } : {};
    const b64 = str(r?.b64_json);
    const url = str(r?.url);
    if (b64 !== undefined) out.push({ kind: 'b64', data: b64, ...extra });
    else if (url !== undefined) out.push(fromUrl(url, revised));
  }
  if (out.length === 0) throw noImage(path);
  return out;
}

const MARKDOWN_IMAGE = /!\[[^\]]*\]\(\s*<?((?:data:image\/[^)\s>]+)|(?:https?:\/\/[^)\s>]+))>?\s*\)/g;

/** The images of a chat completion's assistant message (the Gemini-class form). */
export function imagesFromChatAnswer(body: unknown): ImageOutput[] {
  const choice = rec((rec(body)?.choices as unknown[] | undefined)?.[0]);
  const message = rec(choice?.message);
  const out: ImageOutput[] = [];
  const part = (p: unknown) => {
    const r = rec(p);
    const iu = r?.image_url;
    const url = str(rec(iu)?.url) ?? str(iu);
    if (url !== undefined && (r?.type === 'image_url' || r?.type === undefined)) out.push(fromUrl(url));
  };
  for (const img of Array.isArray(message?.images) ? message.images : []) part(img);
  const content = message?.content;
  if (Array.isArray(content)) for (const p of content) part(p);
  if (typeof content === 'string') for (const m of content.matchAll(MARKDOWN_IMAGE)) out.push(fromUrl(m[1]!));
  if (out.length === 0) {
    const said = typeof content === 'string' ? content.trim().slice(0, 200) : '';
    if (said) throw refusalOr(noImage(l10n.t('the chat request')), said);
    throw noImage(l10n.t('the chat request'));
  }
  return out;
}

const POLICY =
  /content[_ ]?policy|moderation|safety (system|filter)|blocked|not allowed by our safety|violat|unsafe|sensitive/i;

/** When `text` reads like a refusal, the refusal; else `fallback`. */
function refusalOr(fallback: GatewayError, text: string): GatewayError {
  return POLICY.test(text) ? policyRefusal(text, undefined) : fallback;
}

function policyRefusal(words: string, cause: GatewayError | undefined): GatewayError {
  return new GatewayError(
    'bad_request',
    l10n.t(
      'The gateway refused the image under its content policy: "{0}". The prompt or an input image was judged unsafe, so no image was made and nothing should be billed. Rephrase the prompt (or use another image) and try again.',
      redact(words.replace(/^HTTP \d+ from \S+ \S+: /, '')).slice(0, 300),
    ),
    {
      ...(cause?.status !== undefined ? { status: cause.status } : {}),
      ...(cause?.code !== undefined ? { code: cause.code } : {}),
      ...(cause?.type !== undefined ? { type: cause.type } : {}),
      ...(cause?.requestId !== undefined ? { requestId: cause.requestId } : {}),
      cause,
    },
  );
}

/**
 * A failed image request as the user should read it: a content-policy refusal (OpenAI's
 * `moderation_blocked` / `content_policy_violation`, relays' `sensitive_words_detected`, or a
 * message that says so) becomes one sentence quoting the relay; anything else is left as it is.
 */
export function explainImageFailure(err: unknown): unknown {
  if (!isGatewayError(err, 'bad_request', 'forbidden')) return err;
  const code = `${err.code ?? ''} ${err.type ?? ''}`;
  if (/moderation|content_policy|content_filter|sensitive|safety/i.test(code) || POLICY.test(err.message))
    return policyRefusal(err.message, err);
  return err;
}
