/** The toolbar (new chat, history, profile, model, settings, tools, export) and the panel it opens. */
import type { ComponentChildren, JSX } from 'preact';
import type { PanelName } from '../models/panels';
import { els, post } from '../runtime';
import { useChat } from '../useChat';
import { agentsCode, panelsCode } from '../lazy';
import { Icon, IconButton } from './buttons';
import { ConversationCostLine } from './LazyCost';

function PanelButton({ icon, label, panel }: { icon: string; label: string; panel: PanelName }): JSX.Element {
  const { panels } = useChat();
  return (
    <IconButton
      icon={icon}
      label={label}
      aria-expanded={panels.open.value === panel ? 'true' : 'false'}
      data-panel={panel}
      // The panels' code is a chunk loaded on first use (lazy.ts): pointing at or tabbing to a
      // panel's button starts the load, so it is usually here by the click.
      onPointerEnter={() => void panelsCode.load()}
      onFocus={() => void panelsCode.load()}
      onClick={() => panels.toggle(panel)}
    />
  );
}

export function Header(): JSX.Element {
  const { t, conversation, composer, panels } = useChat();
  const open = panels.open.value;
  // Set before a panel opens (models/panels.ts waits for it).
  const code = panelsCode.value.value;
  const totalTokens = conversation.totalTokens;
  const setModel = (model: string) => {
    conversation.setModel(model);
    composer.renderAttachments();
  };
  return (
    <header class="header">
      <div class="toolbar" role="toolbar" aria-label={t('Chat actions')}>
        <IconButton icon="add" label={t('New chat')} onClick={() => post({ type: 'chat/new' })} />
        <PanelButton icon="history" label={t('History')} panel="history" />
        <ProfileSwitcher />
        <LazyAgentPicker />
        <PickerBox icon="hubot">
          <input
            type="text"
            id="model"
            list="model-list"
            spellcheck={false}
            autocomplete="off"
            aria-label={t('Model')}
            ref={(el) => {
              els.model = el ?? undefined;
            }}
            onChange={(ev) => setModel(ev.currentTarget.value.trim())}
          />
          <ModelList />
        </PickerBox>
        <IconButton icon="refresh" label={t('Refresh models')} onClick={() => post({ type: 'models/refresh' })} />
        <PanelButton icon="settings" label={t('Conversation settings')} panel="settings" />
        <PanelButton icon="tools" label={t('Tools')} panel="tools" />
        <IconButton icon="export" label={t('Export to Markdown')} onClick={() => post({ type: 'history/export' })} />
        <span class="toolbar-info">
          <ModelInfo />
          <span class="usage-total">
            {totalTokens.value ? t('Conversation total: {0} tokens', totalTokens.value) : ''}
          </span>
          <ConversationCostLine />
        </span>
      </div>
      <div class="panel" hidden={!open}>
        {!code ? null : open === 'history' ? (
          <code.HistoryPanel />
        ) : open === 'settings' ? (
          <code.SettingsPanel />
        ) : open === 'tools' ? (
          <code.ToolsPanel />
        ) : null}
      </div>
    </header>
  );
}

/** A header picker: its icon and a native control, which brings the keyboard and the screen reader's ways. */
function PickerBox({ icon, cls, children }: { icon: string; cls?: string; children: ComponentChildren }): JSX.Element {
  return (
    <span class={cls ? `model-box ${cls}` : 'model-box'}>
      <Icon name={icon} />
      {children}
    </span>
  );
}

/**
 * The gateway profile, switched here as by the status bar or the command. With one profile there
 * is nothing to switch and nothing is shown (as the status bar item), so a user who never made a
 * second profile sees the header as before. A native select: a closed list, arrows and type-ahead.
 */
function ProfileSwitcher(): JSX.Element | null {
  const { t, profiles } = useChat();
  const list = profiles.list.value;
  const active = profiles.active.value;
  // Read so that every answer of the host renders again, and the select shows the host's choice.
  void profiles.version.value;
  if (list.length < 2) return null;
  const name = list.find((p) => p.id === active)?.name ?? active;
  return (
    <PickerBox icon="plug" cls="profile-box">
      <select
        id="profile"
        class="profile-select"
        aria-label={t('Gateway profile')}
        title={t('Gateway profile: {0}', name)}
        value={active}
        onChange={(ev) => profiles.switchTo(ev.currentTarget.value)}
      >
        {list.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
    </PickerBox>
  );
}

/** The agent picker, once its chunk is here (requested after the first paint, see app.tsx). */
function LazyAgentPicker(): JSX.Element | null {
  const code = agentsCode.value.value;
  return code ? <code.AgentPicker /> : null;
}

function ModelList(): JSX.Element {
  const { modelList } = useChat();
  return (
    <datalist id="model-list">
      {modelList.list.value.map((m, i) => (
        <option key={i} value={m.id}>
          {m.capabilities.length ? `${m.id} — ${m.capabilities.join(', ')}` : m.id}
        </option>
      ))}
    </datalist>
  );
}

function ModelInfo(): JSX.Element {
  const { t, conversation, modelList } = useChat();
  const model = conversation.currentModel.value;
  const info = modelList.info(model);
  let content: JSX.Element | string | null = null;
  if (modelList.loading.value) content = t('Loading models…');
  else if (info) {
    content = (
      <>
        <Icon name={info.supportsImages ? 'file-media' : 'circle-slash'} />{' '}
        {info.supportsImages ? t('Supports images') : t('No image input listed')}
        {info.reasoningEffort ? (
          <span class="model-effort" title={t('Reasoning effort')}>
            {' · '}
            <Icon name="lightbulb" /> {t('Effort: {0}', info.reasoningEffort)}
          </span>
        ) : null}
      </>
    );
  } else if (model && modelList.list.value.length)
    content = t('Custom model id: not in the list from /v1/models, sent as typed.');
  return <span class="model-info">{content}</span>;
}
