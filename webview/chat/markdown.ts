import MarkdownIt from 'markdown-it';
import DOMPurify, { type Config } from 'dompurify';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import plaintext from 'highlight.js/lib/languages/plaintext';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

// A chosen set of common languages: the full highlight.js bundle is ~1 MB.
const languages = {
  bash,
  c,
  cpp,
  csharp,
  css,
  diff,
  go,
  java,
  javascript,
  json,
  markdown,
  plaintext,
  python,
  rust,
  shell,
  sql,
  typescript,
  xml,
  yaml,
};
for (const [name, lang] of Object.entries(languages)) hljs.registerLanguage(name, lang);

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
  const known = name && hljs.getLanguage(name) ? name : '';
  if (!known) return '';
  try {
    return hljs.highlight(code, { language: known, ignoreIllegals: true }).value;
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

const FRAGMENT = { ...PURIFY, RETURN_DOM_FRAGMENT: true } as const;

// markdown-it keeps a link whose URL it refused as `href=""`; such a link would point at the page
// itself, so it loses its href and reads as plain text.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    const href = node.getAttribute('href');
    if (href !== null && !SAFE_URL.test(href.trim())) node.removeAttribute('href');
  }
});

/** Markdown to sanitised HTML. Both layers matter: markdown-it escapes, DOMPurify is the backstop. */
export function renderMarkdown(text: string, opts: { highlight: boolean }): string {
  highlightOn = opts.highlight;
  const html = md.render(text);
  highlightOn = true;
  return DOMPurify.sanitize(html, PURIFY);
}

/**
 * Like {@link renderMarkdown}, as the nodes DOMPurify already built: setting its string as
 * `innerHTML` would parse the same HTML a second time.
 */
export function renderMarkdownNodes(text: string, opts: { highlight: boolean }): DocumentFragment {
  highlightOn = opts.highlight;
  const html = md.render(text);
  highlightOn = true;
  return DOMPurify.sanitize(html, FRAGMENT);
}

/** Plain text to sanitised highlighted HTML (tool arguments, JSON answers). */
export function highlightCode(code: string, language: string): string {
  const lang = hljs.getLanguage(language) ? language : 'plaintext';
  const html = hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
  return DOMPurify.sanitize(html, PURIFY);
}

/**
 * Highlights the code blocks under `root` that markdown-it left plain (a streamed block is
 * rendered without highlighting; see highlightLater). Same limits as the highlight option above.
 */
export function highlightBlocks(root: ParentNode): void {
  for (const code of root.querySelectorAll<HTMLElement>('pre > code[class*="language-"]')) {
    if (code.dataset.hl) continue;
    code.dataset.hl = '1';
    const text = code.textContent ?? '';
    const lang = /language-([\w+#.-]+)/.exec(code.className)?.[1]?.toLowerCase() ?? '';
    if (text.length > 50_000 || !lang || !hljs.getLanguage(lang)) continue;
    try {
      const html = hljs.highlight(text, { language: lang, ignoreIllegals: true }).value;
      code.replaceChildren(DOMPurify.sanitize(html, FRAGMENT));
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
 * how long a busy page leaves a block plain.
 */
export function highlightLater(el: HTMLElement): void {
  if (!el.querySelector('pre > code[class*="language-"]')) return;
  idleQueue.push(el);
  if (idleScheduled) return;
  idleScheduled = true;
  const run = (deadline?: IdleDeadline): void => {
    // One block at least per call, then as many as the idle period allows.
    do {
      const next = idleQueue.shift();
      if (next?.isConnected) highlightBlocks(next);
    } while (idleQueue.length && (deadline?.timeRemaining() ?? 0) > 4);
    if (idleQueue.length) schedule(run);
    else idleScheduled = false;
  };
  schedule(run);
}

const schedule = (cb: (d?: IdleDeadline) => void): void => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(cb, { timeout: 250 });
  else setTimeout(cb, 0);
};
