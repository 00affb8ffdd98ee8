/**
 * Copy / Insert / Open buttons on code blocks. Markdown arrives as sanitised HTML, so the blocks
 * are decorated in the DOM after it is set (also blocks the stream renderer finishes).
 */
import { h, iconButton } from '../common/dom';
import type { Translate } from './models/strings';
import { announce, post } from './runtime';

function codeAction(t: Translate, kind: 'copy' | 'insert' | 'open', code: string, language: string): void {
  if (kind === 'copy') {
    post({ type: 'code/copy', code });
    announce(t('Copied.'));
  } else if (kind === 'insert') post({ type: 'code/insert', code, language });
  else post({ type: 'code/open', code, language });
}

/** Adds the buttons above every finished code block under `root`. */
export function decorateCodeBlocks(root: HTMLElement, t: Translate): void {
  for (const pre of root.querySelectorAll('pre')) {
    if (pre.parentElement?.classList.contains('codeblock')) continue;
    const code = pre.querySelector('code');
    const lang = /language-([\w+#-]+)/.exec(code?.className ?? '')?.[1] ?? '';
    const text = () => (code ?? pre).textContent ?? '';
    const bar = h(
      'div',
      { class: 'codeblock-bar' },
      h('span', { class: 'lang' }, lang),
      h('span', { class: 'spacer' }),
      iconButton('copy', t('Copy code'), () => codeAction(t, 'copy', text(), lang)),
      iconButton('insert', t('Insert at cursor'), () => codeAction(t, 'insert', text(), lang)),
      iconButton('go-to-file', t('Open in new editor'), () => codeAction(t, 'open', text(), lang)),
    );
    const wrap = h('div', { class: 'codeblock', role: 'group', 'aria-label': t('Code block') });
    // Long lines scroll sideways: the block takes focus so the arrow keys can scroll it.
    pre.tabIndex = 0;
    pre.replaceWith(wrap);
    wrap.append(bar, pre);
  }
}
