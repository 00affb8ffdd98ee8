/**
 * The images an edit sends, checked before anything leaves: each within the size limit, each
 * really an image by its first bytes (a renamed text file is refused, whatever its name says),
 * and a mask that is a PNG of exactly the first image's size (the API applies it pixel by pixel).
 */
import * as l10n from '@vscode/l10n';
import { GatewayError } from '../transport/errors';
import { imageFormat, imageSize, type ImageFormat } from './imageBytes';
import { DEFAULT_MAX_IMAGE_BYTES, notAnImage, tooLarge } from './imageDownload';

/** An image the user chose: its file name (shown, and sent as the part's name) and its bytes. */
export interface ImageInput {
  name: string;
  bytes: Uint8Array;
}

export interface CheckedImage extends ImageInput {
  format: ImageFormat;
}

/** One input: within `max`, an image by its magic bytes. */
export function checkImageInput(img: ImageInput, max = DEFAULT_MAX_IMAGE_BYTES): CheckedImage {
  if (img.bytes.byteLength > max) throw tooLarge(img.name, max);
  const format = imageFormat(img.bytes);
  if (!format) throw notAnImage(img.name);
  return { ...img, format };
}

/** Every image and the mask of an edit, or the first problem, said with the file's name. */
export function checkEditInputs(
  inputs: { images: ImageInput[]; mask?: ImageInput },
  max = DEFAULT_MAX_IMAGE_BYTES,
): { images: CheckedImage[]; mask?: CheckedImage } {
  if (inputs.images.length === 0)
    throw new GatewayError('validation', l10n.t('An image edit needs at least one image.'), { field: 'image' });
  const images = inputs.images.map((i) => checkImageInput(i, max));
  if (!inputs.mask) return { images };
  const mask = checkImageInput(inputs.mask, max);
  if (mask.format !== 'png')
    throw new GatewayError(
      'validation',
      l10n.t('The mask {0} must be a PNG (with transparency where to edit).', mask.name),
      {
        field: 'mask',
      },
    );
  const a = imageSize(images[0]!.bytes);
  const b = imageSize(mask.bytes);
  if (a && b && (a.width !== b.width || a.height !== b.height))
    throw new GatewayError(
      'validation',
      l10n.t(
        'The mask {0} is {1}x{2} but the image {3} is {4}x{5}: a mask must have exactly the size of the image it edits.',
        mask.name,
        b.width,
        b.height,
        images[0]!.name,
        a.width,
        a.height,
      ),
      { field: 'mask' },
    );
  return { images, mask };
}
