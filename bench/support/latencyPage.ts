/**
 * The page side of bench/webview-latency.bench.ts: the streamed texts with their markers, and the
 * observer installed in the chat webview's frame.
 */
import { percentile } from './stats';

/** `n` prose words, one marker each, paragraphs of 60 words. */
export function prose(n: number): string {
  const words = 'the gateway streams tokens to the editor while the client keeps every fragment in order'.split(' ');
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const w = words[i % words.length]!;
    const sep = i === 0 ? '' : i % 60 === 0 ? '.\n\n' : ' ';
    out.push(`${sep}${w}k${i}q`);
  }
  return out.join('') + '.';
}

/** One fenced code block of `n` lines, one marker per line (each line is one stream piece). */
export function codeBlock(n: number): string {
  const lines = Array.from({ length: n }, (_, i) => `    tk${i}q=add(t,${i})`);
  return `\`\`\`python\ndef run():\n${lines.join('\n')}\n\`\`\``;
}

export interface LatGlobal {
  __lat?: { reset(): void; seen(): [number, number, number, number][]; floor(): number[] };
}

/**
 * Installed in the webview's frame (plain JS: this file is type-checked without the DOM's types):
 * records when each marker reaches the DOM and when the frame that shows it has been rendered.
 */
export const INSTALL_OBSERVER = `(() => {
  const g = globalThis;
  if (g.__lat) { g.__lat.reset(); return; }
  const now = () => performance.timeOrigin + performance.now();
  const raf = g.requestAnimationFrame.bind(g);
  let seen = new Map();
  let received = new Map();
  let pending = [];
  let floor = [];
  // The frame floor: from a delta's arrival to the end of the next frame, whatever the app does.
  const floorCh = new MessageChannel();
  floorCh.port1.onmessage = (e) => floor.push(now() - e.data);
  // When each marker's delta reached the page (before the app handles it).
  g.addEventListener('message', (e) => {
    const d = e.data;
    if (!d || d.type !== 'chat/delta' || typeof d.content !== 'string') return;
    const t = now();
    raf(() => floorCh.port2.postMessage(t));
    for (const m of d.content.matchAll(/k(\\d+)q/g)) if (!received.has(Number(m[1]))) received.set(Number(m[1]), t);
  }, true);
  let frameOpen = false;
  const ch = new MessageChannel();
  // A task posted during a frame's callbacks runs after that frame's style, layout and paint.
  ch.port1.onmessage = () => {
    const t = now();
    for (const id of pending) seen.get(id)[1] = t;
    pending = [];
    frameOpen = false;
  };
  const openFrame = () => {
    if (frameOpen) return;
    frameOpen = true;
    ch.port2.postMessage(0);
  };
  // The app renders streamed text in animation-frame callbacks: note that a frame is under way.
  g.requestAnimationFrame = (cb) => raf((ts) => { openFrame(); cb(ts); });
  const scan = (text, t) => {
    for (const m of text.matchAll(/k(\\d+)q/g)) {
      const id = Number(m[1]);
      if (!seen.has(id)) { seen.set(id, [t, 0]); pending.push(id); }
    }
  };
  new MutationObserver((records) => {
    const t = now();
    for (const r of records) {
      const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      // The user's message carries the markers too: only the answer counts.
      if (!el || !el.closest('.msg.assistant')) continue;
      if (r.type === 'characterData') scan(r.target.data, t);
      else for (const n of r.addedNodes) scan(n.textContent || '', t);
    }
    // Inserted outside a frame (a message handler): the next frame shows it.
    if (pending.length && !frameOpen) raf(openFrame);
  }).observe(document.body, { childList: true, subtree: true, characterData: true });
  g.__lat = {
    reset: () => { seen = new Map(); received = new Map(); pending = []; floor = []; },
    seen: () => [...seen].map(([id, [d, p]]) => [id, received.get(id) || 0, d, p]),
    floor: () => floor,
  };
})()`;

/** "p50 / p99 / max" of `xs`, in ms. */
export function line(label: string, xs: number[]): string {
  return `${label} p50 ${percentile(xs, 50).toFixed(1)} / p99 ${percentile(xs, 99).toFixed(1)} / max ${percentile(xs, 100).toFixed(1)} ms`;
}
