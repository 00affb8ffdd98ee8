// The key scan of the host stage: the gateway's API keys must appear 0 times in anything the run
// leaves behind or shows. Every code-server's run folder (user data with the extension's global and
// workspace storage, its logs and the output channel's file, the workspace with exports, videos,
// sidecars and checkpoints) is scanned when that code-server stops, before the folder is deleted;
// then the stage's own logs under test-results/; and every message a frame of the workbench
// received (the chat and gallery webviews included) is checked as it arrives. A hit names the file
// (or frame and message) and the byte offset.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { BrowserContext, Frame } from 'playwright-core';

/** One occurrence of a key. */
export interface KeyFinding {
  /** A file path, or `message to <frame url>`. */
  where: string;
  offset: number;
  /** Which key (its name, never the key itself). */
  key: string;
}

const keys = new Map<string, Buffer>();
const findings: KeyFinding[] = [];
const totals = { files: 0, bytes: 0, messages: 0, webviewMessages: 0, folders: 0 };

/** Sets the keys to look for, by name (`valid`, `noBalance` …). */
export function scanForKeys(named: Record<string, string>): void {
  keys.clear();
  for (const [name, value] of Object.entries(named)) if (value) keys.set(name, Buffer.from(value, 'utf8'));
}

function search(buf: Buffer, where: string): void {
  for (const [name, k] of keys) {
    for (let at = buf.indexOf(k); at >= 0; at = buf.indexOf(k, at + 1)) findings.push({ where, offset: at, key: name });
    // Chromium's storage and some VS Code state keep strings as UTF-16.
    const wide = Buffer.from(k.toString('utf8'), 'utf16le');
    for (let at = buf.indexOf(wide); at >= 0; at = buf.indexOf(wide, at + 1))
      findings.push({ where: `${where} (UTF-16)`, offset: at, key: name });
  }
}

/** Scans every regular file under `dir` (symbolic links are not followed). */
export function scanTree(dir: string, label = dir): void {
  if (keys.size === 0) return;
  totals.folders++;
  const walk = (d: string): void => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const name of names) {
      const p = join(d, name);
      let st;
      try {
        st = statSync(p, { throwIfNoEntry: false });
      } catch {
        continue;
      }
      if (!st) continue;
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) {
        let buf: Buffer;
        try {
          buf = readFileSync(p);
        } catch {
          continue; // a socket or a file removed meanwhile
        }
        totals.files++;
        totals.bytes += buf.length;
        search(buf, `${label}/${relative(dir, p)}`);
      }
    }
  };
  walk(dir);
}

/**
 * Checks every message any frame of pages in `context` receives (`message` events, which is how
 * VS Code hands the extension's `postMessage` to a webview's document) before the page runs.
 */
export async function watchMessages(context: BrowserContext): Promise<void> {
  if (keys.size === 0) return;
  await context.exposeBinding('__gwsKeyScanMessage', ({ frame }, text: string) => {
    totals.messages++;
    if (/"type":"(chat|gallery|video)\//.test(text)) totals.webviewMessages++;
    search(Buffer.from(text, 'utf8'), `message to ${frame.url().split('?')[0] ?? ''}`);
  });
  // A string, not a function: this file is compiled without the DOM library. Installed by
  // Playwright before a page's scripts run, and again in every frame that navigates; messages a
  // frame gets in the 10 ms after VS Code rewrote its document are not seen.
  const listen = `
    if (!window.__gwsKeyScanListener) {
      window.__gwsKeyScanListener = (e) => {
        let text;
        try {
          text = typeof e.data === 'string' ? e.data : JSON.stringify(e.data);
        } catch {
          return; // not serialisable (ports, buffers): not text a key could be in
        }
        if (text && typeof window.__gwsKeyScanMessage === 'function') void window.__gwsKeyScanMessage(text);
      };
      // document.open() (VS Code writes a webview's page into its frame) drops window listeners;
      // adding the same function again is a no-op while it is still there.
      setInterval(() => window.addEventListener('message', window.__gwsKeyScanListener, true), 10);
    }
    window.addEventListener('message', window.__gwsKeyScanListener, true);
  `;
  await context.addInitScript(listen);
  const install = (frame: Frame): void => {
    frame.evaluate(listen).catch(() => undefined);
  };
  context.on('page', (page) => {
    page.on('frameattached', install);
    page.on('framenavigated', install);
    page.on('domcontentloaded', () => page.frames().forEach(install));
  });
}

/** The scan's verdict: a line per finding (file and offset) and a summary line. */
export function keyScanReport(): { ran: boolean; ok: boolean; lines: string[] } {
  if (keys.size === 0) return { ran: false, ok: true, lines: [] };
  const mb = (totals.bytes / 1024 / 1024).toFixed(1);
  const lines = findings.slice(0, 50).map((f) => `key "${f.key}" found in ${f.where} at offset ${f.offset}`);
  if (findings.length > 50) lines.push(`… and ${findings.length - 50} more`);
  lines.push(
    `key scan: ${findings.length} occurrences of ${keys.size} keys in ${totals.files} files (${mb} MB, ${totals.folders} folders) and ${totals.messages} frame messages (${totals.webviewMessages} of the chat/gallery protocol)`,
  );
  return { ran: true, ok: findings.length === 0, lines };
}
