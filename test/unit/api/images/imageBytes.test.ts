import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { IMAGE_EXTENSION, imageFormat, imageMime, imageSize } from '../../../../src/api/images/imageBytes';
import { makePng } from '../../../gateway/images';

/** A minimal JPEG header: SOI, an APP0 segment, then SOF0 with height 30 and width 40. */
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 11, 8, 0, 30, 0, 40, 3, 0, 0, 0, 0]);
/** A lossless WebP header (VP8L) of 5x7. */
function webp(): Buffer {
  const b = Buffer.alloc(30);
  b.write('RIFF', 0, 'latin1');
  b.write('WEBPVP8L', 8, 'latin1');
  b[20] = 0x2f;
  const bits = (5 - 1) | ((7 - 1) << 14);
  b.writeUInt32LE(bits, 21);
  return b;
}

void describe('image bytes', () => {
  void it('names PNG, JPEG, WebP and GIF by their first bytes, and nothing else', () => {
    assert.equal(imageFormat(makePng(4, 3)), 'png');
    assert.equal(imageFormat(JPEG), 'jpeg');
    assert.equal(imageFormat(webp()), 'webp');
    assert.equal(imageFormat(Buffer.from('GIF89a\x02\x00\x03\x00', 'latin1')), 'gif');
    assert.equal(imageFormat(Buffer.from('<html>not an image</html>')), undefined);
    assert.equal(imageFormat(Buffer.from('{"error":1}')), undefined);
    assert.equal(IMAGE_EXTENSION.jpeg, 'jpg');
    assert.equal(imageMime('webp'), 'image/webp');
  });

  void it('reads the pixel size of each format', () => {
    assert.deepEqual(imageSize(makePng(17, 9)), { width: 17, height: 9 });
    assert.deepEqual(imageSize(JPEG), { width: 40, height: 30 });
    assert.deepEqual(imageSize(webp()), { width: 5, height: 7 });
    assert.deepEqual(imageSize(Buffer.from('GIF89a\x02\x00\x03\x00', 'latin1')), { width: 2, height: 3 });
    assert.equal(imageSize(Buffer.from('nope')), undefined);
  });
});
