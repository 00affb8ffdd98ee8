/**
 * The context meter above the composer: the next request's tokens (what the host estimated,
 * plus the typed draft) over the model's window, coloured as it fills, the figures in its
 * tooltip; Compact conversation; and, when the tools and the system prompt alone do not fit,
 * one click each to send without tools or with read-only tools only (remembered per model).
 */
import type { JSX } from 'preact';
import type { ContextMeter as Meter } from '../../../src/shared/protocol';
import { post } from '../runtime';
import type { Translate } from '../models/strings';
import { useChat } from '../useChat';
import { IconButton, TextButton } from './buttons';

/** Tokens an image is counted as (the host's IMAGE_TOKENS). */
const IMAGE_TOKENS = 765;

function sourceText(m: Meter, t: Translate): string {
  switch (m.source) {
    case 'model':
      return m.field ? t('the model list ({0})', m.field) : t('the model list');
    case 'override':
      return t('the setting gatewayStudio.models.overrides');
    case 'error':
      return t("the server's overflow error");
    default:
      return t('the default (the model does not state it)');
  }
}

/** The meter's tooltip: the figures behind it, one a line. */
function tooltipOf(m: Meter, t: Translate, used: number, percent: number, typed: number): string {
  return [
    t('Context: {0} of {1} tokens ({2}%)', used, m.window, percent),
    t('System and rules: {0}', m.system),
    t('Tool definitions: {0}', m.tools),
    t('History: {0}', m.history),
    t('Attachments: {0}', m.attachments),
    t('Typed message: {0}', typed),
    t('Reserve for the answer: {0}', m.reserve),
    t('Window: {0} tokens, from {1}', m.window, sourceText(m, t)),
    ...(m.lastPromptTokens !== undefined ? [t('Last request, counted by the server: {0}', m.lastPromptTokens)] : []),
  ].join('\n');
}

/** The tools and the system prompt alone do not fit: send without tools, or with read-only ones. */
function FixedTooLarge({ m, t }: { m: Meter; t: Translate }): JSX.Element {
  return (
    <div class="context-fixed" role="alert">
      <p>
        {t(
          'The tool definitions ({0}) and the system prompt ({1}) with room for an answer ({2}) exceed the window ({3} tokens).',
          m.tools,
          m.system,
          m.reserve,
          m.window,
        )}
      </p>
      <TextButton
        icon="circle-slash"
        label={t('Send without tools')}
        onClick={() => post({ type: 'context/toolMode', mode: 'none' })}
      />
      <TextButton
        icon="eye"
        label={t('Read-only tools only')}
        onClick={() => post({ type: 'context/toolMode', mode: 'readOnly' })}
      />
    </div>
  );
}

export function ContextMeter(): JSX.Element | null {
  const { t, conversation, composer, context } = useChat();
  const { draft, images, contexts } = composer;
  const m = context.meter.value;
  if (!m) return null;
  const typed =
    Math.ceil(draft.value.length / m.charsPerToken) +
    images.value.length * IMAGE_TOKENS +
    Math.ceil(contexts.value.reduce((n, c) => n + c.text.length, 0) / m.charsPerToken);
  const used = m.system + m.tools + m.history + m.attachments + typed;
  const share = Math.min(1, (used + m.reserve) / m.window);
  const percent = Math.round((used / m.window) * 100);
  const level = m.fixedTooLarge || share >= 0.95 ? 'full' : share >= 0.75 ? 'high' : 'ok';
  const tooltip = tooltipOf(m, t, used, percent, typed);
  return (
    <div class={`context-meter context-${level}`} data-level={level}>
      <div class="context-row">
        <span
          class="context-bar"
          role="meter"
          aria-label={t('Context window')}
          aria-valuemin={0}
          aria-valuemax={m.window}
          aria-valuenow={used}
          title={tooltip}
        >
          <span class="context-fill" style={{ width: `${Math.round(share * 100)}%` }} />
        </span>
        <span class="context-text" title={tooltip}>
          {t('{0} of {1} tokens', used, m.window)}
        </span>
        {m.toolMode !== 'all' ? (
          <span class="context-tools">
            {m.toolMode === 'none' ? t('Tools: off') : t('Tools: read-only')}{' '}
            <TextButton
              icon="tools"
              label={t('All tools')}
              onClick={() => post({ type: 'context/toolMode', mode: 'all' })}
            />
          </span>
        ) : null}
        <IconButton
          icon="fold"
          label={t('Compact conversation')}
          onClick={() => {
            if (!conversation.busy.value) post({ type: 'context/compact' });
          }}
        />
      </div>
      {m.fixedTooLarge ? <FixedTooLarge m={m} t={t} /> : null}
    </div>
  );
}
