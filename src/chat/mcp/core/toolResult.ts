/**
 * An MCP tool's result as the model gets it: text parts, embedded text resources and links as
 * text; images (image parts, embedded image resources) as images when the conversation's model
 * takes them and they are within the chat's image limit, each otherwise named with the reason it
 * was not sent; audio and other binary parts named.
 */
import type { ImagePart } from '../../../api/chat/wire';
import type { CallToolResult } from './connection';

export interface ResultImageOptions {
  /** Whether the model takes images (undefined: its list does not say, so they are sent). */
  acceptsImages: boolean | undefined;
  /** `gatewayStudio.chat.maxImageMegabytes`, in bytes, per image. */
  maxImageBytes: number;
  /** Images of one result sent at most (the rest are named). */
  maxImages?: number;
}

const IMAGE_MIME = /^image\/(png|jpeg|gif|webp)$/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The result's text and the images the model gets; without `o`, images are only named. */
export function resultParts(r: CallToolResult, o?: ResultImageOptions): { text: string; images: ImagePart[] } {
  const parts: string[] = [];
  const images: ImagePart[] = [];
  const image = (mime: string, data: string, what: string) => {
    const bytes = base64Bytes(data);
    const named = `[${what} ${mime}, ${bytes} bytes`;
    if (!o) return parts.push(`${named}]`);
    const why =
      !IMAGE_MIME.test(mime) || !BASE64.test(data)
        ? 'not an image the model can read'
        : imageRefusal(o, bytes, images.length);
    if (why) return parts.push(`${named}: not sent, ${why}]`);
    images.push({ type: 'image_url', image_url: { url: `data:${mime.toLowerCase()};base64,${data}` } });
    return parts.push(`${named}: attached after the tool results as image ${images.length}]`);
  };
  for (const p of r.content ?? []) {
    if (p.type === 'text') parts.push(p.text);
    else if (p.type === 'image') image(p.mimeType, p.data, 'image');
    else if (p.type === 'audio') parts.push(`[audio ${p.mimeType}, ${base64Bytes(p.data)} bytes]`);
    else if (p.type === 'resource') {
      const res = p.resource;
      if ('text' in res) parts.push(`Resource ${res.uri}:\n${res.text}`);
      else if (typeof res.blob === 'string' && /^image\//i.test(res.mimeType ?? ''))
        image(res.mimeType!, res.blob, `image resource ${res.uri},`);
      else parts.push(`[resource ${res.uri}, ${res.mimeType ?? 'binary'}]`);
    } else if (p.type === 'resource_link') parts.push(`[link ${p.uri}${p.name ? ` (${p.name})` : ''}]`);
  }
  if (parts.length === 0 && r.structuredContent !== undefined) parts.push(JSON.stringify(r.structuredContent));
  return { text: parts.join('\n'), images };
}

/** The bytes a base64 text decodes to (its padding not counted). */
function base64Bytes(b64: string): number {
  return Math.floor((b64.length * 3) / 4) - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);
}

function imageRefusal(o: ResultImageOptions, bytes: number, sent: number): string | undefined {
  if (o.acceptsImages === false) return 'the model does not take images';
  if (bytes > o.maxImageBytes) return `over the chat's image limit of ${o.maxImageBytes} bytes`;
  if (sent >= (o.maxImages ?? 4)) return 'too many images in one result';
  return undefined;
}
