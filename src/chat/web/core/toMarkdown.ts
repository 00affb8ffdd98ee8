// HTML to Markdown with maintained libraries: linkedom builds a DOM without a browser, Mozilla's
// Readability (Firefox's reader view) keeps the article and drops menus, scripts and hidden text,
// turndown writes Markdown. All three are imported on the first fetch only: they are a large part
// of a chunk the host never loads at activation.

export interface PageText {
  title?: string;
  markdown: string;
  /** False when Readability found no article and the whole body was converted instead. */
  article: boolean;
}

/** Elements whose text is never page content (hidden ones went already: {@link dropInvisible}). */
const NOISE = 'script,style,noscript,template,iframe,object,embed,svg,canvas,form';

/** The little of linkedom's DOM used here (the project compiles without the DOM's types). */
interface El {
  textContent: string | null;
  innerHTML: string;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  remove(): void;
}
interface Doc {
  querySelector(selector: string): El | null;
  querySelectorAll(selector: string): Iterable<El>;
  toString(): string;
}

/** `html` fetched from `url` as Markdown, links and images made absolute against the page. */
export async function htmlToMarkdown(html: string, url: string): Promise<PageText> {
  const [{ parseHTML }, { Readability }, { default: Turndown }] = await Promise.all([
    import('linkedom'),
    import('@mozilla/readability'),
    import('turndown'),
  ]);
  const parse = (h: string) => (parseHTML(h) as unknown as { document: Doc }).document;
  const document = parse(html);
  absolutize(document, url);
  dropInvisible(document);
  const title = (document.querySelector('title')?.textContent ?? '').trim() || undefined;
  // Readability changes the document it reads: it gets a copy, the fallback keeps the original.
  const copy = parse(document.toString());
  let article: { title?: string | null; content?: string | null } | null = null;
  try {
    article = new Readability(copy as unknown as ConstructorParameters<typeof Readability>[0], {
      charThreshold: 200,
    }).parse();
  } catch {
    article = null;
  }
  const td = new Turndown({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  td.remove(['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed']);
  if (article?.content) {
    const markdown = tidy(td.turndown(article.content));
    const t = article.title?.trim() || title;
    return { ...(t ? { title: t } : {}), markdown, article: true };
  }
  for (const el of [...document.querySelectorAll(NOISE)]) el.remove();
  const body = document.querySelector('body')?.innerHTML ?? document.toString();
  return { ...(title ? { title } : {}), markdown: tidy(td.turndown(body)), article: false };
}

/** Relative links and image sources resolved against the page (the model reads them without the page). */
function absolutize(document: Doc, url: string): void {
  const base = document.querySelector('base[href]')?.getAttribute('href');
  let root = url;
  try {
    if (base) root = new URL(base, url).toString();
  } catch {
    root = url;
  }
  for (const [sel, attr] of [
    ['a[href]', 'href'],
    ['img[src]', 'src'],
  ] as const) {
    for (const el of [...document.querySelectorAll(sel)]) {
      const v = el.getAttribute(attr) ?? '';
      try {
        const abs = new URL(v, root);
        // A javascript: or data: link is no link for a reader: its text stays, the target goes.
        if (abs.protocol === 'http:' || abs.protocol === 'https:') el.setAttribute(attr, abs.toString());
        else el.removeAttribute(attr);
      } catch {
        el.removeAttribute(attr);
      }
    }
  }
}

/** At most one blank line in a row, no trailing spaces. */
function tidy(md: string): string {
  return md
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Removes what a reader never sees (`hidden`, `aria-hidden`, an inline display:none or
 * visibility:hidden): text a page hides is where it puts instructions for the model. Done here,
 * before Readability, whose own visibility check depends on the DOM's style support.
 */
function dropInvisible(document: Doc): void {
  const invisible = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)/i;
  for (const el of [...document.querySelectorAll('[hidden],[aria-hidden="true"],[style]')]) {
    const hidden = el.getAttribute('hidden') !== null || el.getAttribute('aria-hidden') === 'true';
    if (hidden || invisible.test(el.getAttribute('style') ?? '')) el.remove();
  }
}
