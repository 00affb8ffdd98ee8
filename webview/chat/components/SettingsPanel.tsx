/** Per-conversation settings: system prompt and chat parameters; empty fields use the settings. */
import type { JSX } from 'preact';
import { useRef } from 'preact/hooks';
import type { ParamOverrides } from '../../../src/shared/protocol';
import { post } from '../runtime';
import { useChat } from '../useChat';
import { TextButton } from './buttons';
import { PanelHead } from './PanelHead';

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
  if (!c || !d) return null;
  const p = c.params;
  const hint = (v: unknown) => t('Empty uses the setting ({0}).', v === null || v === '' ? '—' : String(v));
  const label: Record<NumberKey, string> = {
    temperature: t('Temperature'),
    top_p: t('Top P'),
    max_tokens: t('Max tokens'),
    presence_penalty: t('Presence penalty'),
    frequency_penalty: t('Frequency penalty'),
  };
  const apply = () => {
    const params: ParamOverrides = {};
    for (const { key } of NUMBERS) {
      const el = numbers.current[key];
      if (el && el.value.trim() !== '') params[key] = Number(el.value);
    }
    const stops = (stop.current?.value ?? '').split('\n').filter((s) => s !== '');
    if (stops.length) params.stop = stops;
    const f = fmt.current?.value;
    if (f === 'text' || f === 'json_object') params.response_format = f;
    const streamOn = stream.current?.checked ?? d.stream;
    if (streamOn !== d.stream) params.stream = streamOn;
    const u = user.current?.value.trim() ?? '';
    if (u) params.user = u;
    const s = sys.current?.value ?? '';
    post({ type: 'chat/setParams', params, systemPrompt: s === '' ? null : s });
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
        {NUMBERS.map(({ key, min, max, step }) => {
          const v = p[key];
          return (
            <Field key={key} label={label[key]} hint={hint(d[key])}>
              <input
                ref={(el) => {
                  numbers.current[key] = el;
                }}
                type="number"
                min={String(min)}
                max={max === undefined ? undefined : String(max)}
                step={step}
                value={v === undefined || v === null ? '' : String(v)}
                data-key={key}
                placeholder={d[key] === null ? '' : String(d[key])}
              />
            </Field>
          );
        })}
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
      <div class="panel-actions">
        <TextButton
          icon="discard"
          label={t('Use defaults')}
          onClick={() => post({ type: 'chat/setParams', params: {}, systemPrompt: null })}
        />
        <TextButton icon="check" label={t('Apply')} class="text-btn primary" onClick={apply} />
      </div>
    </section>
  );
}
