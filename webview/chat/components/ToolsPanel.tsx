/** The tools panel: enable and trust each tool, and choose tool_choice. */
import type { JSX } from 'preact';
import type { ToolChoiceSetting, ToolInfo } from '../../../src/shared/protocol';
import { post } from '../runtime';
import { useChat } from '../useChat';
import { PanelHead } from './PanelHead';

export function ToolsPanel(): JSX.Element {
  const { tools } = useChat();
  const list = tools.list.value;
  const choice = tools.choice.value;
  // Every list the host sends starts the controls over, so each shows the host's state.
  return <ToolsBody key={tools.version.value} list={list} choice={choice} />;
}

function ToolsBody({ list, choice }: { list: ToolInfo[]; choice: ToolChoiceSetting }): JSX.Element {
  const { t } = useChat();
  return (
    <section class="panel-body" aria-label={t('Tools')}>
      <PanelHead title={t('Tools')} />
      <label class="field">
        <span>{t('Tool choice')}</span>
        <select
          aria-label={t('Tool choice')}
          onChange={(ev) => {
            const v = ev.currentTarget.value;
            const next: ToolChoiceSetting = v === 'auto' || v === 'none' ? v : { name: v.slice('tool:'.length) };
            post({ type: 'tools/setChoice', choice: next });
          }}
        >
          <option value="auto" selected={choice === 'auto'}>
            {t('Automatic')}
          </option>
          <option value="none" selected={choice === 'none'}>
            {t('None (answer without tools)')}
          </option>
          {list
            .filter((x) => x.enabled)
            .map((x) => (
              <option
                key={x.name}
                value={`tool:${x.name}`}
                selected={typeof choice === 'object' && choice.name === x.name}
              >
                {t('Always call {0}', x.name)}
              </option>
            ))}
        </select>
      </label>
      <ul class="tools-list">
        {list.length === 0 ? <li class="empty">{t('No tools are available.')}</li> : null}
        {list.map((tool) => (
          <li key={tool.name}>
            <div>
              <strong>{tool.name}</strong>
              {tool.readOnly ? <span class="badge">{t('read-only')}</span> : null}
            </div>
            <small>{tool.description}</small>
            <div class="tool-toggles">
              <label>
                <input
                  type="checkbox"
                  checked={tool.enabled}
                  aria-label={`${t('Enabled')}: ${tool.name}`}
                  onChange={(ev) =>
                    post({ type: 'tools/setEnabled', name: tool.name, enabled: ev.currentTarget.checked })
                  }
                />
                {t('Enabled')}
              </label>
              <label>
                <input
                  type="checkbox"
                  checked={tool.trusted}
                  aria-label={`${t('Always allow (trusted)')}: ${tool.name}`}
                  onChange={(ev) =>
                    post({ type: 'tools/setTrusted', name: tool.name, trusted: ev.currentTarget.checked })
                  }
                />
                {t('Always allow (trusted)')}
              </label>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
