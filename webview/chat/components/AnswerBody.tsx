/**
 * An answer's text and reasoning. Both are written imperatively: while the answer streams, the
 * StreamRenderer owns the `.md` element and deltas reach it without a render (models/conversation.ts); once it
 * is finished, sanitised markdown is set once and set again only when the text changes.
 */
import type { JSX } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { AssistantMessage } from '../../../src/shared/protocol';
import { decorateCodeBlocks } from '../codeBlocks';
import { h } from '../../common/dom';
import { highlightCode, highlighterReady, highlightLater, renderMarkdownNodes } from '../markdown';
import { announce, live } from '../runtime';
import type { Translate } from '../models/strings';
import { useChat } from '../useChat';
import { SegmentedText } from '../segments';
import { StreamRenderer } from '../stream';
import { Icon } from './buttons';

function fillBody(body: HTMLElement, m: AssistantMessage, json: boolean, t: Translate): void {
  // Before highlight.js is loaded, code is shown plain and highlighted once it is (markdown.ts).
  const plain = !highlighterReady.peek();
  if (json) {
    try {
      const pretty = JSON.stringify(JSON.parse(m.content), null, 2);
      body.innerHTML = `<pre><code class="hljs language-json">${highlightCode(pretty, 'json')}</code></pre>`;
    } catch {
      body.replaceChildren(renderMarkdownNodes(m.content, { highlight: true }));
      body.prepend(h('p', { class: 'notice' }, t('Answer not valid JSON; shown as text.')));
    }
  } else {
    body.replaceChildren(renderMarkdownNodes(m.content, { highlight: true }));
  }
  decorateCodeBlocks(body, t);
  if (plain) highlightLater(body);
}

/** "Thinking…" while the answer streams, then "Thought for 12 s" (or "Thinking" when the time is not known). */
function thinkingLabel(m: AssistantMessage, t: Translate): string {
  if (m.status === 'streaming') return t('Thinking…');
  if (m.reasoningMs === undefined) return t('Thinking');
  return t('Thought for {0} s', String(Math.max(1, Math.round(m.reasoningMs / 1000))));
}

export function AnswerBody({ m }: { m: AssistantMessage }): JSX.Element {
  const { t, conversation } = useChat();
  const json = conversation.jsonMode.value && m.status === 'done' && m.content.trim() !== '';
  const body = useRef<HTMLDivElement>(null);
  const reasoning = useRef<HTMLPreElement>(null);
  const details = useRef<HTMLDetailsElement>(null);
  /** What `.md` shows now, so an unchanged answer is not rendered again. */
  const shown = useRef<string | undefined>(undefined);

  useLayoutEffect(() => {
    const el = body.current;
    const pre = reasoning.current;
    const det = details.current;
    if (!el || !pre || !det) return;
    const streaming = live.get(m.id);
    if (m.status === 'streaming') {
      if (streaming) return;
      pre.replaceChildren();
      // Long reasoning grows in segments, as a long code block does (segments.ts).
      const text = new SegmentedText(pre, true);
      text.append(m.reasoning ?? '');
      // Finished blocks are not read out one by one: the live region reads the whole answer once
      // it is done (models/app.ts), so a screen reader is not interrupted while the answer streams.
      const renderer = new StreamRenderer(el, (block) => decorateCodeBlocks(block, t));
      renderer.append(m.content);
      // Open while it streams, so the thinking is seen live; folded once the answer is done.
      det.open = true;
      live.set(m.id, { renderer, reasoning: text, details: det });
      shown.current = undefined;
      announce(t('Answer started.'));
      return;
    }
    const key = `${json ? 'json' : 'md'}\u0000${m.content}`;
    if (streaming) {
      // Keep the streamed DOM (no re-render of a long answer) unless the text differs from it.
      streaming.renderer.finish();
      live.delete(m.id);
      if (det instanceof HTMLDetailsElement) det.open = false;
      if (streaming.renderer.content === m.content && !json) shown.current = key;
    } else {
      pre.textContent = m.reasoning ?? '';
    }
    if (shown.current !== key) {
      fillBody(el, m, json, t);
      shown.current = key;
    }
  }, [m, json]);

  useLayoutEffect(() => {
    const el = body.current;
    return () => {
      // A removed answer stops streaming into a detached element (a later one may reuse its id).
      const streaming = live.get(m.id);
      if (streaming && streaming.renderer.root === el) {
        streaming.renderer.finish();
        live.delete(m.id);
      }
    };
  }, []);

  return (
    <>
      <details ref={details} class="reasoning" hidden={!m.reasoning}>
        <summary>
          <Icon name="lightbulb" /> {thinkingLabel(m, t)}
        </summary>
        <pre ref={reasoning} class="reasoning-text" />
      </details>
      <div ref={body} class="md" />
    </>
  );
}
