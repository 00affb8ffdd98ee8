// What a fetched body is: HTML as Markdown, text as it is (in its charset), PDFs, images and
// binaries refused with their kind and size.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decode, mediaType, pageContent, sizeText } from '../../../../../src/chat/web/core/content';
import type { FetchedPage } from '../../../../../src/chat/web/core/fetchPage';

const page = (contentType: string, body: Buffer | string, extra: Partial<FetchedPage> = {}): FetchedPage => ({
  url: 'https://e.example/x',
  status: 200,
  contentType,
  body: Buffer.isBuffer(body) ? body : Buffer.from(body),
  ...extra,
});

void describe('pageContent', () => {
  void it('HTML becomes Markdown; JSON and text stay', async () => {
    const html = await pageContent(
      page('text/html', '<html><head><title>T</title></head><body><h1>Hi</h1></body></html>'),
    );
    assert.equal(html.kind, 'markdown');
    assert.match(html.text, /# Hi/);
    assert.deepEqual(await pageContent(page('application/json', '{"a":1}')), {
      text: '{"a":1}',
      kind: 'application/json',
    });
    assert.equal(
      (await pageContent(page('', '<!doctype html><html><body><p>sniffed</p></body></html>'))).kind,
      'markdown',
    );
  });

  void it('refuses a PDF, an image and a binary with what they are', async () => {
    await assert.rejects(
      pageContent(page('application/pdf', '%PDF-1.7', { declaredBytes: 3 * 1024 * 1024 })),
      /is a PDF document \(3\.0 MB\)/,
    );
    await assert.rejects(pageContent(page('application/octet-stream', '%PDF-1.4 ...')), /PDF document/);
    await assert.rejects(pageContent(page('image/png', '\x89PNG')), /is an image \(image\/png, 5 bytes\)/);
    await assert.rejects(
      pageContent(page('application/zip', 'PK')),
      /is application\/zip \(2 bytes\), not a web page or text/,
    );
  });

  void it('decodes in the declared or the page\u2019s own charset', () => {
    assert.equal(decode(Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'iso-8859-1', false), 'café');
    const meta = Buffer.concat([Buffer.from('<meta charset="iso-8859-1"><p>caf'), Buffer.from([0xe9])]);
    assert.match(decode(meta, undefined, true), /café/);
    assert.equal(decode(Buffer.from('ok'), 'no-such-charset', false), 'ok');
    assert.deepEqual(mediaType('Text/HTML; Charset="UTF-8"'), { type: 'text/html', charset: 'UTF-8' });
    assert.equal(sizeText(50 * 1024 * 1024), '50.0 MB');
  });
});
