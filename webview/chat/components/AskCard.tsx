/**
 * An ask_user card's question (a chunk of its own, loaded by ToolCard when the model asks): the
 * options as a radio group (arrow keys move, Enter or Space answers, a number key answers with
 * that option), and a box for the user's own words when the model allows them. Focus moves here
 * when the question arrives. The answer goes to the host as `tools/answer`.
 */
import type { JSX, RefObject } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { ToolCallUpdate } from '../../../src/shared/protocol';
import { useChat } from '../useChat';

/** An answer as `tools/answer` carries it. */
export type Answer = { choice: number } | { text: string };

/**
 * What the card does through its tool card (which holds the page's runtime): send the answer,
 * and say something to a screen reader. Kept out of this chunk, so it shares no module the page's
 * first paint splits differently.
 */
export interface AskActions {
  send(answer: Answer): void;
  say(text: string): void;
}

interface Question {
  question: string;
  options: string[];
  allowText: boolean;
}

/** The question in the call's arguments; undefined when they are not one (the host said so to the model). */
function questionOf(argumentsJson: string): Question | undefined {
  try {
    const a = JSON.parse(argumentsJson) as Record<string, unknown>;
    const options = Array.isArray(a['options']) ? a['options'].filter((o): o is string => typeof o === 'string') : [];
    if (typeof a['question'] !== 'string' || options.length < 2) return undefined;
    return { question: a['question'], options: options.slice(0, 6), allowText: a['allowText'] === true };
  } catch {
    return undefined;
  }
}

/** Where a key moves the active option, or the option a number key answers with. */
function keyAction(key: string, i: number, n: number): { move: number } | { pick: number } | undefined {
  if (key === 'ArrowDown' || key === 'ArrowRight') return { move: (i + 1) % n };
  if (key === 'ArrowUp' || key === 'ArrowLeft') return { move: (i - 1 + n) % n };
  if (key === 'Home') return { move: 0 };
  if (key === 'End') return { move: n - 1 };
  if (key === 'Enter' || key === ' ') return { pick: i };
  const digit = /^[1-6]$/.test(key) ? Number(key) - 1 : -1;
  return digit >= 0 && digit < n ? { pick: digit } : undefined;
}

function OwnWords({ disabled, send }: { disabled: boolean; send: (text: string) => void }): JSX.Element {
  const { t } = useChat();
  const [text, setText] = useState('');
  const answer = () => {
    if (text.trim()) send(text);
  };
  return (
    <div class="ask-own">
      <input
        type="text"
        class="ask-text"
        maxLength={4000}
        aria-label={t('Your own answer')}
        placeholder={t('Your own answer')}
        disabled={disabled}
        value={text}
        onInput={(ev) => setText(ev.currentTarget.value)}
        onKeyDown={(ev) => {
          if (ev.key === 'Enter' && !ev.isComposing) {
            ev.preventDefault();
            answer();
          }
        }}
      />
      <button type="button" class="text-btn" disabled={disabled || !text.trim()} onClick={answer}>
        <span>{t('Answer')}</span>
      </button>
    </div>
  );
}

/**
 * The question is what the turn waits for: focus and the screen reader go to it when it starts
 * waiting (`said`: what to read out; undefined while it does not wait).
 */
function useQuestionFocus(
  group: RefObject<HTMLDivElement | null>,
  said: string | undefined,
  actions: AskActions,
  callId: string,
): void {
  useLayoutEffect(() => {
    if (said === undefined) return;
    group.current?.querySelector<HTMLElement>('[role="radio"][tabindex="0"]')?.focus();
    actions.say(said);
  }, [callId, said !== undefined]);
}

/** Once answered, the option the result names (the result is the host's words), else -1. */
function answeredOption(update: ToolCallUpdate): number {
  return Number(/^The user chose option (\d+)/.exec(update.resultPreview ?? '')?.[1] ?? 0) - 1;
}

/** One option: a radio of the group, in the Tab order when it is the active one. */
function Option(p: {
  n: number;
  label: string;
  checked: boolean;
  active: boolean;
  disabled: boolean;
  pick: () => void;
}): JSX.Element {
  return (
    <button
      type="button"
      role="radio"
      class="ask-option"
      aria-checked={p.checked}
      tabIndex={p.active ? 0 : -1}
      aria-disabled={p.disabled}
      onClick={p.pick}
    >
      <span class="ask-n" aria-hidden="true">
        {p.n}
      </span>
      <span>{p.label}</span>
    </button>
  );
}

export function AskCard({
  callId,
  update,
  actions,
}: {
  callId: string;
  update: ToolCallUpdate;
  actions: AskActions;
}): JSX.Element | null {
  const { t } = useChat();
  const q = questionOf(update.argumentsJson);
  const waiting = update.state === 'running';
  const [active, setActive] = useState(0);
  // Sent, until the host's next state for the card (a refused answer leaves it running: try again).
  const [sentFor, setSentFor] = useState<ToolCallUpdate | undefined>(undefined);
  const group = useRef<HTMLDivElement>(null);
  const disabled = !waiting || sentFor === update;
  useQuestionFocus(group, waiting && q ? `${t('Question from the model')}: ${q.question}` : undefined, actions, callId);
  if (!q) return null;
  const pick = (i: number) => {
    if (disabled) return;
    setSentFor(update);
    actions.send({ choice: i });
  };
  const onKeyDown = (ev: KeyboardEvent) => {
    const act = keyAction(ev.key, active, q.options.length);
    if (!act) return;
    ev.preventDefault();
    if ('pick' in act) return pick(act.pick);
    setActive(act.move);
    group.current?.querySelectorAll<HTMLElement>('[role="radio"]')[act.move]?.focus();
  };
  const qid = `ask-q-${callId}`;
  const chosen = waiting ? active : answeredOption(update);
  return (
    <div class="ask">
      <p class="ask-question" id={qid}>
        {q.question}
      </p>
      <div
        ref={group}
        class="ask-options"
        role="radiogroup"
        aria-labelledby={qid}
        aria-describedby={`${qid}-keys`}
        aria-disabled={disabled}
        onKeyDown={onKeyDown}
      >
        {q.options.map((o, i) => (
          <Option
            key={i}
            n={i + 1}
            label={o}
            checked={i === chosen}
            active={i === active}
            disabled={disabled}
            pick={() => {
              setActive(i);
              pick(i);
            }}
          />
        ))}
      </div>
      <p class="ask-keys" id={`${qid}-keys`} hidden={!waiting}>
        {t("Choose with the arrow keys and Enter, or press the option's number.")}
      </p>
      {q.allowText ? (
        <OwnWords
          disabled={disabled}
          send={(text) => {
            setSentFor(update);
            actions.send({ text });
          }}
        />
      ) : null}
    </div>
  );
}
