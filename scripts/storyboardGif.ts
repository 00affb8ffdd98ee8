// Makes the README's storyboard GIF (media/storyboard-export.gif) the way the product makes one:
// three shots of 1, 2 and 3 s generated on the local gateway, downloaded over HTTP, and exported
// by webview/storyboard/media/gif.ts in headless Chromium under a 300 KB cap. Prints what the
// export chose. Run: node --import tsx scripts/storyboardGif.ts
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startGateway } from '../test/gateway/server';
import { launchMedia, openMedia } from '../test/webview/mediaHarness';

async function main(): Promise<void> {
  const gw = await startGateway({ videoStepMs: 5 });
  const browser = await launchMedia();
  try {
    const auth = { authorization: `Bearer ${gw.keys.valid}`, 'content-type': 'application/json' };
    const clips: string[] = [];
    for (const [seconds, prompt] of [
      [1, 'the login form'],
      [2, 'typing the password'],
      [3, 'the dashboard appears'],
    ] as const) {
      const made = await fetch(`${gw.videoUrl}/v1/videos/generations`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ model: 'vendor-image-video', prompt, seconds }),
      });
      const { id } = (await made.json()) as { id: string };
      gw.completeVideo(id);
      const res = await fetch(`${gw.videoUrl}/v1/videos/${id}/content`, { headers: auth });
      clips.push(Buffer.from(await res.arrayBuffer()).toString('base64'));
    }
    const { page } = await openMedia(browser);
    const out = await page.evaluate(async (b64s) => {
      type Gif = { bytes: Uint8Array };
      const media = (globalThis as unknown as { __media: Record<string, (...a: unknown[]) => unknown> }).__media;
      const buffers = b64s.map((b) => Uint8Array.from(atob(b), (c) => c.charCodeAt(0)).buffer);
      const gif = (await media.exportGif!(buffers, { maxWidth: 320, maxFps: 12, maxBytes: 300_000 })) as Gif;
      let bin = '';
      for (const x of gif.bytes) bin += String.fromCharCode(x);
      return { b64: btoa(bin), text: media.describeGif!(gif) as string };
    }, clips);
    writeFileSync(join(__dirname, '..', 'media', 'storyboard-export.gif'), Buffer.from(out.b64, 'base64'));
    console.log(`media/storyboard-export.gif: ${out.text}`);
  } finally {
    await browser.close();
    await gw.close();
  }
}

void main();
