/**
 * Images a tool returned (an MCP server's screenshot, an embedded image resource): stored with
 * the tool's message, and sent to the model as image parts of a user message placed after the
 * turn's tool messages, since chat completions' tool messages (and what relays pass on) carry
 * text only. The user message says whose images they are, so the model does not read them as the
 * user's.
 */
import type { ImagePart, UserMessage as WireUserMessage } from '../../../api/chat/wire';
import type { ImageAttachment, ToolResultMessage } from '../../../shared/protocol';

/** How the images' user message begins (the local test gateway reads it as tool output, as a model would). */
export const TOOL_IMAGES_INTRO = 'Images returned by the tool calls';

/** At most this many images of one call are kept (the stored schema's limit). */
export const MAX_TOOL_IMAGES = 8;

const DATA_URL = /^data:(image\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/=]+)$/i;

/** The `images` field of a tool's stored message: its data-URL images, named after the tool. */
export function storedToolImages(
  parts: readonly ImagePart[] | undefined,
  tool: string,
): { images?: ImageAttachment[] } {
  const images: ImageAttachment[] = [];
  for (const p of parts ?? []) {
    const m = DATA_URL.exec(p.image_url.url);
    if (!m || images.length >= MAX_TOOL_IMAGES) continue;
    const base64 = m[2]!;
    const bytes = Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);
    images.push({
      name: `${tool} image ${images.length + 1}`,
      mime: m[1]!.toLowerCase(),
      dataUrl: p.image_url.url,
      bytes,
    });
  }
  return images.length ? { images } : {};
}

/** The user message carrying the images of the tool messages just sent; undefined when none has any. */
export function toolImagesMessage(
  tools: readonly Pick<ToolResultMessage, 'name' | 'toolCallId' | 'images'>[],
): WireUserMessage | undefined {
  const withImages = tools.filter((t) => (t.images?.length ?? 0) > 0);
  if (withImages.length === 0) return undefined;
  const names = withImages.map((t) => `${t.name} (${t.toolCallId})`).join(', ');
  return {
    role: 'user',
    content: [
      {
        type: 'text',
        text: `${TOOL_IMAGES_INTRO} ${names}, attached by the chat (tool output, not the user's words):`,
      },
      ...withImages.flatMap((t) =>
        (t.images ?? []).map((i): ImagePart => ({ type: 'image_url', image_url: { url: i.dataUrl } })),
      ),
    ],
  };
}
