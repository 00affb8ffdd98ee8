import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { GALLERY_STRINGS } from '../../src/shared/galleryStrings';
import { useBrowser } from './harness';
import { openGallery, task } from './galleryHarness';

/*
 * The gallery's words come from the host (`gallery/strings`, GALLERY_STRINGS through l10n.t):
 * here the map the host builds in zh-cn, from the committed Chinese bundle.
 */

const browser = useBrowser();

const zh = JSON.parse(readFileSync(join(__dirname, '..', '..', 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as Record<
  string,
  string
>;

void test('with the zh-cn strings the filters, the search, the card and its buttons are in Chinese, {0} filled', async () => {
  const h = await openGallery(browser());
  await h.send({ type: 'gallery/strings', strings: Object.fromEntries(GALLERY_STRINGS.map((k) => [k, zh[k] ?? k])) });
  await h.send({
    type: 'gallery/state',
    tasks: [
      task({
        key: 'ok',
        prompt: 'a saved boat',
        file: 'videos/a-saved-boat.mp4',
        videoId: 'video_svc_v1_ok',
        images: ['a.png', 'b.png'],
      }),
    ],
  });
  const filters = await h.page.locator('button[data-filter]').allInnerTexts();
  assert.deepEqual(filters, ['全部', '运行中', '已保存', '失败']);
  assert.equal(await h.page.locator('input.search').getAttribute('placeholder'), '搜索提示词、模型、ID');
  const card = await h.page.locator('li[data-key="ok"]').innerText();
  assert.match(card, /2 张参考图像/);
  assert.match(card, /创建于 /);
  assert.match(card, /复制 ID/);
  assert.doesNotMatch(card, /Copy id|reference image|created /);
});
