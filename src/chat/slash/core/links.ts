/**
 * The relative Markdown links of a prompt file's body (`[form](../docs/Form.md)`), which VS Code
 * attaches like `#file` references. Each is resolved against the prompt file's folder and must
 * really lie in a workspace folder (symbolic links followed, the one rule of
 * files/insideWorkspace.ts): a link out of the workspace (`../../.ssh/id_rsa`, an absolute
 * path, a link whose target leaves) is refused with a line saying so, never read.
 */
import * as path from 'node:path';
import { checkInside, LinkLoopError } from '../../../files/insideWorkspace';

/** At most this many links of one prompt file are attached. */
export const LINK_LIMIT = 20;

/** The link targets of `body` that name files (not web addresses, anchors or images), each once. */
export function markdownLinks(body: string): string[] {
  const out: string[] = [];
  // Code spans and fenced blocks show links, they do not make them.
  const text = body.replace(/```[\s\S]*?```|~~~[\s\S]*?~~~|`[^`\n]*`/g, '');
  for (const m of text.matchAll(/(!?)\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+["'][^"'\n]*["'])?\s*\)/g)) {
    if (m[1] === '!') continue;
    const target = m[2]!;
    // A scheme (https:, mailto:, file:, vscode:) or an anchor of this file.
    if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(target) || target.startsWith('#')) continue;
    let clean = target.split('#')[0]!.split('?')[0]!;
    try {
      clean = decodeURIComponent(clean);
    } catch {
      // Not percent-encoded: taken as written.
    }
    if (clean && !out.includes(clean)) out.push(clean);
  }
  return out;
}

/** Why a link is not attached (the VS Code side words it in the user's language). */
export type LinkRefusal = 'notPath' | 'outside' | 'missing' | 'loop' | 'unchecked' | 'limit';

export interface LinkCheck {
  link: string;
  /** Absolute path, when the link may be attached. */
  absolute?: string;
  refused?: LinkRefusal;
}

/** Each link of the prompt file at `file`, resolved and checked against the workspace `roots`. */
export async function checkLinks(
  links: readonly string[],
  file: string,
  roots: readonly string[],
): Promise<LinkCheck[]> {
  const out: LinkCheck[] = [];
  for (const link of links.slice(0, LINK_LIMIT)) {
    if (link.includes('\0')) {
      out.push({ link, refused: 'notPath' });
      continue;
    }
    const absolute = path.resolve(path.dirname(file), link);
    try {
      const c = await checkInside(absolute, roots);
      if (!c.inside) out.push({ link, refused: 'outside' });
      else if (!c.exists) out.push({ link, refused: 'missing' });
      else out.push({ link, absolute });
    } catch (e) {
      out.push({
        link,
        refused: e instanceof LinkLoopError ? 'loop' : 'unchecked',
      });
    }
  }
  for (const link of links.slice(LINK_LIMIT)) out.push({ link, refused: 'limit' });
  return out;
}
