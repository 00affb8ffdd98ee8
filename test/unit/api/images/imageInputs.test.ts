import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayError } from '../../../../src/api/transport/errors';
import { checkEditInputs, checkImageInput } from '../../../../src/api/images/imageInputs';
import { makePng } from '../../../gateway/images';

const png = (w: number, h: number, name = 'a.png') => ({ name, bytes: makePng(w, h) });
const fails = (f: () => unknown, re: RegExp) =>
  assert.throws(f, (e: unknown) => e instanceof GatewayError && re.test(e.message));

void describe('edit inputs', () => {
  void it('accepts images and a PNG mask of the same size', () => {
    const r = checkEditInputs({ images: [png(32, 16), png(8, 8, 'b.png')], mask: png(32, 16, 'mask.png') });
    assert.equal(r.images.length, 2);
    assert.equal(r.mask?.format, 'png');
  });

  void it('refuses a mask of another size, naming both sizes', () => {
    fails(
      () => checkEditInputs({ images: [png(32, 16)], mask: png(16, 16, 'mask.png') }),
      /mask\.png is 16x16 but the image a\.png is 32x16/,
    );
  });

  void it('refuses a file that is not an image whatever its name, and one past the limit', () => {
    fails(
      () => checkImageInput({ name: 'photo.png', bytes: Buffer.from('#!/bin/sh\necho hi') }),
      /photo\.png is not an image/,
    );
    fails(
      () => checkImageInput({ name: 'big.png', bytes: new Uint8Array(61 * 1024 * 1024) }),
      /big\.png is larger than 50 MB/,
    );
    fails(() => checkEditInputs({ images: [] }), /at least one image/);
    fails(
      () =>
        checkEditInputs({
          images: [png(4, 4)],
          mask: { name: 'm.jpg', bytes: Buffer.from([0xff, 0xd8, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0]) },
        }),
      /must be a PNG/,
    );
  });
});
