/**
 * The spend caps on the page (`caps/*`), in the panels' chunk: the first-paint bundle is full, so
 * the only first-paint code is the route that loads this chunk on the first `caps/` message. The
 * card that pauses the tool loop (what was spent, what the next step would cost at most,
 * Continue up to … / Stop) and the pre-send line (the next message's prompt at the model's input
 * price, above the user's threshold) are drawn above the message box, into a place of their own.
 */
import { signal } from '@preact/signals';
import { render, type JSX } from 'preact';
import { formatMoney, type MoneyUnit } from '../../../src/shared/money';
import type { CapPause, ConversationCaps, PromptPrice } from '../../../src/shared/protocol';
import type { ChatApp } from '../models/app';
import type { HostMessageIn } from '../models/routes';
import type { Translate } from '../models/strings';
import { announce, post } from '../runtime';

/** What the caps read of the page's models. */
export type CapsApp = Pick<ChatApp, 't' | 'context' | 'composer' | 'conversation'>;

/** The cards waiting for a choice (one per paused turn; several only with several windows' worth). */
const pauses = signal<CapPause[]>([]);
const price = signal<PromptPrice | undefined>(undefined);
let place: HTMLElement | undefined;

/** The host's `caps/*` messages; the first one puts the caps' place above the message box. */
export function onCaps(app: CapsApp, msg: HostMessageIn<'caps'>): void {
  mount(app);
  switch (msg.type) {
    case 'caps/pause':
      pauses.value = [...pauses.value.filter((p) => p.id !== msg.pause.id), msg.pause];
      announce(pauseTitle(app.t, msg.pause));
      return;
    case 'caps/resolved':
      pauses.value = pauses.value.filter((p) => p.id !== msg.id);
      return;
    case 'caps/price':
      price.value = msg.price;
      return;
  }
}

function mount(app: CapsApp): void {
  if (place?.isConnected) return;
  const composer = document.querySelector('.composer');
  if (!composer?.parentElement) return;
  place = document.createElement('div');
  place.className = 'caps-area';
  composer.parentElement.insertBefore(place, composer);
  render(<CapsArea app={app} />, place);
}

function CapsArea({ app }: { app: CapsApp }): JSX.Element {
  return (
    <>
      {pauses.value.map((p) => (
        <CapCard key={p.id} t={app.t} pause={p} />
      ))}
      <PromptCostLine app={app} />
    </>
  );
}

const money = (t: Translate, quota: number, unit: MoneyUnit): string =>
  formatMoney(quota, unit, { precise: true, tokens: (f) => t('{0} tokens', f) });

function pauseTitle(t: Translate, p: CapPause): string {
  return p.kind === 'turn'
    ? t('Paused at your spend cap for this turn')
    : p.kind === 'conversation'
      ? t('Paused at your spend cap for this conversation')
      : t('Paused at your daily limit');
}

/** The card: the figures with their unit, and the two choices. */
export function CapCard({ t, pause: p }: { t: Translate; pause: CapPause }): JSX.Element {
  const decide = (decision: 'continue' | 'stop') => {
    pauses.value = pauses.value.filter((x) => x.id !== p.id);
    post({ type: 'caps/decide', id: p.id, decision });
  };
  return (
    <section
      class="cap-card"
      role="group"
      aria-label={pauseTitle(t, p)}
      data-kind={p.kind}
      // The figures in quota units, for the journeys that check the arithmetic (test/e2e/caps.e2e.ts).
      data-spent={p.spent}
      data-cap={p.cap}
      data-prompt={p.prompt}
    >
      <p class="cap-title">
        <span class="codicon codicon-warning" aria-hidden="true" /> {pauseTitle(t, p)}
      </p>
      <p class="cap-spent">{t('Spent so far: {0} of {1}.', money(t, p.spent, p.unit), money(t, p.cap, p.unit))}</p>
      <p class="cap-next">
        {t(
          'The next step ({0}) would cost at most {1} (its prompt about {2}).',
          p.model,
          money(t, p.atMost, p.unit),
          money(t, p.prompt, p.unit),
        )}
      </p>
      <div class="cap-actions">
        <button type="button" class="text-btn primary" data-action="continue" onClick={() => decide('continue')}>
          {t('Continue up to {0}', money(t, p.upTo, p.unit))}
        </button>
        <button type="button" class="text-btn" data-action="stop" onClick={() => decide('stop')}>
          {t('Stop')}
        </button>
      </div>
    </section>
  );
}

/** Tokens an image is counted as (the host's IMAGE_TOKENS, as the context meter counts it). */
const IMAGE_TOKENS = 1000;

/** The next message's prompt cost, when it is above the user's threshold and nothing runs. */
function PromptCostLine({ app }: { app: CapsApp }): JSX.Element | null {
  const pr = price.value;
  const m = app.context.meter.value;
  if (!pr || !m || app.conversation.busy.value) return null;
  const { draft, images, contexts } = app.composer;
  const typed = draft.value.length + contexts.value.reduce((n, c) => n + c.text.length, 0);
  const tokens =
    m.system +
    m.tools +
    m.history +
    m.attachments +
    Math.ceil(typed / m.charsPerToken) +
    images.value.length * IMAGE_TOKENS;
  const quota = Math.ceil(tokens * pr.perToken);
  if (quota <= pr.above) return null;
  return (
    <p class="cap-prompt" role="status">
      {app.t(
        "The next message's prompt: about {0} ({1} tokens at the price of {2}).",
        money(app.t, quota, pr.unit),
        tokens,
        pr.model,
      )}
    </p>
  );
}

/** The gear panel's cap inputs, read when Apply is pressed. */
export interface CapRefs {
  turn: HTMLInputElement | null;
  conversation: HTMLInputElement | null;
}

/** The conversation's own caps (empty: the user's settings). The host checks them and says what is wrong. */
export function CapFields({
  t,
  caps,
  refs,
}: {
  t: Translate;
  caps: ConversationCaps | undefined;
  refs: { current: CapRefs };
}): JSX.Element {
  const field = (kind: keyof CapRefs, label: string, setting: string) => (
    <label class="field">
      <span>{label}</span>
      <input
        ref={(el) => {
          refs.current[kind] = el;
        }}
        type="number"
        step="any"
        data-key={`cap-${kind}`}
        value={caps?.[kind] === undefined ? '' : String(caps[kind])}
      />
      <small>{t("In the gateway's unit. Empty uses the setting ({0}).", setting)}</small>
    </label>
  );
  return (
    <div class="grid caps-fields">
      {field('turn', t('Spend cap per turn'), 'gatewayStudio.spend.capPerTurn')}
      {field('conversation', t('Spend cap for this conversation'), 'gatewayStudio.spend.capPerConversation')}
    </div>
  );
}

/** Posts the caps the fields hold (an empty field is none: the setting applies). */
export function postCaps(r: CapRefs): void {
  const read = (el: HTMLInputElement | null) => {
    const v = el?.value.trim() ?? '';
    return v === '' ? null : Number(v);
  };
  const turn = read(r.turn);
  const conversation = read(r.conversation);
  // A figure the number field could not read (NaN) is sent as such a figure would be: 0, refused with its line.
  post({
    type: 'caps/set',
    turn: turn === null || Number.isFinite(turn) ? turn : 0,
    conversation: conversation === null || Number.isFinite(conversation) ? conversation : 0,
  });
}
