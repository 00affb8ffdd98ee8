/** Per-conversation settings: system prompt and chat parameters; empty fields use the settings. */
import type { JSX, RefObject } from 'preact';
import { useRef } from 'preact/hooks';
import type { ChatParams, ParamOverrides } from '../../../src/shared/protocol';
import type { Translate } from '../models/strings';
import { post } from '../runtime';
import { useChat } from '../useChat';
import { TextButton } from './buttons';
import { PanelHead } from './PanelHead';
import { CapFields, postCaps, type CapRefs } from './CapsCard';

type NumberKey = 'temperature' | 'top_p' | 'max_tokens' | 'presence_penalty' | 'frequency_penalty';
const NUMBERS: Array<{ key: NumberKey; min: number; max?: number; step: string }> = [
  { key: 'temperature', min: 0, max: 2, step: '0.1' },
  { key: 'top_p', min: 0, max: 1, step: '0.05' },
  { key: 'max_tokens', min: 1, step: '1' },
  { key: 'presence_penalty', min: -2, max: 2, step: '0.1' },
  { key: 'frequency_penalty', min: -2, max: 2, step: '0.1' },
];

export function SettingsPanel(): JSX.Element | null {
  const { conversation } = useChat();
  // The fields are the user's until the host sends the conversation again: then they start over.
  return <SettingsForm key={conversation.version.value} />;
}

function Field({ label, hint, children }: { label: string; hint?: string; children: JSX.Element }): JSX.Element {
  return (
    <label class="field">
      <span>{label}</span>
      {children}
      {hint ? <small>{hint}</small> : null}
    </label>
  );
}

/** The form's fields, read when Apply is pressed (the inputs are left to the user until then). */
interface FormRefs {
  numbers: RefObject<Partial<Record<NumberKey, HTMLInputElement | null>>>;
  sys: RefObject<HTMLTextAreaElement | null>;
  fmt: RefObject<HTMLSelectElement | null>;
  stop: RefObject<HTMLTextAreaElement | null>;
  stream: RefObject<HTMLInputElement | null>;
  user: RefObject<HTMLInputElement | null>;
}

/** The overrides the form holds (an empty field is no override) and its system prompt (empty: none). */
function readForm(r: FormRefs, d: ChatParams): { params: ParamOverrides; systemPrompt: string | null } {
  const params: ParamOverrides = {};
  for (const { key } of NUMBERS) {
    const el = r.numbers.current?.[key];
    if (el && el.value.trim() !== '') params[key] = Number(el.value);
  }
  const stops = (r.stop.current?.value ?? '').split('\n').filter((s) => s !== '');
  if (stops.length) params.stop = stops;
  const f = r.fmt.current?.value;
  if (f === 'text' || f === 'json_object') params.response_format = f;
  const streamOn = r.stream.current?.checked ?? d.stream;
  if (streamOn !== d.stream) params.stream = streamOn;
  const u = r.user.current?.value.trim() ?? '';
  if (u) params.user = u;
  const s = r.sys.current?.value ?? '';
  return { params, systemPrompt: s === '' ? null : s };
}

/** One number parameter: the conversation's value, the setting's as placeholder and hint. */
function NumberField({
  n: { key, min, max, step },
  value,
  fallback,
  label,
  hint,
  numbers,
}: {
  n: (typeof NUMBERS)[number];
  value: number | null | undefined;
  fallback: number | null;
  label: string;
  hint: string;
  numbers: FormRefs['numbers'];
}): JSX.Element {
  return (
    <Field label={label} hint={hint}>
      <input
        ref={(el) => {
          if (numbers.current) numbers.current[key] = el;
        }}
        type="number"
        min={String(min)}
        max={max === undefined ? undefined : String(max)}
        step={step}
        value={value === undefined || value === null ? '' : String(value)}
        data-key={key}
        placeholder={fallback === null ? '' : String(fallback)}
      />
    </Field>
  );
}

/** The number fields' labels in the page's language. */
function numberLabels(t: Translate): Record<NumberKey, string> {
  return {
    temperature: t('Temperature'),
    top_p: t('Top P'),
    max_tokens: t('Max tokens'),
    presence_penalty: t('Presence penalty'),
    frequency_penalty: t('Frequency penalty'),
  };
}

/** Use defaults: no overrides, the settings' system prompt, the settings' caps. */
function resetToDefaults(): void {
  post({ type: 'chat/setParams', params: {}, systemPrompt: null });
  post({ type: 'caps/set', turn: null, conversation: null });
}

function SettingsForm(): JSX.Element | null {
  const { t, conversation } = useChat();
  const c = conversation.meta.peek();
  const d = conversation.defaults.peek();
  const numbers = useRef<Partial<Record<NumberKey, HTMLInputElement | null>>>({});
  const sys = useRef<HTMLTextAreaElement>(null);
  const fmt = useRef<HTMLSelectElement>(null);
  const stop = useRef<HTMLTextAreaElement>(null);
  const stream = useRef<HTMLInputElement>(null);
  const user = useRef<HTMLInputElement>(null);
  const caps = useRef<CapRefs>({ turn: null, conversation: null });
  if (!c || !d) return null;
  const p = c.params;
  const hint = (v: unknown) => t('Empty uses the setting ({0}).', v === null || v === '' ? '—' : String(v));
  const label = numberLabels(t);
  const apply = () => {
    post({ type: 'chat/setParams', ...readForm({ numbers, sys, fmt, stop, stream, user }, d) });
    postCaps(caps.current);
  };
  return (
    <section class="panel-body settings" aria-label={t('Conversation settings')}>
      <PanelHead title={t('Conversation settings')} />
      <Field label={t('System prompt')}>
        <textarea
          ref={sys}
          rows={3}
          data-key="systemPrompt"
          placeholder={conversation.defaultSystemPrompt.peek()}
          value={c.systemPrompt ?? ''}
        />
      </Field>
      <div class="grid">
        {NUMBERS.map((n) => (
          <NumberField
            key={n.key}
            n={n}
            value={p[n.key]}
            fallback={d[n.key]}
            label={label[n.key]}
            hint={hint(d[n.key])}
            numbers={numbers}
          />
        ))}
        <Field label={t('Response format')}>
          <select ref={fmt} data-key="response_format">
            <option value="">{`(${d.response_format})`}</option>
            <option value="text" selected={p.response_format === 'text'}>
              {t('Text')}
            </option>
            <option value="json_object" selected={p.response_format === 'json_object'}>
              {t('JSON object')}
            </option>
          </select>
        </Field>
      </div>
      <Field label={t('Stop sequences (one per line, up to 4)')}>
        <textarea
          ref={stop}
          rows={2}
          data-key="stop"
          placeholder={d.stop.join('\n')}
          value={(p.stop ?? []).join('\n')}
        />
      </Field>
      <Field label={t('End-user id')} hint={hint(d.user)}>
        <input ref={user} type="text" value={p.user ?? ''} placeholder={d.user} />
      </Field>
      <label class="check">
        <input ref={stream} type="checkbox" checked={p.stream ?? d.stream} />
        <span>{t('Stream the answer')}</span>
      </label>
      <CapFields t={t} caps={c.caps} refs={caps} />
      <div class="panel-actions">
        <TextButton icon="discard" label={t('Use defaults')} onClick={resetToDefaults} />
        <TextButton icon="check" label={t('Apply')} class="text-btn primary" onClick={apply} />
      </div>
    </section>
  );
}
