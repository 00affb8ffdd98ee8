/**
 * Memory and speed of the video download: peak RSS and heap above a baseline measured in the same run, while
 * `VideoClient.download` streams a 200 MB video from the local gateway, next to a 50 MB streamed
 * download (flatness: the peak should not grow with the size) and a naive `arrayBuffer()` download
 * of 50 MB (what buffering costs). A last 200 MB run collects garbage every 50 ms, so its figure is
 * the memory the download really holds (the others include garbage V8 has not collected yet). Then 1 GB,
 * with curl on the same URL in the same run as the throughput baseline (goals: RSS growth ≤ 64 MB,
 * ≥ 70 % of curl's throughput). The gateway runs in a child process so its memory is not counted. Prints figures; asserts nothing about time.
 *
 * Run: `npm run bench -- video-download` (or `node --expose-gc --import tsx bench/video-download.bench.ts`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpClient } from '../src/api/http';
import { VideoClient } from '../src/api/video';
import { pollLoop } from '../src/video/jobs/core/pollLoop';

const MB = 1024 * 1024;
const GB = 1024 * MB;
const KEY = 'sk-demo-gateway-studio';

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function startGatewayProcess(): Promise<{ child: ChildProcess; videoUrl: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/gateway/cli.ts', '--step-ms', '5', '--steps', '1'], {
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
      const m = /video base URL:\s+(\S+)\/v1/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, videoUrl: m[1]! });
      }
    });
    child.once('exit', (code) => reject(new Error(`the gateway exited with ${String(code)}`)));
  });
}

interface Peak {
  rss: number;
  heap: number;
  external: number;
}

/** Runs `fn` while sampling memory every 5 ms; returns peaks above the baseline taken just before. */
async function measure(fn: () => Promise<unknown>, forceGc = false): Promise<{ base: Peak; peak: Peak; ms: number }> {
  gc();
  await new Promise((r) => setTimeout(r, 50));
  gc();
  const m0 = process.memoryUsage();
  const base = { rss: m0.rss, heap: m0.heapUsed, external: m0.external + m0.arrayBuffers };
  const peak = { ...base };
  const sample = () => {
    // With forceGc the figure is what is still reachable, not garbage waiting for a collection.
    if (forceGc) gc();
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss);
    peak.heap = Math.max(peak.heap, m.heapUsed);
    peak.external = Math.max(peak.external, m.external + m.arrayBuffers);
  };
  const timer = setInterval(sample, forceGc ? 50 : 5);
  const t0 = performance.now();
  try {
    await fn();
  } finally {
    clearInterval(timer);
    sample();
  }
  return { base, peak, ms: performance.now() - t0 };
}

/** Downloads `url` with curl (after queueing the same content size), returns the wall time in ms. */
async function curlDownload(control: (body: unknown) => Promise<Response>, url: string, file: string): Promise<number> {
  await control({ match: { path: '/content' }, contentSize: GB, times: 1 });
  const t0 = performance.now();
  const code = await new Promise<number | null>((resolve, reject) => {
    const c = spawn('curl', ['-sS', '--fail', '-o', file, '-H', `Authorization: Bearer ${KEY}`, url], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    c.once('error', reject);
    c.once('exit', resolve);
  });
  const ms = performance.now() - t0;
  if (code !== 0) throw new Error(`curl exited with ${String(code)} (is curl installed?)`);
  if (statSync(file).size !== GB) throw new Error('curl: wrong size');
  rmSync(file);
  return ms;
}

async function main(): Promise<void> {
  const { child, videoUrl } = await startGatewayProcess();
  const dir = mkdtempSync(join(tmpdir(), 'gs-bench-video-'));
  const control = (body: unknown) =>
    fetch(`${videoUrl}/__control/fault`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  try {
    const client = new VideoClient(new HttpClient({ baseUrl: videoUrl, apiKey: KEY }));
    const { id } = await client.create({ model: 'vendor-image-video', prompt: 'benchmark' });
    const done = await pollLoop(client, id, { intervalMs: 20, limit: 200 });
    if (done.kind !== 'done' || done.status.outcome !== 'completed')
      throw new Error('the benchmark task did not complete');

    const streamed = async (size: number, name: string, forceGc = false) => {
      await control({ match: { path: '/content' }, contentSize: size, times: 1 });
      const file = join(dir, name);
      const r = await measure(() => client.download(id, file), forceGc);
      if (statSync(file).size !== size) throw new Error(`${name}: wrong size`);
      rmSync(file);
      return r;
    };

    // Warm-up so module loading and first-use allocations are not counted against either side.
    await streamed(4 * MB, 'warm.mp4');
    const small = await streamed(50 * MB, 'small.mp4');
    const large = await streamed(200 * MB, 'large.mp4');
    const retained = await streamed(200 * MB, 'retained.mp4', true);

    const naiveSize = 50 * MB;
    await control({ match: { path: '/content' }, contentSize: naiveSize, times: 1 });
    const naive = await measure(async () => {
      const res = await fetch(`${videoUrl}/v1/videos/${id}/content`, { headers: { Authorization: `Bearer ${KEY}` } });
      const buf = Buffer.from(await res.arrayBuffer());
      writeFileSync(join(dir, 'naive.mp4'), buf);
    });

    const mb = (n: number) => (n / MB).toFixed(1);
    const row = (label: string, size: number, r: Awaited<ReturnType<typeof measure>>) =>
      `${label.padEnd(30)} ${mb(size).padStart(6)} MB  ` +
      `RSS +${mb(r.peak.rss - r.base.rss).padStart(6)} MB  heap +${mb(r.peak.heap - r.base.heap).padStart(5)} MB  ` +
      `buffers +${mb(r.peak.external - r.base.external).padStart(6)} MB  ${(size / MB / (r.ms / 1000)).toFixed(0).padStart(5)} MB/s`;
    console.log(`baseline before the 200 MB download: RSS ${mb(large.base.rss)} MB, heap ${mb(large.base.heap)} MB`);
    console.log(row('streamed download (ours)', 50 * MB, small));
    console.log(row('streamed download (ours)', 200 * MB, large));
    console.log(row('ours, gc every 50 ms (live)', 200 * MB, retained));
    console.log(row('naive arrayBuffer() download', naiveSize, naive));
    const largeRss = Math.max(1, large.peak.rss - large.base.rss);
    const smallRss = Math.max(1, small.peak.rss - small.base.rss);
    const naiveRss = Math.max(1, naive.peak.rss - naive.base.rss);
    console.log(
      `flatness: peak RSS growth at 200 MB / at 50 MB = ${(largeRss / smallRss).toFixed(2)} (1.0 = independent of size; the file is 4x larger)`,
    );
    console.log(
      `peak RSS growth as a share of the file: ours ${((100 * largeRss) / (200 * MB)).toFixed(1)} % of 200 MB, naive ${((100 * naiveRss) / naiveSize).toFixed(1)} % of 50 MB`,
    );
    console.log(
      `same 50 MB file, naive / ours peak RSS growth: ${(naiveRss / smallRss).toFixed(1)}x; naive 50 MB / ours 200 MB: ${(naiveRss / largeRss).toFixed(1)}x`,
    );

    // 1 GB: ours against curl on the same URL and server in the same run (curl's throughput is
    // the best a client can do here; both write to the same disk).
    const gig = await streamed(GB, 'gig.mp4');
    const curlMs = await curlDownload(control, `${videoUrl}/v1/videos/${id}/content`, join(dir, 'curl.mp4'));
    const oursMbs = GB / MB / (gig.ms / 1000);
    const curlMbs = GB / MB / (curlMs / 1000);
    const gigRss = gig.peak.rss - gig.base.rss;
    console.log(row('streamed download (ours)', GB, gig));
    console.log(`curl, same URL                   1024.0 MB  ${curlMbs.toFixed(0).padStart(5)} MB/s`);
    console.log(`1 GB RSS growth: ${mb(gigRss)} MB (goal ≤ 64 MB: ${gigRss <= 64 * MB ? 'met' : 'MISSED'})`);
    console.log(
      `1 GB throughput, ours / curl: ${((100 * oursMbs) / curlMbs).toFixed(0)} % (goal ≥ 70 %: ${oursMbs >= 0.7 * curlMbs ? 'met' : 'MISSED'})`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
    child.kill('SIGTERM');
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
