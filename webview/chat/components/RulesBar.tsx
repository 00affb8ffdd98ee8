/**
 * Above the composer: the rules files in effect as chips (each switched off or on for this
 * conversation with its checkbox, opened with its name), the untrusted-workspace notice, the
 * size warnings and "Show what is sent".
 */
import type { JSX } from 'preact';
import type { RuleChip } from '../../../src/shared/protocol';
import { post } from '../runtime';
import { useChat } from '../useChat';
import { Icon, TextButton } from './buttons';

/** The rules in effect, each switched off or on for this conversation, opened with its name. */
function RuleChips({ chips, off }: { chips: RuleChip[]; off: Set<string> }): JSX.Element {
  const { t } = useChat();
  return (
    <div class="rules-chips" role="group" aria-label={t('Rules in effect')}>
      {chips.map((r) => (
        <span key={r.id} class={`chip rule-chip${off.has(r.id) ? ' off' : ''}`} data-rule={r.id}>
          <input
            type="checkbox"
            checked={!off.has(r.id)}
            aria-label={t('Send {0} with this conversation', r.id)}
            title={t('Send {0} with this conversation', r.id)}
            onChange={(ev) => post({ type: 'prompt/setRuleEnabled', id: r.id, enabled: ev.currentTarget.checked })}
          />
          <button
            type="button"
            class="rule-open"
            title={
              r.kind === 'setting'
                ? t(
                    "This workspace's system prompt (gatewayStudio.chat.systemPrompt), sent as a project rule: click to open {0}",
                    r.id,
                  )
                : r.why
                  ? `${t('Rules file {0}: click to open', r.id)} (${r.why})`
                  : t('Rules file {0}: click to open', r.id)
            }
            onClick={() => post({ type: 'prompt/openRule', id: r.id })}
          >
            <Icon name={r.kind === 'setting' ? 'settings-gear' : 'book'} />
            <span>{r.kind === 'setting' ? t('System prompt from {0}', r.id) : r.id}</span>
            {r.why ? <small class="rule-why">{r.why}</small> : null}
          </button>
          {r.truncated ? <Icon name="warning" /> : null}
        </span>
      ))}
    </div>
  );
}

export function RulesBar(): JSX.Element {
  const { t, conversation, rules } = useChat();
  const { chips, blocked, warnings } = rules.rules.value;
  const off = new Set(conversation.meta.value?.disabledRules ?? []);
  // The user's own files (home folder, profile) are sent in Restricted Mode too; the workspace's wait.
  const workspace = blocked ? chips.filter((r) => !r.user) : [];
  const shown = blocked ? chips.filter((r) => r.user) : chips;
  return (
    <div class="rules-bar">
      {shown.length > 0 ? <RuleChips chips={shown} off={off} /> : null}
      {workspace.length > 0 ? (
        <div class="rules-blocked" role="note">
          <p>
            <Icon name="shield" />{' '}
            {t(
              'This workspace is not trusted (Restricted Mode), so its rules files are not sent: text in a repository can try to steer the assistant (prompt injection). Read them first, then allow them if you trust them.',
            )}
          </p>
          <div class="rules-blocked-files">
            {workspace.map((r) => (
              <button
                key={r.id}
                type="button"
                class="rule-open"
                onClick={() => post({ type: 'prompt/openRule', id: r.id })}
              >
                <Icon name="book" />
                <span>{r.id}</span>
              </button>
            ))}
            <TextButton
              icon="check"
              class="text-btn allow-rules"
              label={t('Allow rules for this workspace')}
              onClick={() => post({ type: 'prompt/allowUntrustedRules' })}
            />
          </div>
        </div>
      ) : null}
      {warnings.map((w, i) => (
        <p key={i} class="rules-warning warning">
          <Icon name="warning" /> {w}
        </p>
      ))}
      <TextButton
        icon="eye"
        class="text-btn show-prompt"
        label={t('Show what is sent')}
        onClick={() => post({ type: 'prompt/show' })}
      />
    </div>
  );
}
