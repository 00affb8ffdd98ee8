// What a fetched body is and how it reads as text: HTML becomes Markdown (./toMarkdown), other text
// stays as it came, and what is not text (a PDF, an image, an archive) is refused with its kind
// and size, so the model can tell the user instead of guessing from bytes.
import type { FetchedPage } from './fetchPage';
import { WebRefusal } from './addressRule';

export interface PageContent {
  title?: string;
  text: string;
  /** What the text is: `markdown` (from HTML) or the media type as served. */
  kind: string;
}

/** Bytes as people say them (the refusals name sizes). */
export function sizeText(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** The media type and charset of a Content-Type header (lower case; empty when absent). */
export function mediaType(header: string): { type: string; charset?: string } {
  const [type = '', ...params] = header.split(';').map((p) => p.trim());
  const charset = params.find((p) => /^charset=/i.test(p))?.replace(/^charset=["']?|["']$/gi, '');
  return { type: type.toLowerCase(), ...(charset ? { charset } : {}) };
}

/** What the first bytes say the body is, when the server said nothing usable. */
function sniff(body: Buffer): string {
  const head = body.subarray(0, 512).toString('latin1');
  if (head.startsWith('%PDF-')) return 'application/pdf';
  if (head.startsWith('\x89PNG')) return 'image/png';
  if (head.startsWith('\xff\xd8\xff')) return 'image/jpeg';
  if (head.startsWith('GIF8')) return 'image/gif';
  if (/^\s*(<!doctype html|<html|<head|<body)/i.test(head)) return 'text/html';
  return body.subarray(0, 512).includes(0) ? 'application/octet-stream' : 'text/plain';
}

function isTextType(t: string): boolean {
  return (
    t.startsWith('text/') ||
    /^application\/(json|xml|javascript|ecmascript|x-javascript|x-sh|x-yaml|yaml|toml|x-ndjson)$/.test(t) ||
    /\+(json|xml)$/.test(t)
  );
}

/** The body as a string in its charset (the header's, else a `<meta charset>` for HTML, else UTF-8). */
export function decode(body: Buffer, charset: string | undefined, html: boolean): string {
  let label = charset;
  if (!label && html) {
    const m = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(body.subarray(0, 4096).toString('latin1'));
    label = m?.[1];
  }
  try {
    return new TextDecoder(label ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** The page as text for the model, or a {@link WebRefusal} saying what it is and why it is not read. */
export async function pageContent(page: FetchedPage): Promise<PageContent> {
  const { type: declared, charset } = mediaType(page.contentType);
  const type = declared && declared !== 'application/octet-stream' ? declared : sniff(page.body);
  const size = sizeText(page.declaredBytes ?? page.body.length);
  if (type === 'application/pdf')
    throw new WebRefusal(
      `${page.url} is a PDF document (${size}). fetch_url reads web pages and text only and does not extract text from PDFs; tell the user, who can open it or attach its text.`,
    );
  if (type.startsWith('image/'))
    throw new WebRefusal(
      `${page.url} is an image (${type}, ${size}). fetch_url returns text only; describe what you need from it to the user, who can attach the image to the chat.`,
    );
  if (type.startsWith('video/') || type.startsWith('audio/') || (!isTextType(type) && type !== 'text/html'))
    throw new WebRefusal(`${page.url} is ${type} (${size}), not a web page or text; fetch_url does not read it.`);
  const html = type === 'text/html' || type === 'application/xhtml+xml';
  const text = decode(page.body, charset, html);
  if (!html) return { text, kind: type };
  const { htmlToMarkdown } = await import('./toMarkdown');
  const md = await htmlToMarkdown(text, page.url);
  return { ...(md.title ? { title: md.title } : {}), text: md.markdown, kind: 'markdown' };
}
