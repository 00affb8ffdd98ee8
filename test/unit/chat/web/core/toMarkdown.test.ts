// HTML to Markdown with Readability, linkedom and turndown: the article kept, the noise and
// hidden text dropped, links made absolute.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../../../../src/chat/web/core/toMarkdown';
import { ARTICLE_HTML } from '../../../../support/webPages';

void describe('htmlToMarkdown', () => {
  void it('drops text hidden by an inline style, the hidden attribute or aria-hidden, and keeps what is shown', async () => {
    const para = (t: string, attrs = '') =>
      `<p ${attrs}>${t} ${'words that make a paragraph of an article. '.repeat(8)}</p>`;
    const html = `<html><body><article><h1>Title</h1>${para('Shown')}${para('Styled', 'style="color: red"')}${para(
      'NONE',
      'style="margin:0; DISPLAY : none !important"',
    )}${para('INVISIBLE', 'style="visibility:hidden"')}${para('HIDDENATTR', 'hidden style="color: blue"')}${para(
      'ARIA',
      'aria-hidden="true"',
    )}</article></body></html>`;
    const md = (await htmlToMarkdown(html, 'https://docs.example/a')).markdown;
    assert.match(md, /Shown/);
    assert.match(md, /Styled/);
    for (const gone of ['NONE', 'INVISIBLE', 'HIDDENATTR', 'ARIA']) assert.doesNotMatch(md, new RegExp(gone));
  });

  void it('keeps the article as Markdown, drops menus, scripts and hidden text', async () => {
    const md = await htmlToMarkdown(ARTICLE_HTML, 'https://docs.example/guide/streaming');
    assert.equal(md.article, true);
    assert.equal(md.title, 'Gateway notes');
    assert.match(md.markdown, /server-sent events/);
    assert.match(md.markdown, /\[delta\]\(https:\/\/docs\.example\/docs\/delta\)/);
    assert.match(md.markdown, /\*\*usage\*\*/);
    assert.match(md.markdown, /^-\s+First point of the list$/m);
    assert.doesNotMatch(md.markdown, /IGNORE ALL PREVIOUS/);
    assert.doesNotMatch(md.markdown, /document\.title|color:red/);
  });

  void it('a short page keeps its text, without scripts or javascript: links', async () => {
    const md = await htmlToMarkdown(
      '<html><head><title>x</title></head><body><h2>Short</h2><a href="javascript:alert(1)">click</a><script>evil()</script><p hidden>secret</p></body></html>',
      'https://e.example/',
    );
    assert.match(md.markdown, /## Short/);
    assert.match(md.markdown, /click/);
    assert.doesNotMatch(md.markdown, /javascript|evil|secret/);
  });
});
