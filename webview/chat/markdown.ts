import MarkdownIt from 'markdown-it';
import DOMPurify, { type Config } from 'dompurify';
import { signal } from '@preact/signals';

import type * as HighlightModule from './highlight';

type Highlighter = typeof HighlightModule;

/**
 * highlight.js is a chunk of its own (highlight.ts), loaded when the first code block needs it:
 * until then code is shown plain and highlighted in idle time once it is there (highlightLater).
 */
let hl: Highlighter | undefined;
let loading: Promise<Highlighter | undefined> | undefined;

/** True once highlight.js is loaded: a component showing {@link highlightCode}'s HTML reads it to render again. */
export const highlighterReady = signal(false);

/** Loads highlight.js once; undefined when its chunk cannot be loaded (code then stays plain). */
export function loadHighlighter(): Promise<Highlighter | undefined> {
  loading ??= import('./highlight').then(
    (m) => {
      hl = m;
      highlighterReady.value = true;
      return m;
    },
    () => undefined,
  );
  return loading;
}

/** Model output is untrusted: raw HTML off, links limited to http(s)/mailto, images never loaded. */
const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false });

// Only http(s) and mailto survive as links; everything else (javascript:, data:, file:, vscode:,
// command:) stays visible as text. markdown-it's own check already drops the worst schemes.
const SAFE_URL = /^(?:https?:|mailto:)/i;
md.validateLink = (url: string) => SAFE_URL.test(url.trim());

// A markdown image would make the webview fetch a URL chosen by the model (an exfiltration
// channel for anything the model read), so it becomes a plain link the user may choose to open.
md.renderer.rules.image = (tokens, idx, _opts, _env, self) => {
  const token = tokens[idx];
  if (!token) return '';
  const src = String(token.attrGet('src') ?? '');
  const alt = String(self.renderInlineAsText(token.children ?? [], _opts, _env) || src);
  const label = md.utils.escapeHtml(`[${imageLabel.replace('{0}', alt)}]`);
  if (!SAFE_URL.test(src)) return `<span class="remote-image">${label}</span>`;
  return `<a class="remote-image" href="${md.utils.escapeHtml(src)}">${label}</a>`;
};

let imageLabel = 'image: {0}';
/** The localised "image: {0}" label used for images shown as links. */
export function setImageLabel(s: string): void {
  imageLabel = s;
}

// Code is highlighted only once its block is complete (see StreamRenderer), so per-frame work
// while streaming stays small; `highlight` is switched per render call.
let highlightOn = true;
md.options.highlight = (code: string, lang: string): string => {
  // Very large blocks stay plain: highlighting them would block the panel for a long moment.
  if (!highlightOn || code.length > 50_000) return '';
  const name = lang.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  // Without highlight.js yet the block stays plain; the caller highlights it later (AnswerBody).
  if (!hl?.knows(name)) return '';
  try {
    return hl.highlight(code, name);
  } catch {
    return '';
  }
};

const ALLOWED_TAGS = [
  'p',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'blockquote',
  'pre',
  'code',
  'span',
  'em',
  'strong',
  's',
  'del',
  'a',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'sup',
  'sub',
];
const PURIFY: Config = {
  ALLOWED_TAGS,
  ALLOWED_ATTR: ['href', 'title', 'class', 'start'],
  ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto):)/i,
  ALLOW_DATA_ATTR: false,
};

/**
 * Two sanitisers, each configured once: a config passed to every `sanitize` call is parsed again
 * each time, which cost about as much as the sanitising itself when a long conversation opens.
 * `toHtml` returns a string, `toNodes` the nodes it built (a fragment).
 */
const toHtml = DOMPurify(window);
toHtml.setConfig(PURIFY);
const toNodes = DOMPurify(window);
toNodes.setConfig({ ...PURIFY, RETURN_DOM_FRAGMENT: true });

// markdown-it keeps a link whose URL it refused as `href=""`; such a link would point at the page
// itself, so it loses its href and reads as plain text.
for (const purify of [toHtml, toNodes]) {
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      const href = node.getAttribute('href');
      if (href !== null && !SAFE_URL.test(href.trim())) node.removeAttribute('href');
    }
  });
}

/**
 * Markdown as sanitised nodes. Both layers matter: markdown-it escapes, DOMPurify is the
 * backstop. The nodes are the ones DOMPurify already built: setting its string as `innerHTML`
 * would parse the same HTML a second time.
 */
export function renderMarkdownNodes(text: string, opts: { highlight: boolean }): DocumentFragment {
  highlightOn = opts.highlight;
  const html = md.render(text);
  highlightOn = true;
  return toNodes.sanitize(html) as unknown as DocumentFragment;
}

/**
 * Plain text to sanitised highlighted HTML (tool arguments, JSON answers). Before highlight.js is
 * loaded: the text escaped, and the load started. It reads {@link highlighterReady}, so a
 * component that calls it while rendering renders again, highlighted, once the load is done.
 */
export function highlightCode(code: string, language: string): string {
  if (!highlighterReady.value || !hl) {
    void loadHighlighter();
    return md.utils.escapeHtml(code);
  }
  const html = hl.highlight(code, hl.knows(language) ? language : 'plaintext');
  return toHtml.sanitize(html);
}

/**
 * Highlights the code blocks under `root` that markdown-it left plain (a streamed block is
 * rendered without highlighting; see highlightLater). Same limits as the highlight option above.
 */
export function highlightBlocks(root: ParentNode): void {
  if (!hl) return;
  for (const code of root.querySelectorAll<HTMLElement>('pre > code[class*="language-"]')) {
    if (code.dataset.hl) continue;
    code.dataset.hl = '1';
    const text = code.textContent ?? '';
    const lang = /language-([\w+#.-]+)/.exec(code.className)?.[1]?.toLowerCase() ?? '';
    if (text.length > 50_000 || !hl.knows(lang)) continue;
    try {
      const html = hl.highlight(text, lang);
      code.replaceChildren(toNodes.sanitize(html) as unknown as DocumentFragment);
    } catch {
      // Left plain, as markdown-it leaves a block it cannot highlight.
    }
  }
}

const idleQueue: HTMLElement[] = [];
let idleScheduled = false;

/**
 * Highlights `el`'s code blocks in idle time instead of inside the frame that shows them: a
 * large block costs tens of milliseconds, which would hold that frame back. The timeout bounds
 * how long a busy page leaves a block plain. The first such block loads highlight.js; the blocks
 * wait for it, then for idle time.
 */
const IDLE_SLICE_MS = 8;

export function highlightLater(el: HTMLElement): void {
  if (!el.querySelector('pre > code[class*="language-"]')) return;
  if (!hl) void loadHighlighter();
  idleQueue.push(el);
  if (idleScheduled) return;
  idleScheduled = true;
  const run = (deadline?: IdleDeadline): void => {
    if (!hl) {
      void loadHighlighter().then((m) => {
        if (m) return schedule(run);
        // No highlighter: the blocks stay plain, as markdown-it leaves a block it cannot highlight.
        idleQueue.length = 0;
        idleScheduled = false;
      });
      return;
    }
    // One block at least per call, then more while the idle period lasts, but for 8 ms at most: a
    // message from the host that arrives meanwhile waits for this slice (an opened 2,000-message
    // conversation has a thousand blocks to do, and idle periods last up to 50 ms).
    const until = performance.now() + IDLE_SLICE_MS;
    do {
      const next = idleQueue.shift();
      if (next?.isConnected) highlightBlocks(next);
    } while (idleQueue.length && (deadline?.timeRemaining() ?? 0) > 4 && performance.now() < until);
    if (idleQueue.length) schedule(run);
    else idleScheduled = false;
  };
  schedule(run);
}

const schedule = (cb: (d?: IdleDeadline) => void): void => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(cb, { timeout: 250 });
  else setTimeout(cb, 0);
};
