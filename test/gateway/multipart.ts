/** A small multipart/form-data reader (RFC 7578) for the routes that take files: image edits and `/v1/videos`. */

export interface MultipartPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

/** The parts of `raw`, or undefined when `contentType` is not multipart/form-data with a boundary. */
export function parseMultipart(raw: Buffer, contentType: string | undefined): MultipartPart[] | undefined {
  const m = /^multipart\/form-data;.*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  if (!m) return undefined;
  const boundary = Buffer.from(`--${m[1] ?? m[2]}`);
  const parts: MultipartPart[] = [];
  let at = raw.indexOf(boundary);
  while (at !== -1) {
    const start = at + boundary.length;
    if (raw.subarray(start, start + 2).toString() === '--') break;
    const next = raw.indexOf(boundary, start);
    if (next === -1) break;
    // Each part: CRLF, headers, CRLF CRLF, data, CRLF before the next boundary.
    const part = raw.subarray(start + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    if (split !== -1) {
      const headers = part.subarray(0, split).toString('utf8');
      const name = /name="([^"]*)"/i.exec(headers)?.[1];
      const filename = /filename="([^"]*)"/i.exec(headers)?.[1];
      const type = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1];
      if (name !== undefined)
        parts.push({
          name,
          data: part.subarray(split + 4),
          ...(filename !== undefined ? { filename } : {}),
          ...(type !== undefined ? { contentType: type.trim() } : {}),
        });
    }
    at = next;
  }
  return parts;
}
