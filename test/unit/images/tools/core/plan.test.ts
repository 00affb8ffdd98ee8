// A tool call turned into a plan, or refused with the rule it broke: the catalog's limits, and for
// an edit the files the model named, which are untrusted (a hostile repository's links included).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shippedCatalog } from '../../../../../src/api/catalog/catalog';
import { planEdit, planGenerate, resolveToolImage } from '../../../../../src/images/tools/core/plan';
import { useTempDir } from '../../../../support/helpers';
import { makePng } from '../../../../gateway/images';

const temp = useTempDir('gws-imgplan-');

function workspace() {
  const root = temp.fresh();
  mkdirSync(join(root, 'art'));
  writeFileSync(join(root, 'art', 'logo.png'), makePng(32, 24));
  writeFileSync(join(root, 'art', 'mask.png'), makePng(32, 24, [0, 0, 0]));
  writeFileSync(join(root, 'art', 'small-mask.png'), makePng(16, 16));
  writeFileSync(join(root, 'notes.png'), 'not a picture at all');
  return { root, ctx: { catalog: shippedCatalog(), defaultModel: 'gpt-image-1', roots: [root] } };
}

const rules = (p: { ok: boolean; issues?: { rule: string }[] }) => (p.ok ? [] : p.issues!.map((i) => i.rule));

void describe('image tool plans', () => {
  void it('a generation takes the user’s model when none is named, and the catalog’s checks', () => {
    const { ctx } = workspace();
    const p = planGenerate({ prompt: 'a fox', n: 2, size: '1024x1024', quality: 'high' }, ctx);
    assert.ok(p.ok);
    assert.deepEqual(p.request, { model: 'gpt-image-1', prompt: 'a fox', n: 2, size: '1024x1024', quality: 'high' });
    assert.equal(p.family?.id, 'gpt-image');
  });

  void it('n over the model’s limit is refused with the limit, and nothing is planned', () => {
    const { ctx } = workspace();
    const over = planGenerate({ prompt: 'x', n: 11 }, ctx);
    assert.deepEqual(rules(over), ['n-max']);
    assert.match(!over.ok ? over.issues[0]!.message : '', /at most 10 images per request; 11 asked/);
    assert.deepEqual(rules(planGenerate({ prompt: 'x', model: 'doubao-seedream-4-0', n: 2 }, ctx)), ['n-max']);
    assert.deepEqual(rules(planGenerate({ prompt: 'x', size: '999x1' }, ctx)), ['size-family']);
  });

  void it('input of the wrong shape names the field', () => {
    const { ctx } = workspace();
    assert.deepEqual(rules(planGenerate({ n: 2 }, ctx)), ['input-prompt']);
    assert.deepEqual(rules(planGenerate({ prompt: 'x', n: 'two' }, ctx)), ['input-n']);
  });

  void it('an edit reads the workspace image and its mask and names them by their workspace paths', async () => {
    const { ctx } = workspace();
    const p = await planEdit({ image: 'art/logo.png', mask: 'art/mask.png', prompt: 'make the background dark' }, ctx);
    assert.ok(p.ok, JSON.stringify(p));
    assert.equal(p.operation, 'edit');
    assert.deepEqual(p.inputs?.labels, ['art/logo.png', 'art/mask.png']);
    assert.equal(p.inputs?.images[0]?.name, 'logo.png');
  });

  void it('a mask of another size and a file that is no image are refused by their bytes', async () => {
    const { ctx } = workspace();
    const m = await planEdit({ image: 'art/logo.png', mask: 'art/small-mask.png', prompt: 'x' }, ctx);
    assert.deepEqual(rules(m), ['mask-check']);
    assert.match(!m.ok ? m.issues[0]!.message : '', /16x16 but the image logo\.png is 32x24/);
    const n = await planEdit({ image: 'notes.png', prompt: 'x' }, ctx);
    assert.deepEqual(rules(n), ['image-check']);
    assert.match(!n.ok ? n.issues[0]!.message : '', /notes\.png is not an image/);
  });

  void it('a model that takes no mask, or does not edit, is refused before any file is sent', async () => {
    const { ctx } = workspace();
    assert.deepEqual(
      rules(
        await planEdit({ image: 'art/logo.png', mask: 'art/mask.png', prompt: 'x', model: 'flux-kontext-pro' }, ctx),
      ),
      ['mask-unsupported'],
    );
    assert.deepEqual(rules(await planEdit({ image: 'art/logo.png', prompt: 'x', model: 'doubao-seedream-4-0' }, ctx)), [
      'edits-unsupported',
    ]);
  });

  void it('paths outside the workspace are refused: .., absolute elsewhere, a link, .git, a URL, a missing file', async () => {
    const { root, ctx } = workspace();
    const outside = temp.fresh();
    writeFileSync(join(outside, 'id_rsa.png'), makePng(4, 4));
    symlinkSync(join(outside, 'id_rsa.png'), join(root, 'art', 'ref.png'));
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, '.git', 'x.png'), makePng(4, 4));
    const cases: Array<[string, RegExp]> = [
      ['../' + outside.split(/[\\/]/).pop() + '/id_rsa.png', /outside the workspace/],
      [join(outside, 'id_rsa.png'), /outside the workspace/],
      ['art/ref.png', /leads outside the workspace through a symbolic link/],
      ['.git/x.png', /lies in \.git/],
      ['https://example.com/a.png', /is a link, not a workspace file/],
      ['art/none.png', /does not exist/],
      ['', /the path is empty/],
    ];
    for (const [image, why] of cases) {
      const p = await planEdit({ image, prompt: 'x' }, ctx);
      assert.deepEqual(rules(p), ['image-file'], image);
      assert.match(!p.ok ? p.issues[0]!.message : '', why, image);
    }
    const mask = await planEdit({ image: 'art/logo.png', mask: 'art/ref.png', prompt: 'x' }, ctx);
    assert.deepEqual(rules(mask), ['mask-file']);
  });

  void it('a file over the limit is refused by its size before it is read', async () => {
    const { root, ctx } = workspace();
    writeFileSync(join(root, 'big.png'), Buffer.concat([makePng(2, 2), Buffer.alloc(2048)]));
    const p = await planEdit({ image: 'big.png', prompt: 'x' }, { ...ctx, maxBytes: 1024 });
    assert.match(!p.ok ? p.issues[0]!.message : '', /larger than 0 MB, the image limit/);
  });

  void it('with no folder open nothing can be read', async () => {
    await assert.rejects(resolveToolImage('a.png', []), /no folder is open/);
  });
});
