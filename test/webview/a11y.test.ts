import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import type { AssistantMessage, ChatMessage, HostMessage } from '../../src/shared/protocol';
import { axeViolations, countByImpact, describe, IMPACTS, type Impact, type Violation } from './axe';
import { openGallery, task, VIDEO_URL } from './galleryHarness';
import { openHarness, snapshot, type Harness, useBrowser } from './harness';
import { applyTheme, THEMES, type Theme } from './themes';

/*
 * axe-core over the chat panel and the video gallery in VS Code's light, dark and high-contrast
 * themes, in the states a user meets: empty, a conversation with code blocks, a tool card waiting
 * for approval, an error, each panel open; the gallery with running, failed and saved videos.
 * Serious and critical violations fail the test; the figures per theme are printed.
 */

const browser = useBrowser();

const MARKDOWN = [
  '## Reading a file',
  '',
  'Use `readFile` and check the result:',
  '',
  '```ts',
  "import { readFile } from 'node:fs/promises';",
  "const text = await readFile('a.txt', 'utf8'); // 42",
  'export function size(s: string): number {',
  '  return s.length;',
  '}',
  '```',
  '',
  '| option | meaning |',
  '|---|---|',
  '| `utf8` | decode as text |',
  '',
  '1. open the file',
  '2. read it',
  '',
  '> A quote with a [link](https://example.com/docs).',
  '',
  '```json',
  '{ "ok": true, "n": 1 }',
  '```',
].join('\n');

const user = (id: string, text: string): ChatMessage => ({
  id,
  role: 'user',
  text,
  images: [],
  contexts: [{ fileName: '/ws/src/a.ts', language: 'typescript', text: 'const a = 1;', startLine: 0, endLine: 0 }],
  createdAt: 1,
});
const answer = (id: string, extra: Partial<AssistantMessage> = {}): AssistantMessage => ({
  id,
  role: 'assistant',
  content: MARKDOWN,
  status: 'done',
  requestedModel: 'gw-chat',
  model: 'gw-chat-2026',
  finishReason: 'stop',
  usage: { prompt_tokens: 12, completion_tokens: 80, total_tokens: 92 },
  reasoning: 'First I think about files.',
  createdAt: 2,
  ...extra,
});

function conversation(messages: ChatMessage[]): HostMessage {
  return snapshot({
    conversation: { id: 'c1', title: 'Files', createdAt: 1, updatedAt: 2, model: '', params: {}, messages },
  });
}

const MODELS: HostMessage = {
  type: 'models/list',
  loading: false,
  models: [
    { id: 'gw-chat', capabilities: ['streaming'], supportsImages: false },
    { id: 'gw-vision', capabilities: ['image'], supportsImages: true },
  ],
};
const TOOLS: HostMessage = {
  type: 'tools/list',
  choice: 'auto',
  tools: [
    { name: 'read_file', description: 'Reads a text file.', readOnly: true, enabled: true, trusted: false },
    { name: 'write_file', description: 'Writes a file.', readOnly: false, enabled: true, trusted: false },
  ],
};
/** The context meter (merged from the window branch): filling, and too full to send with tools. */
const meter = (fixedTooLarge: boolean): HostMessage => ({
  type: 'context/meter',
  meter: {
    model: 'gw-chat',
    window: 8000,
    source: 'model',
    field: 'context_length',
    system: 300,
    tools: fixedTooLarge ? 9000 : 900,
    history: 2000,
    attachments: 0,
    reserve: 1000,
    charsPerToken: 4,
    lastPromptTokens: 3100,
    toolMode: 'all',
    fixedTooLarge,
  },
});

const ERROR = {
  title: 'The gateway refused the key (401)',
  detail: 'The API key is missing or wrong. Run Set API Key.',
  actions: ['setApiKey', 'retry', 'showLog'] as const,
};

interface ChatState {
  name: string;
  setUp(h: Harness): Promise<void>;
}

const CHAT_STATES: ChatState[] = [
  { name: 'empty', setUp: async (h) => void (await h.send(MODELS)) },
  {
    name: 'conversation with code blocks',
    setUp: async (h) => {
      await h.send(conversation([user('u1', 'How do I read a file?'), answer('a1')]));
      await h.send(MODELS);
      await h.send(meter(false));
      assert.equal(await h.page.locator('.context-meter').count(), 1, 'the context meter is on screen');
    },
  },
  {
    name: 'streaming answer',
    setUp: async (h) => {
      await h.send(conversation([user('u1', 'How do I read a file?')]));
      await h.send({ type: 'chat/busy', requestId: 'r1' });
      await h.send({
        type: 'chat/message',
        requestId: 'r1',
        message: answer('a1', { status: 'streaming', content: '' }),
      });
      await h.send({ type: 'chat/delta', requestId: 'r1', messageId: 'a1', content: MARKDOWN.slice(0, 200) });
    },
  },
  {
    name: 'tool card awaiting approval',
    setUp: async (h) => {
      await h.send(TOOLS);
      await h.send(conversation([user('u1', 'Write the file')]));
      await h.send({ type: 'chat/busy', requestId: 'r1' });
      const call = {
        id: 'call_1',
        type: 'function' as const,
        function: { name: 'write_file', arguments: '{"path":"a.txt"}' },
      };
      await h.send({
        type: 'chat/message',
        requestId: 'r1',
        message: answer('a1', { content: 'I will write it.', toolCalls: [call], finishReason: 'tool_calls' }),
      });
      await h.send({
        type: 'tools/call',
        update: {
          callId: 'call_1',
          name: 'write_file',
          argumentsJson: '{"path":"a.txt","content":"hello"}',
          state: 'awaiting-approval',
          readOnly: false,
        },
      });
    },
  },
  {
    name: 'error box (inline and alone)',
    setUp: async (h) => {
      await h.send(
        conversation([
          user('u1', 'Hello'),
          answer('a1', { status: 'error', content: 'Partial', error: { ...ERROR, actions: [...ERROR.actions] } }),
          user('u2', 'Filtered?'),
          answer('a2', { content: 'Part', finishReason: 'content_filter', notices: ['Retried once after a 429.'] }),
          user('u3', 'Hello again'),
        ]),
      );
      await h.send({ type: 'chat/error', requestId: 'r2', error: { ...ERROR, actions: [...ERROR.actions] } });
      await h.send({ type: 'chat/notice', level: 'warning', text: 'The model list could not be loaded.' });
      await h.send(meter(true));
      assert.equal(await h.page.locator('.context-fixed').count(), 1, 'the too-large notice is on screen');
    },
  },
  {
    name: 'history panel open',
    setUp: async (h) => {
      await h.send(conversation([user('u1', 'Hello'), answer('a1')]));
      await h.page.locator('button[aria-label="History"]').click();
      await h.send({
        type: 'history/list',
        activeId: 'c1',
        entries: [
          { id: 'c1', title: 'Files', updatedAt: 2, messageCount: 2 },
          { id: 'c2', title: 'Another conversation', updatedAt: 1, messageCount: 4 },
        ],
      });
    },
  },
  {
    name: 'settings panel open',
    setUp: async (h) => {
      await h.send(conversation([user('u1', 'Hello'), answer('a1')]));
      await h.page.locator('button[aria-label="Conversation settings"]').click();
    },
  },
  {
    name: 'tools panel open',
    setUp: async (h) => {
      await h.send(TOOLS);
      await h.page.locator('button[aria-label="Tools"]').click();
    },
  },
];

interface GalleryState {
  name: string;
  setUp(
    page: Page,
    send: (m: Parameters<Awaited<ReturnType<typeof openGallery>>['send']>[0]) => Promise<void>,
  ): Promise<void>;
}

const GALLERY_TASKS = [
  task({
    key: 'run',
    prompt: 'a running fox',
    state: 'polling',
    stateLabel: 'in_progress 50%',
    progress: 50,
    running: true,
    videoId: 'video_svc_v1_run',
  }),
  task({
    key: 'bad',
    prompt: 'a failed comet',
    state: 'failed',
    stateLabel: 'failed',
    failure: 'failed: the gateway reports the task ended in failure (spec 3); reason: content policy',
    cost: "Estimate ¥0.80 · charged ¥0.80 (from the gateway's log)",
    costFlag: "This task failed, yet the gateway charged ¥0.80 for it. Ask the gateway's operator for a refund.",
    videoId: 'video_svc_v1_bad',
  }),
  task({
    key: 'ok',
    prompt: 'a saved boat',
    file: 'videos/a-saved-boat.mp4',
    cost: 'Estimate ¥0.80 · charge not reported yet',
    src: VIDEO_URL,
    videoId: 'video_svc_v1_ok',
    images: ['pics/boat.png'],
    finishedAt: Date.UTC(2026, 10, 23, 2, 5),
  }),
];

const GALLERY_STATES: GalleryState[] = [
  { name: 'empty', setUp: async () => undefined },
  {
    name: 'running, failed and saved videos',
    setUp: async (_p, send) => send({ type: 'gallery/state', tasks: GALLERY_TASKS }),
  },
  {
    name: 'remix form and a notice',
    setUp: async (_p, send) => {
      await send({ type: 'gallery/state', tasks: GALLERY_TASKS });
      await send({
        type: 'gallery/form',
        form: {
          models: ['vendor-image-video', 'vendor-video-1.5'],
          model: 'vendor-image-video',
          prompt: 'a saved boat',
          seconds: 4,
          aspectRatio: '16:9',
          resolution: '720p',
          images: [],
        },
      });
      await send({ type: 'gallery/notice', text: 'Video task started.', error: false });
    },
  },
];

type Figures = Record<Impact, number>;
const figures = new Map<string, Figures>();
const moderate = new Map<string, Set<string>>();

function record(theme: Theme, surface: string, state: string, vs: Violation[]): void {
  const key = `${theme.name}`;
  const f = figures.get(key) ?? { critical: 0, serious: 0, moderate: 0, minor: 0 };
  const c = countByImpact(vs);
  for (const i of IMPACTS) f[i] += c[i];
  figures.set(key, f);
  for (const v of vs.filter((x) => x.impact === 'moderate' || x.impact === 'minor')) {
    const set = moderate.get(key) ?? new Set<string>();
    set.add(`${surface} / ${state}: ${v.impact} ${v.id} (${v.help}) at ${v.nodes.map((n) => n.target).join(', ')}`);
    moderate.set(key, set);
  }
}

/** The serious and critical violations of one state, in words (empty when there are none). */
function check(theme: Theme, surface: string, state: string, vs: Violation[]): string {
  record(theme, surface, state, vs);
  const bad = vs.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  return bad.length ? `${surface} "${state}" in the ${theme.name} theme:\n${describe(bad)}` : '';
}

for (const theme of THEMES) {
  void test(`the chat panel has no serious or critical axe violations in the ${theme.name} theme`, async () => {
    const problems: string[] = [];
    for (const state of CHAT_STATES) {
      const h = await openHarness(browser());
      await applyTheme(h.page, theme);
      await h.send(snapshot());
      await state.setUp(h);
      await h.frames();
      problems.push(check(theme, 'chat', state.name, await axeViolations(h.page)));
      await h.page.context().close();
    }
    assert.equal(problems.filter(Boolean).join('\n'), '');
  });

  void test(`the video gallery has no serious or critical axe violations in the ${theme.name} theme`, async () => {
    const problems: string[] = [];
    for (const state of GALLERY_STATES) {
      const g = await openGallery(browser());
      await applyTheme(g.page, theme);
      await state.setUp(g.page, (m) => g.send(m));
      problems.push(check(theme, 'gallery', state.name, await axeViolations(g.page)));
      await g.page.context().close();
    }
    assert.equal(problems.filter(Boolean).join('\n'), '');
  });
}

void test('the axe figures per theme (serious/critical/moderate/minor, counted by element)', () => {
  assert.equal(figures.size, THEMES.length, 'every theme was checked');
  const lines = ['axe-core over chat and gallery states, violations counted by element:'];
  for (const theme of THEMES) {
    const f = figures.get(theme.name);
    assert.ok(f);
    lines.push(
      `  ${theme.name.padEnd(13)} critical ${f.critical}  serious ${f.serious}  moderate ${f.moderate}  minor ${f.minor}`,
    );
    for (const m of moderate.get(theme.name) ?? []) lines.push(`      ${m}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
});
