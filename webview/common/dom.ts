/**
 * Small DOM helpers for the parts built outside Preact (code-block bars inside sanitised
 * markdown): every text goes in through textContent, never innerHTML.
 */
type Attrs = Record<string, string | boolean | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Node | string | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k === 'class') el.className = String(v);
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children) {
    if (c === undefined || c === false) continue;
    el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  }
  return el;
}

/** A codicon as a decorative element. */
export function icon(name: string): HTMLSpanElement {
  return h('span', { class: `codicon codicon-${name}`, 'aria-hidden': 'true' });
}

/** An icon button with an accessible name (and the same text as tooltip). */
export function iconButton(name: string, label: string, onClick: (ev: MouseEvent) => void): HTMLButtonElement {
  const b = h('button', { type: 'button', class: 'icon-btn', 'aria-label': label, title: label }, icon(name));
  b.addEventListener('click', onClick);
  return b;
}
