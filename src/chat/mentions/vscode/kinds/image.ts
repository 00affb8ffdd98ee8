/** @image: an image file, sent as an image part when the model takes images. */
import * as vscode from 'vscode';
import type { ContextAttachment, ImageAttachment, MentionItem } from '../../../../shared/protocol';
import { makeAttachment } from '../../core/mentions';
import { extension, IMAGE_MIME } from '../mentionFiles';

export interface ImageOptions {
  /** Whether the conversation's model takes images; undefined when the model list is unknown. */
  acceptsImages: boolean | undefined;
  model: string;
  maxImageBytes: number;
}

/**
 * An image goes as an image part when the model takes images; either way the model is told its
 * workspace path, so it can pass it on (as the reference image of generate_video, say).
 */
export async function resolveImage(
  item: MentionItem,
  o: ImageOptions,
  images: ImageAttachment[],
): Promise<ContextAttachment> {
  const uri = vscode.Uri.parse(item.ref, true);
  const path = vscode.workspace.asRelativePath(uri, false);
  const base = { kind: 'image' as const, label: item.label, path };
  const usePath = vscode.l10n.t(
    'Its workspace path is {0}; tools that take a file (such as reference images of generate_video) accept that path.',
    path,
  );
  if (o.acceptsImages === false) {
    return makeAttachment(
      {
        ...base,
        note: `${vscode.l10n.t('The image was not sent: the model {0} does not take images.', o.model)} ${usePath}`,
      },
      '',
    );
  }
  const bytes = await vscode.workspace.fs.readFile(uri);
  if (bytes.byteLength > o.maxImageBytes) {
    const mb = (n: number) => (n / (1024 * 1024)).toFixed(1);
    return makeAttachment(
      {
        ...base,
        note: `${vscode.l10n.t('The image was not sent: it is {0} MB; the limit is {1} MB (setting gatewayStudio.chat.maxImageMegabytes).', mb(bytes.byteLength), mb(o.maxImageBytes))} ${usePath}`,
      },
      '',
    );
  }
  const mime = IMAGE_MIME[extension(uri)] ?? 'image/png';
  images.push({
    name: path,
    mime,
    dataUrl: `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`,
    bytes: bytes.byteLength,
  });
  return makeAttachment(
    { ...base, note: `${vscode.l10n.t('The image is attached below as an image part.')} ${usePath}` },
    '',
  );
}
