/**
 * The fault matrix: one row per way the network, the gateway, the disk or the user can break a
 * chat answer or a video task, each run against the local gateway through the product's own code
 * (the chat session over a workspace-state storage, the video job manager over a task store and a
 * real folder). Every row states what the user sees (describeError's title, detail and actions, or
 * the video task's error) and proves nothing was lost: the question and the text that arrived are
 * in the stored conversation, the task keeps its id and resumes without a second creation, no
 * half-written file is left. The table is printed at the end.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { promises as fsp } from 'node:fs';
import { basename, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { HttpClient } from '../../src/api/transport/http';
import { VideoClient } from '../../src/api/video/video';
import type { VideoApi } from '../../src/video/jobs/core/job';
import { VideoJobManager } from '../../src/video/jobs/core/manager';
import { MemoryTaskStore, type VideoTaskRecord } from '../../src/video/jobs/core/record';
import { ConversationStore } from '../../src/chat/history/core/store';
import type { AssistantMessage, Conversation, ErrorView } from '../../src/shared/protocol';
import type { Fault } from '../gateway/faults';
import { useGateway, useTempDir } from '../support/helpers';
import { copyStorage, openSession, question, type OpenSessionOptions } from '../support/sessionHarness';

const CHAT = 'POST /v1/chat/completions';
const CREATE = 'POST /v1/videos/generations';
const CONTENT = 'GET /v1/videos/:id/content';

const gw = useGateway({ videoStepMs: 20, videoSteps: 3 });
const tmp = useTempDir('gs-fault-matrix-');

/** What a row ends with: what the user is shown, and what was checked to be kept. */
interface Outcome {
  /** The title (and actions) the user sees, or the visible result when nothing failed. */
  shown: string;
  /** What was proven kept. */
  kept: string;
}
let mountable: boolean | undefined;
const table: { row: string; outcome: string; kept: string; pass: boolean }[] = [];

/** Runs a row, records it for the table whether it passes or not. */
function row(name: string, run: () => Promise<Outcome>): void {
  void it(name, async () => {
    try {
      const o = await run();
      table.push({ row: name, outcome: o.shown, kept: o.kept, pass: true });
    } catch (e) {
      table.push({
        row: name,
        outcome: e instanceof Error ? e.message.split('\n')[0]! : String(e),
        kept: '',
        pass: false,
      });
      throw e;
    }
  });
}

after(() => {
  const w = [4, 38, 84];
  const cut = (s: string, n: number) => (s.length > n ? s.slice(0, n - 1) + '…' : s.padEnd(n));
  const lines = [
    `fault matrix: ${table.filter((r) => r.pass).length}/${table.length} rows pass`,
    `${'pass'.padEnd(w[0]!)} | ${'row'.padEnd(w[1]!)} | ${'what the user sees'.padEnd(w[2]!)} | kept`,
    ...table.map(
      (r) => `${(r.pass ? 'ok' : 'FAIL').padEnd(w[0]!)} | ${cut(r.row, w[1]!)} | ${cut(r.outcome, w[2]!)} | ${r.kept}`,
    ),
  ];
  process.stdout.write(lines.join('\n') + '\n');
});

const shownError = (e: ErrorView | { title: string; actions?: string[] }) =>
  `${e.title}${e.actions?.length ? ` [${e.actions.join(', ')}]` : ''}`;

// ---------------------------------------------------------------------------------------------
// Chat rows: a question sent in a session, as the panel sends it.

interface ChatEnd {
  /** The error the panel was sent (chat/error), if any. */
  error?: ErrorView;
  /** The answer text the panel was sent, deltas joined. */
  shown: string;
  /** The conversation as a window killed right after the turn would find it in storage. */
  stored: Conversation;
  answer: AssistantMessage | undefined;
  logs: string[];
}

async function ask(
  text: string,
  faults: Fault[],
  options: OpenSessionOptions = {},
  during?: (shownSoFar: () => string) => void,
): Promise<ChatEnd & { again: (text: string) => Promise<ChatEnd> }> {
  const h = openSession(gw, undefined, { timeoutMs: 15_000, ...options });
  for (const f of faults) gw.fault({ match: { path: '/chat/completions' }, ...f });
  let n = 0;
  const turn = async (q: string): Promise<ChatEnd> => {
    const id = `r${++n}`;
    const shown = () =>
      h.received
        .filter((m) => m.type === 'chat/delta' && m.requestId === id)
        .map((m) => (m.type === 'chat/delta' ? (m.content ?? '') : ''))
        .join('');
    const ended = () =>
      h.received.some((m) => (m.type === 'chat/done' || m.type === 'chat/error') && m.requestId === id);
    const sent = h.session.send(id, question(q));
    if (n === 1 && during) during(shown);
    await sent;
    await h.until(ended, `the end of ${id}`);
    const err = h.received.find((m) => m.type === 'chat/error' && m.requestId === id);
    const stored = new ConversationStore(copyStorage(h.storage)).load(h.session.conversationId);
    assert.ok(stored, 'the conversation is in storage');
    const answer = stored.messages.filter((m): m is AssistantMessage => m.role === 'assistant').at(-1);
    return { error: err?.type === 'chat/error' ? err.error : undefined, shown: shown(), stored, answer, logs: h.logs };
  };
  const first = await turn(text);
  return { ...first, again: turn };
}

/** The question is stored and the stored answer holds exactly the text the panel showed. */
function assertKept(end: ChatEnd, q: string, status: AssistantMessage['status']): string {
  const users = end.stored.messages.filter((m) => m.role === 'user');
  assert.equal(users.at(-1)?.role === 'user' && users.at(-1)?.text, q, 'the question is stored');
  assert.equal(end.answer?.status, status, `the stored answer is ${status}`);
  assert.equal(end.answer?.content, end.shown, 'the stored answer holds the text that was shown');
  return end.shown.length > 0
    ? `question + ${end.shown.split(/\s+/).filter(Boolean).length} words shown, all stored`
    : 'question stored';
}

void describe('fault matrix', () => {
  row('429 with Retry-After (then answered)', async () => {
    const t0 = Date.now();
    const end = await ask('after the limit', [{ status: 429, retryAfter: 1 }], { client: { maxRetries: 2 } });
    assert.equal(end.error, undefined);
    assert.equal(end.answer?.content, 'Echo: after the limit');
    assert.ok(Date.now() - t0 >= 900, 'the retry waited for Retry-After: 1');
    assert.match(end.answer?.notices?.[0] ?? '', /Retried \(attempt 1\)/);
    assert.equal(gw.counts()[CHAT], 2);
    return {
      shown: `the answer, with the notice "${end.answer?.notices?.[0]}"`,
      kept: assertKept(end, 'after the limit', 'done'),
    };
  });

  row('429 with Retry-After (still limited)', async () => {
    const end = await ask('still limited', [{ status: 429, retryAfter: 1, times: -1 }], { client: { maxRetries: 1 } });
    assert.equal(end.error?.title, 'Rate limited (429)');
    assert.match(end.error?.detail ?? '', /still limited after 1 automatic retries/);
    assert.deepEqual(end.error?.actions, ['retry', 'showLog']);
    assert.equal(gw.counts()[CHAT], 2);
    return { shown: shownError(end.error!), kept: assertKept(end, 'still limited', 'error') };
  });

  row('5xx', async () => {
    const end = await ask('server trouble', [{ status: 503, retryAfterMs: 10, times: -1 }], {
      client: { maxRetries: 1 },
    });
    assert.equal(end.error?.title, 'Gateway error (503)');
    assert.match(end.error?.detail ?? '', /1 automatic retries were made/);
    assert.deepEqual(end.error?.actions, ['retry', 'showLog']);
    return { shown: shownError(end.error!), kept: assertKept(end, 'server trouble', 'error') };
  });

  row('reset before headers', async () => {
    const end = await ask('nobody answers', [{ drop: 'before-headers', times: -1 }], {
      client: { maxRetries: 1, random: () => 1 },
    });
    assert.equal(end.error?.title, 'Could not reach the gateway');
    assert.match(end.error?.detail ?? '', /http\.proxy/);
    assert.deepEqual(end.error?.actions, ['retry', 'openSettings', 'showLog']);
    assert.equal(gw.counts()[CHAT], 2, 'one retry, then the error');
    return { shown: shownError(end.error!), kept: assertKept(end, 'nobody answers', 'error') };
  });

  row('reset mid-stream', async () => {
    const end = await ask('#long 300', [{ dropAfterBytes: 3000 }], { client: { maxRetries: 2 } });
    assert.equal(end.error?.title, 'The answer was cut off');
    assert.deepEqual(end.error?.actions, ['retry', 'showLog']);
    assert.ok(end.shown.length > 0, 'some text arrived before the reset');
    assert.equal(gw.counts()[CHAT], 1, 'nothing is retried once the answer started');
    return { shown: shownError(end.error!), kept: assertKept(end, '#long 300', 'error') };
  });

  row('stall past the idle watchdog', async () => {
    const t0 = Date.now();
    const end = await ask('#long 200', [{ stallAfterChunks: 6 }], { client: { idleTimeoutMs: 1000 } });
    assert.equal(end.error?.title, 'The gateway did not answer in time');
    assert.match(end.error?.detail ?? '', /sent nothing for 1 s/);
    assert.deepEqual(end.error?.actions, ['retry', 'openSettings', 'showLog']);
    assert.ok(Date.now() - t0 < 5000, 'cut by the watchdog, not left hanging');
    return { shown: shownError(end.error!), kept: assertKept(end, '#long 200', 'error') };
  });

  row('malformed chunk', async () => {
    const end = await ask('one two three four five', [{ malformedChunk: { afterChunks: 2 } }]);
    assert.equal(end.error, undefined, 'a garbled line does not fail the answer');
    assert.equal(end.answer?.content, 'Echo: one two three four five', 'the whole answer, the garbled line skipped');
    assert.ok(
      end.logs.some((l) => /skipped a stream event that is not JSON/.test(l)),
      'the skipped line is in the log',
    );
    return {
      shown: 'the whole answer; the garbled line is skipped and logged',
      kept: assertKept(end, 'one two three four five', 'done'),
    };
  });

  row('mid-stream error event', async () => {
    const end = await ask('#long 200', [
      { midStreamError: { afterChunks: 5, message: 'upstream overloaded', type: 'server_error', code: 'overloaded' } },
    ]);
    assert.equal(end.error?.title, 'The gateway reported an error during the answer');
    assert.match(end.error?.detail ?? '', /upstream overloaded/);
    assert.deepEqual(end.error?.actions, ['retry', 'showLog']);
    return { shown: `${shownError(end.error!)}: "upstream overloaded"`, kept: assertKept(end, '#long 200', 'error') };
  });

  row('truncated with [DONE]', async () => {
    const end = await ask('#long 40', [{ noFinishReason: true }]);
    assert.equal(end.error?.title, 'The answer was cut off');
    assert.match(end.error?.detail ?? '', /\[DONE\] but without a finish_reason/);
    assert.deepEqual(end.error?.actions, ['retry', 'showLog']);
    return { shown: shownError(end.error!), kept: assertKept(end, '#long 40', 'error') };
  });

  row('key changed mid-stream', async () => {
    let key: string | undefined = gw.keys.valid;
    const end = await ask('#long 60', [{ chunkDelayMs: 15 }], { apiKey: () => key }, (shown) => {
      // The user runs Set API Key (a key without balance) while the answer streams.
      const wait = setInterval(() => {
        if (shown().length > 0) {
          key = gw.keys.noBalance;
          clearInterval(wait);
        }
      }, 5);
    });
    assert.equal(key, gw.keys.noBalance, 'the key changed while the answer streamed');
    assert.equal(end.error, undefined, 'the answer under way finishes with the key it started with');
    assert.equal(end.answer?.content.split(/\s+/).length, 60);
    const kept = assertKept(end, '#long 60', 'done');
    const next = await end.again('and now?');
    assert.equal(next.error?.title, 'Access denied (403)', 'the next question uses the new key');
    assert.match(next.error?.detail ?? '', /balance/);
    assert.deepEqual(
      gw
        .requests()
        .filter((r) => r.route === '/v1/chat/completions')
        .map((r) => r.auth),
      ['valid', 'noBalance'],
    );
    assertKept(next, 'and now?', 'error');
    assert.equal(next.stored.messages.length, 4, 'both turns are stored');
    const everything = JSON.stringify(next.stored);
    assert.ok(!everything.includes(gw.keys.valid) && !everything.includes(gw.keys.noBalance), 'no key in storage');
    return {
      shown: `the answer completes; next question: ${shownError(next.error!)}`,
      kept: `${kept}; both turns stored, no key`,
    };
  });

  // -------------------------------------------------------------------------------------------
  // Video rows: a task through the job manager into a real folder.

  interface Video {
    manager: VideoJobManager;
    store: MemoryTaskStore;
    /** Where the next save goes; a row may point it elsewhere before resuming. */
    dir: { path: string };
    key: { value: string | undefined };
  }

  /**
   * A manager as the extension builds it: the client is made per call with the key SecretStorage
   * holds at that moment (src/video/vscode/clients.ts, getGatewayClient).
   */
  function video(dir: string, store = new MemoryTaskStore()): Video {
    const key = { value: gw.keys.valid as string | undefined };
    const client = () =>
      new VideoClient(new HttpClient({ baseUrl: gw.videoUrl, apiKey: key.value, maxRetries: 0, random: () => 0 }));
    const api: VideoApi = {
      create: (req, signal) => client().create(req, signal),
      readerForRound: () => Promise.resolve(client()),
      download: (src, dest, o) => client().download(src, dest, o),
    };
    const target = { path: dir };
    const manager = new VideoJobManager({
      api,
      store,
      pollIntervalMs: () => 15,
      pollLimit: () => 200,
      destination: () => Promise.resolve(target.path),
    });
    return { manager, store, dir: target, key };
  }

  async function until(cond: () => boolean, what: string, ms = 5000): Promise<void> {
    const end = Date.now() + ms;
    while (!cond()) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  /**
   * The task kept what it needs (state error, its id, in the store), nothing half-written is left
   * in `dir`, and Resume (after `fix`) saves a real MP4 without a second creation.
   */
  async function assertResumes(
    v: Video,
    record: VideoTaskRecord,
    dir: string,
    fix: () => void | Promise<void>,
  ): Promise<string> {
    const stored = v.store.load().find((r) => r.key === record.key);
    assert.equal(stored?.state, 'error', 'the task is stored in error');
    assert.match(stored?.videoId ?? '', /^video_svc_v1_/, 'the stored task keeps its id');
    const left = existsSync(dir) ? readdirSync(dir) : [];
    assert.deepEqual(left, [], `nothing half-written is left in the folder (found ${left.join(', ')})`);
    await fix();
    assert.equal(await v.manager.resume(record.key), 'saved', 'Resume saves the video');
    const saved = v.manager.get(record.key)!;
    assert.equal(readFileSync(saved.file!).subarray(4, 8).toString('latin1'), 'ftyp', 'the saved file is an MP4');
    assert.equal(gw.counts()[CREATE], 1, 'exactly one creation');
    return 'task id stored; no partial file; Resume saved it with 1 POST';
  }

  async function failingTask(
    v: Video,
    prompt: string,
  ): Promise<{ record: VideoTaskRecord; error: NonNullable<VideoTaskRecord['error']> }> {
    const { record, done } = await v.manager.submit({ request: { model: 'vendor-image-video', prompt } });
    assert.equal(await done, 'error');
    const error = v.manager.get(record.key)!.error!;
    return { record, error };
  }

  row('truncated download', async () => {
    gw.fault({ match: { path: '/content' }, contentTruncate: 50, times: -1 });
    const dir = tmp.fresh('truncated');
    const v = video(dir);
    const { record, error } = await failingTask(v, 'cut fox');
    assert.equal(error.title, 'The download was cut off');
    assert.match(error.detail, /stopped after \d+ of \d+ bytes/);
    assert.equal(gw.counts()[CONTENT], 2, 'retried once, then reported');
    const kept = await assertResumes(v, record, dir, () => gw.clearFaults());
    return { shown: `${error.title} [Resume, Show Log]`, kept };
  });

  row('connection dropped mid-download (Accept-Ranges: resumed)', async () => {
    const size = 3 * 1024 * 1024;
    gw.fault({ match: { path: '/content' }, contentSize: size, acceptRanges: true, contentTruncate: 1024 * 1024 });
    gw.fault({ match: { path: '/content' }, contentSize: size, acceptRanges: true });
    const dir = tmp.fresh('resumed');
    const v = video(dir);
    const { record, done } = await v.manager.submit({
      request: { model: 'vendor-image-video', prompt: 'resumed fox' },
    });
    assert.equal(await done, 'saved', JSON.stringify(v.manager.get(record.key)?.error));
    const file = v.manager.get(record.key)!.file!;
    assert.equal(readFileSync(file).length, size, 'the whole video');
    const ranges = gw
      .requests()
      .filter((r) => r.route === '/v1/videos/:id/content')
      .map((r) => r.headers.range ?? 'whole');
    assert.equal(ranges.length, 2, 'one request and one resume, not a second whole download');
    assert.match(ranges[1]!, /^bytes=[1-9]\d*-$/);
    const parts = readdirSync(dir).filter((f) => f.endsWith('.part'));
    assert.deepEqual(parts, [], 'no partial file is left');
    assert.ok(readdirSync(dir).includes(basename(file)));
    return { shown: 'the video is saved; nothing is shown', kept: `resumed with Range ${ranges[1]}; 1 POST` };
  });

  row('JSON instead of video', async () => {
    gw.fault({ match: { path: '/content' }, contentJson: true, times: -1 });
    const dir = tmp.fresh('json');
    const v = video(dir);
    const { record, error } = await failingTask(v, 'json fox');
    assert.equal(error.title, 'The download was not a video');
    assert.match(error.detail, /wrong path was called or the API key header was missing/);
    const kept = await assertResumes(v, record, dir, () => gw.clearFaults());
    return { shown: `${error.title} [Resume, Show Log]`, kept };
  });

  row('restart mid-poll (exactly one POST)', async () => {
    const store = new MemoryTaskStore();
    const dir = tmp.fresh('restart');
    const first = video(dir, store);
    const { record } = await first.manager.submit({
      request: { model: 'vendor-image-video', prompt: 'restart fox #never' },
    });
    await until(() => (store.load().find((r) => r.key === record.key)?.polls ?? 0) >= 2, 'two polls');
    first.manager.dispose(); // the window closes mid-poll
    const stored = store.load().find((r) => r.key === record.key)!;
    assert.equal(stored.state, 'polling');
    const second = video(dir, store);
    const [resumed, ...more] = second.manager.resumeUnfinished();
    assert.equal(more.length, 0);
    gw.completeVideo(stored.videoId!);
    assert.equal(await resumed, 'saved');
    assert.ok(existsSync(second.manager.get(record.key)!.file!));
    assert.equal(gw.counts()[CREATE], 1, 'exactly one POST');
    return {
      shown: 'the task resumes by itself after the restart and is saved',
      kept: 'task id stored; 1 POST; video saved',
    };
  });

  row(`disk full while saving (${canMount() ? 'a 1 MiB tmpfs' : 'ENOSPC injected at the file layer'})`, async () => {
    const full = tmp.fresh('full');
    const roomy = tmp.fresh('roomy');
    gw.fault({ match: { path: '/content' }, contentSize: 3 * 1024 * 1024, times: -1 });
    const undo = canMount() ? mountTmpfs(full, 'size=1m') : injectEnospc(full);
    try {
      const v = video(full);
      const { record, error } = await failingTask(v, 'big fox');
      assert.equal(error.title, 'Not saved: the disk is full');
      assert.match(error.detail, /not enough free space in .*full-.*ENOSPC.*resume the task/);
      const kept = await assertResumes(v, record, full, () => {
        v.dir.path = roomy; // the user picks another folder
      });
      assert.equal(readFileSync(v.manager.get(record.key)!.file!).length, 3 * 1024 * 1024, 'the whole video');
      return { shown: `${error.title} [Resume, Show Log]`, kept: `${kept} into another folder` };
    } finally {
      undo();
    }
  });

  row(
    `unwritable output folder (${canMount() ? 'a read-only tmpfs' : process.getuid?.() === 0 ? 'EACCES injected' : 'mode 0555'})`,
    async () => {
      const dir = tmp.fresh('readonly');
      const undo = canMount() ? mountTmpfs(dir, 'ro,size=64k') : readOnly(dir);
      let kept = '';
      try {
        const v = video(dir);
        const { record, error } = await failingTask(v, 'locked fox');
        assert.equal(error.title, 'Not saved: the output folder cannot be written');
        assert.match(error.detail, /refuses new files \((EROFS|EACCES)\)/);
        kept = await assertResumes(v, record, dir, () => {
          undo();
        });
        return { shown: `${error.title} [Resume, Show Log]`, kept: `${kept} once writable` };
      } finally {
        undo();
      }
    },
  );

  row('key removed mid-task', async () => {
    const dir = tmp.fresh('nokey');
    const v = video(dir);
    const { record, done } = await v.manager.submit({
      request: { model: 'vendor-image-video', prompt: 'keyless fox #never' },
    });
    await until(() => (v.manager.get(record.key)?.polls ?? 0) >= 1, 'a poll');
    v.key.value = undefined; // Clear API Key while the task runs
    gw.completeVideo(v.manager.get(record.key)!.videoId!);
    assert.equal(await done, 'error');
    const error = v.manager.get(record.key)!.error!;
    assert.equal(error.title, 'The API key was refused (401)');
    assert.match(error.detail, /Set API Key/);
    assert.ok(
      gw.requests().some((r) => r.route === '/v1/videos/:id/content' && r.auth === 'missing'),
      'the download went out without a key',
    );
    const kept = await assertResumes(v, record, dir, () => {
      v.key.value = gw.keys.valid; // Set API Key again
    });
    return { shown: `${error.title} [Resume, Set API Key, Show Log]`, kept };
  });
});

// ---------------------------------------------------------------------------------------------
// The disk: a real small or read-only file system when this machine lets us mount one (root on
// Linux), else the failure injected where the product writes.

function canMount(): boolean {
  if (mountable === undefined) {
    mountable = false;
    if (process.platform === 'linux' && process.getuid?.() === 0 && process.env.GWS_FAULTS_NO_MOUNT !== '1') {
      const probe = mkdtempSync(join(tmpdir(), 'gs-mount-probe-'));
      try {
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' });
        execFileSync('umount', [probe], { stdio: 'ignore' });
        mountable = true;
      } catch {
        mountable = false;
      } finally {
        rmSync(probe, { recursive: true, force: true });
      }
    }
  }
  return mountable;
}

/** Mounts a tmpfs with `opts` on `dir`; returns an idempotent unmount. */
function mountTmpfs(dir: string, opts: string): () => void {
  execFileSync('mount', ['-t', 'tmpfs', '-o', opts, 'tmpfs', dir]);
  let mounted = true;
  return () => {
    if (!mounted) return;
    mounted = false;
    execFileSync('umount', ['-l', dir]);
  };
}

/** Makes writes of files opened in `dir` fail with ENOSPC past 1 MiB (the downloader uses writev); returns the undo. */
function injectEnospc(dir: string): () => void {
  const open = fsp.open;
  fsp.open = (async (...args: Parameters<typeof fsp.open>) => {
    const fh = await open(...args);
    if (!String(args[0]).startsWith(dir)) return fh;
    let written = 0;
    const writev = fh.writev.bind(fh);
    fh.writev = (async (bufs: NodeJS.ArrayBufferView[], position?: number) => {
      written += bufs.reduce((n, b) => n + b.byteLength, 0);
      if (written > 1024 * 1024)
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write' });
      return writev(bufs, position);
    }) as typeof fh.writev;
    return fh;
  }) as typeof fsp.open;
  return () => {
    fsp.open = open;
  };
}

/** A folder new files cannot be created in: mode 0555 for a normal user, an injected EACCES for root. */
function readOnly(dir: string): () => void {
  if (process.getuid?.() !== 0) {
    chmodSync(dir, 0o555);
    return () => chmodSync(dir, 0o755);
  }
  const open = fsp.open;
  fsp.open = (async (...args: Parameters<typeof fsp.open>) => {
    if (String(args[0]).startsWith(dir))
      throw Object.assign(new Error(`EACCES: permission denied, open '${String(args[0])}'`), {
        code: 'EACCES',
        syscall: 'open',
      });
    return open(...args);
  }) as typeof fsp.open;
  let undone = false;
  return () => {
    if (undone) return;
    undone = true;
    fsp.open = open;
  };
}
