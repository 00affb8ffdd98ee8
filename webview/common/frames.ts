/**
 * Frames from a `<video>` as PNG data URLs, drawn on a canvas: posters and "use this frame" need
 * no FFmpeg. The video element loads with `crossorigin="anonymous"` (VS Code's resource worker
 * answers with `Access-Control-Allow-Origin: *`), so the canvas is not tainted.
 */

/** The current frame, scaled to at most `maxWidth` pixels wide, as a PNG data URL. */
export function frameToPng(video: HTMLVideoElement, maxWidth = Number.POSITIVE_INFINITY): string | undefined {
  const w = video.videoWidth;
  const h = video.videoHeight;
  if (!w || !h) return undefined;
  const scale = Math.min(1, maxWidth / w);
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(w * scale));
  canvas.height = Math.max(1, Math.round(h * scale));
  const ctx = canvas.getContext('2d');
  if (!ctx) return undefined;
  ctx.drawImage(video, 0, 0, canvas.width, canvas.height);
  try {
    return canvas.toDataURL('image/png');
  } catch {
    // A tainted canvas (a host that sends no CORS header): no poster rather than an error.
    return undefined;
  }
}

/** Whether this browser decodes H.264 MP4 at all (Chromium builds differ: VS Code's may not). */
export function playsH264(): boolean {
  return document.createElement('video').canPlayType('video/mp4; codecs="avc1.42E01E"') !== '';
}
