/**
 * The agent picker in the header, an answer's agent name and its handoff buttons: a chunk
 * loaded once the first paint is done (lazy.ts), as none of them is needed to show a conversation.
 */
import { useComputed } from '@preact/signals';
import type { JSX } from 'preact';
import type { AssistantMessage } from '../../../src/shared/protocol';
import { agentName, handoffsFor, pickAgent, runHandoff } from '../models/agentActions';
import { useChat } from '../useChat';
import { Icon, TextButton } from './buttons';

export { agentName } from '../models/agentActions';

/** A native select, as the profile's: a closed list with arrows and type-ahead. */
export function AgentPicker(): JSX.Element | null {
  const { t, agents } = useChat();
  const list = agents.list.value;
  if (list.length === 0) return null;
  const active = agents.active.value;
  const current = list.find((a) => a.id === active);
  const title = [current?.description, current?.model ? t('Model: {0}', current.model) : '']
    .filter(Boolean)
    .join(' · ');
  return (
    <span class="model-box agent-box">
      <Icon name="robot" />
      <select
        id="agent"
        aria-label={t('Agent')}
        title={title || undefined}
        value={active}
        onChange={(ev) => pickAgent(agents, ev.currentTarget.value)}
      >
        {list.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name}
          </option>
        ))}
      </select>
    </span>
  );
}

/** The answering agent's name (not for Agent) and its handoffs ("Start implementing" under Plan's). */
export function AnswerAgent({ m }: { m: AssistantMessage }): JSX.Element | null {
  const { agents } = useChat();
  const list = useComputed(() => handoffsFor(agents, m)).value;
  const name = m.agent && m.agent !== 'agent' ? agentName(agents, m.agent) : '';
  if (list.length === 0 && !name) return null;
  return (
    <div class="handoffs">
      {name ? <span class="msg-agent">{name}</span> : null}
      {list.map((h, i) => (
        <TextButton key={i} icon="arrow-right" label={h.label} title={h.prompt} onClick={() => runHandoff(agents, h)} />
      ))}
    </div>
  );
}
