/**
 * Memory of saving an image answer's link (issue 40): peak RSS and heap above a baseline taken in
 * the same run while `saveImageOutput` streams a 20 MB image from the local gateway's link host
 * into the output folder, next to a 5 MB one (flatness: the peak should not grow with the size)
 * and a naive `arrayBuffer()` download of the same 20 MB written with `writeFile` (what buffering
 * costs). A last 20 MB run collects garbage every 20 ms, so its figure is the memory the save
 * really holds. The gateway runs in a child process so its memory is not counted. Asserts nothing
 * about time.
 *
 * Run: `npm run bench -- image-download` (or `node --expose-gc --import tsx bench/image-download.bench.ts`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, promises as fsp, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpClient } from '../src/api/transport/http';
import { ImageClient } from '../src/api/images/images';
import { saveImageOutput } from '../src/images/jobs/core/saveImage';

const MB = 1024 * 1024;
const KEY = 'sk-demo-gateway-studio';

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function startGatewayProcess(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/gateway/cli.ts'], {
    cwd: join(__dirname, '..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error('the gateway did not start within 20 s'));
    }, 20_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /chat base URL:\s+(\S+)\/v1/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]! });
      }
    });
    child.once('exit', (code) => reject(new Error(`the gateway exited with ${String(code)}`)));
  });
}

interface Peak {
  rss: number;
  heap: number;
}

async function measure(fn: () => Promise<unknown>, forceGc = false): Promise<{ grew: Peak; ms: number }> {
  gc();
  await new Promise((r) => setTimeout(r, 50));
  gc();
  const m0 = process.memoryUsage();
  const peak = { rss: m0.rss, heap: m0.heapUsed };
  const sample = () => {
    if (forceGc) gc();
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss);
    peak.heap = Math.max(peak.heap, m.heapUsed);
  };
  const timer = setInterval(sample, forceGc ? 20 : 5);
  const t0 = performance.now();
  try {
    await fn();
  } finally {
    clearInterval(timer);
    sample();
  }
  return { grew: { rss: peak.rss - m0.rss, heap: peak.heap - m0.heapUsed }, ms: performance.now() - t0 };
}

async function main(): Promise<void> {
  const { child, url } = await startGatewayProcess();
  const dir = mkdtempSync(join(tmpdir(), 'gs-bench-image-'));
  const http = new HttpClient({ baseUrl: url, apiKey: KEY });
  const images = new ImageClient(http);
  const mb = (n: number) => (n / MB).toFixed(1);
  try {
    const link = async (size: number) => {
      const a = await images.generate({ model: 'doubao-seedream-4-0', prompt: `bench #big:${size}` });
      return a.images[0]!;
    };
    const streamed = async (size: number, forceGc = false) => {
      const out = await link(size);
      let file = '';
      const r = await measure(async () => {
        file = (await saveImageOutput(http, dir, out, { prompt: 'bench', model: 'seedream', operation: 'generate' }))
          .file;
      }, forceGc);
      if (statSync(file).size !== size * MB) throw new Error(`${size} MB: wrong size`);
      rmSync(file);
      rmSync(file.replace(/\.png$/, '.json'));
      return r;
    };
    const naive = async (size: number) => {
      const out = await link(size);
      if (out.kind !== 'url') throw new Error('expected a link');
      const file = join(dir, 'naive.png');
      const r = await measure(async () => {
        const res = await fetch(out.url);
        await fsp.writeFile(file, Buffer.from(await res.arrayBuffer()));
      });
      rmSync(file);
      return r;
    };

    await streamed(2); // warm-up: module loading and first allocations
    const small = await streamed(5);
    const large = await streamed(20);
    const buffered = await naive(20);
    const held = await streamed(20, true);
    const line = (name: string, r: { grew: Peak; ms: number }) =>
      console.log(
        `${name.padEnd(42)} RSS +${mb(r.grew.rss).padStart(6)} MB  heap +${mb(r.grew.heap).padStart(6)} MB  ${r.ms.toFixed(0).padStart(5)} ms`,
      );
    line('streamed save, 5 MB', small);
    line('streamed save, 20 MB', large);
    line('streamed save, 20 MB (gc every 20 ms)', held);
    line('baseline: arrayBuffer + writeFile, 20 MB', buffered);
    console.log(
      `20 MB streamed / buffered RSS growth: ${(large.grew.rss / Math.max(MB, buffered.grew.rss)).toFixed(2)}; 20 MB / 5 MB streamed (each at least 1 MB): ${(Math.max(MB, large.grew.rss) / Math.max(MB, small.grew.rss)).toFixed(2)}`,
    );
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
