/**
 * A diagnostic side of the download bench, not a product path: the same GET read straight off a
 * TCP socket, without node's HTTP client, into the product's write-behind writer, then an fsync.
 * The socket reads into one reused buffer (`onread`), and each read is copied once into a buffer
 * of its own for the writer (node's own reads allocate one per read too). What the new path loses
 * against this side is node's HTTP client; what this side loses against curl is the writer and
 * the process. The product cannot read this way: VS Code's proxy support patches node's `http`
 * and `https` modules, and a socket opened here would go around a configured proxy.
 *
 * Plain http, a Content-Length body and no redirects: what the local gateway sends. Anything else
 * rejects.
 */
import { promises as fs } from 'node:fs';
import net from 'node:net';
import { WriteBehind } from '../../src/files/writeBehind';

const READ_BYTES = 256 * 1024;

export async function rawSocketDownload(url: string, key: string, file: string): Promise<number> {
  const u = new URL(url);
  if (u.protocol !== 'http:') throw new Error('rawSocketDownload: plain http only');
  const fh = await fs.open(file, 'wx');
  try {
    const sink = new WriteBehind(fh);
    const received = await new Promise<number>((resolve, reject) => {
      let head = Buffer.alloc(0);
      let total = -1;
      let got = 0;
      // Set just below; the callbacks that use it run only once the socket is connected.
      const ref: { socket?: net.Socket } = {};
      const fail = (e: unknown) => {
        ref.socket?.destroy();
        reject(e instanceof Error ? e : new Error(String(e)));
      };
      const body = (chunk: Buffer): boolean => {
        got += chunk.length;
        const more = sink.write(Buffer.from(chunk));
        if (got >= total) {
          ref.socket?.destroy();
          sink.end(() => (sink.failure === undefined ? resolve(got) : fail(sink.failure)));
          return false;
        }
        if (!more) sink.once('drain', () => ref.socket?.resume());
        return more;
      };
      const socket = net.connect({
        host: u.hostname,
        port: Number(u.port || 80),
        onread: {
          buffer: Buffer.allocUnsafe(READ_BYTES),
          callback: (n: number, buf: Uint8Array): boolean => {
            const bytes = Buffer.from(buf.buffer, buf.byteOffset, n);
            if (total >= 0) return body(bytes);
            head = Buffer.concat([head, bytes]);
            const end = head.indexOf('\r\n\r\n');
            if (end < 0) return true;
            const lines = head.subarray(0, end).toString('latin1').split('\r\n');
            if (!/^HTTP\/1\.[01] 200 /.test(lines[0] ?? '')) {
              fail(new Error(`rawSocketDownload: ${lines[0] ?? 'no status line'}`));
              return false;
            }
            const length = lines.find((l) => /^content-length:/i.test(l));
            if (!length) {
              fail(new Error('rawSocketDownload: no Content-Length'));
              return false;
            }
            total = Number(length.slice(length.indexOf(':') + 1).trim());
            const rest = head.subarray(end + 4);
            return rest.length > 0 ? body(rest) : true;
          },
        },
      });
      ref.socket = socket;
      socket.on('connect', () =>
        socket.write(
          `GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nAuthorization: Bearer ${key}\r\n` +
            'Accept: video/mp4\r\nConnection: close\r\n\r\n',
        ),
      );
      socket.on('error', fail);
      socket.on('end', () => {
        if (total < 0 || got < total) fail(new Error(`rawSocketDownload: the connection closed after ${got} bytes`));
      });
    });
    await sink.settled();
    await fh.sync();
    return received;
  } finally {
    await fh.close();
  }
}
