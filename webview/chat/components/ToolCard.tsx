/**
 * One tool call: its arguments, the approval buttons while it waits, its result. The live state
 * from the host (`tools/call`) wins; without one the card is built from the conversation.
 */
import type { JSX } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { ToolCallUpdate, ToolDecision } from '../../../src/shared/protocol';
import type { WebviewString } from '../../../src/shared/webviewStrings';
import { visibleText } from '../../../src/shared/commandDisplay';
import { highlightCode } from '../markdown';
import { announce, cardEls, focusOnMount, post } from '../runtime';
import type { ToolsModel } from '../models/tools';
import { useChat } from '../useChat';
import { Icon, TextButton } from './buttons';
import { CommandLine, commandOf } from './CommandLine';
import { VideoTaskCard } from './VideoTaskCard';
import type * as AskModule from './AskCard';

/** ask_user's question: a chunk of its own, loaded when the model first asks. */
type AskChunk = Pick<typeof AskModule, 'AskCard'>;
let askChunk: AskChunk | undefined;

/** The question card's code once `on` (a card of ask_user) needed it; the card renders again when it is here. */
function useAskCard(on: boolean): AskChunk | undefined {
  const [, loaded] = useState(0);
  useEffect(() => {
    if (on && !askChunk)
      void import('./AskCard').then((m) => {
        askChunk = { AskCard: m.AskCard };
        loaded((n) => n + 1);
      });
  }, [on]);
  return on ? askChunk : undefined;
}

const STATE_LABEL: Record<ToolCallUpdate['state'], WebviewString> = {
  'awaiting-approval': 'Waiting for your approval',
  running: 'Running',
  done: 'Done',
  denied: 'Denied',
  error: 'Failed',
};
const STATE_ICON: Record<ToolCallUpdate['state'], string> = {
  'awaiting-approval': 'question',
  running: 'loading',
  done: 'pass',
  denied: 'circle-slash',
  error: 'error',
};

/** A call as the conversation records it: done when a result is stored, else never run. */
function fromHistory(tools: ToolsModel, callId: string, name: string, args: string): ToolCallUpdate {
  const result = tools.result(callId).value;
  const tool = tools.list.value.find((x) => x.name === name);
  return {
    callId,
    name,
    argumentsJson: args,
    state: result ? 'done' : 'denied',
    readOnly: tool?.readOnly ?? false,
    resultPreview: result?.content.slice(0, 2000),
    ...(tool?.preview ? { preview: tool.preview } : {}),
  };
}

/** The card's state: the host's live one (with a result stored before it said so), else the conversation's. */
function shownUpdate(
  tools: ToolsModel,
  callId: string,
  liveUpdate: ToolCallUpdate | undefined,
  name: string | undefined,
  args: string | undefined,
): ToolCallUpdate | undefined {
  let u = liveUpdate;
  if (u && u.resultPreview === undefined) {
    // The result was stored before the host's card said so.
    const result = tools.result(callId).value;
    if (result) u = { ...u, resultPreview: result.content.slice(0, 2000) };
  }
  if (!u && name !== undefined) u = fromHistory(tools, callId, name, args ?? '');
  return u;
}

/** The arguments indented, with blank runs and invisible characters shown as markers, never hidden. */
function prettyArguments(json: string): string {
  let pretty = json;
  try {
    pretty = JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    // Invalid JSON from the model is shown as it came; the tools side answers the model.
  }
  return visibleText(pretty, { keepIndent: true });
}

/** Allow, Deny and (for a read-only tool that may) Always allow. */
function Approval({
  update,
  disabled,
  decide,
}: {
  update: ToolCallUpdate;
  disabled: boolean;
  decide: (d: ToolDecision) => void;
}): JSX.Element {
  const { t } = useChat();
  return (
    <div class="tc-actions">
      <TextButton
        icon="check"
        label={t('Allow')}
        class="text-btn primary"
        disabled={disabled}
        onClick={() => decide('allow')}
      />
      <TextButton icon="close" label={t('Deny')} disabled={disabled} onClick={() => decide('deny')} />
      {update.readOnly && !update.askEveryTime ? (
        <TextButton
          icon="check-all"
          label={t('Always allow')}
          disabled={disabled}
          onClick={() => decide('alwaysAllow')}
        />
      ) : null}
    </div>
  );
}

/** The tool's name, whether it only reads, and the call's state. */
function CardHead({ update }: { update: ToolCallUpdate }): JSX.Element {
  const { t } = useChat();
  // A question runs while it waits for the user: no spinner, and it says what it waits for.
  const asking = update.name === 'ask_user' && update.state === 'running';
  return (
    <div class="tc-head">
      <Icon name="tools" />
      <strong class="tc-name">{update.name}</strong>
      {update.readOnly ? <span class="badge">{t('read-only')}</span> : null}
      {update.source ? <span class="tc-src">{update.source}</span> : null}
      <span class="tc-state" role="status">
        <Icon name={STATE_ICON[update.state]} spin={update.state === 'running' && !asking} />{' '}
        {asking ? t('Waiting for your answer') : t(STATE_LABEL[update.state])}
      </span>
    </div>
  );
}

/** What the call carries: ask_user's question once its chunk is here (the question is its arguments), else the arguments. */
function CallArguments({
  callId,
  update,
  ask,
}: {
  callId: string;
  update: ToolCallUpdate;
  ask: AskChunk | undefined;
}): JSX.Element {
  const { t } = useChat();
  if (ask) {
    const send = (answer: AskModule.Answer) => post({ type: 'tools/answer', callId, answer });
    return <ask.AskCard callId={callId} update={update} actions={{ send, say: announce }} />;
  }
  const pretty = prettyArguments(update.argumentsJson);
  return (
    <details class="tc-args" open={update.state === 'awaiting-approval'}>
      <summary>{t('Arguments')}</summary>
      <pre>
        <code class="hljs language-json" dangerouslySetInnerHTML={{ __html: highlightCode(pretty, 'json') }} />
      </pre>
    </details>
  );
}

export function ToolCard({ callId, name, args }: { callId: string; name?: string; args?: string }): JSX.Element | null {
  const { t, tools } = useChat();
  const liveUpdate = tools.update(callId).value;
  const video = tools.videoTask(callId).value;
  const u = shownUpdate(tools, callId, liveUpdate, name, args);
  const ref = useRef<HTMLElement>(null);
  // Buttons are disabled once a decision is sent, until the host's next update for the card.
  const [decided, setDecided] = useState<ToolCallUpdate | undefined>(undefined);
  const ask = useAskCard(u?.name === 'ask_user');
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return undefined;
    cardEls.set(callId, el);
    // The card asked for approval before its code was loaded (tools model): it takes focus now.
    if (focusOnMount.delete(callId) && u?.state === 'awaiting-approval')
      el.querySelector<HTMLButtonElement>('.tc-actions button')?.focus();
    return () => {
      if (cardEls.get(callId) === el) cardEls.delete(callId);
    };
  }, [callId, u === undefined]);
  if (!u) return null;
  const update = u;
  const command = update.preview === 'command' ? commandOf(update.argumentsJson) : undefined;
  const disabled = decided !== undefined && decided === liveUpdate;
  const decide = (decision: ToolDecision) => {
    setDecided(liveUpdate);
    post({ type: 'tools/decide', callId, decision });
  };
  return (
    <section
      ref={ref}
      class={`toolcard state-${update.state}`}
      data-call-id={callId}
      aria-label={t('Tool call: {0}', update.name)}
    >
      <CardHead update={update} />
      {command !== undefined ? <CommandLine command={command} /> : null}
      <CallArguments callId={callId} update={update} ask={ask} />
      {update.warning && update.state === 'awaiting-approval' ? (
        <p class="tc-note tc-warning" role="alert">
          <Icon name="warning" /> {update.warning}
        </p>
      ) : null}
      {update.state === 'awaiting-approval' && update.preview === 'command' ? (
        <p class="tc-note">
          <Icon name="info" /> {t("A command's effects are not recorded in checkpoints: Restore cannot undo them.")}
        </p>
      ) : null}
      {update.hookOutput !== undefined ? (
        <details class="tc-hooks" open={update.state === 'denied'}>
          <summary>{t('Hook output')}</summary>
          <pre>{update.hookOutput}</pre>
        </details>
      ) : null}
      {update.state === 'awaiting-approval' ? <Approval update={update} disabled={disabled} decide={decide} /> : null}
      {video ? <VideoTaskCard callId={callId} task={video} /> : null}
      {update.resultPreview !== undefined ? (
        <details class="tc-result">
          <summary>{t('Result')}</summary>
          <pre>{update.resultPreview}</pre>
        </details>
      ) : null}
    </section>
  );
}
