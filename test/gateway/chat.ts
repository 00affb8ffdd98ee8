/**
 * `POST /v1/chat/completions`: validates the request like a real server, decides what the fake
 * model answers (directives in the last user message, tool scripts), then answers as JSON or SSE.
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { MARKDOWN_DOC, fragments, longText, pieces, tokenCount } from './content';
import type { FaultEffects, ToolStyle } from './faults';
import { httpError, sendJson } from './http';
import { checkWindow, countPromptTokens, type WindowRule } from './context';
import { commitAnswer, isCommitRequest } from './commit';
import { infillChatAnswer } from './completions';
import { ALIGNED, CHAT_MODELS, REASONING_DIALECT, RESPONSES_ONLY, VIDEO_MODELS, acceptsImages } from './models';

/** Models that always reason (each in its dialect, see models.ts). */
const REASONS = new Set(['gw-reasoner', ...Object.keys(REASONING_DIALECT)]);
import { SseWriter } from './sse';
import { TOOL_IMAGES_INTRO } from '../../src/chat/conversation/core/toolImages';

type Json = Record<string, unknown>;

interface Message {
  role: 'system' | 'user' | 'assistant' | 'tool' | 'developer';
  content: unknown;
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
  reasoning_content?: unknown;
}

export interface PlannedCall {
  id: string;
  name: string;
  args: string;
}

/** What the fake model is going to say; rendered either as one JSON answer or as a stream. */
export interface Plan {
  model: string;
  reasoning: string;
  content: string;
  /** Content cut into stream pieces (words, or fragments for JSON). */
  contentPieces: string[];
  calls: PlannedCall[];
  finish: string;
  promptTokens: number;
  /** Pages a web search "found" (the request asked for OpenRouter's web plugin or the web_search tool). */
  citations?: { url: string; title: string }[];
}

/** What every web search of the local gateway finds. */
export const WEB_RESULT = { url: 'https://search.gateway.test/result', title: 'Local gateway search result' };

/** OpenRouter's web plugin asked for: `plugins: [{ id: "web" }]`. */
function asksWeb(body: Json): boolean {
  return Array.isArray(body.plugins) && body.plugins.some((x) => isObj(x) && x.id === 'web');
}

const chatAnnotations = (p: Plan): Json =>
  p.citations ? { annotations: p.citations.map((c) => ({ type: 'url_citation', url_citation: c })) } : {};

/** Directives found in the last user message. */
interface Directives {
  say?: string;
  tools?: string;
  long?: number;
  markdown: boolean;
  json: boolean;
  reasoning: boolean;
  /** `#request`: answer with the whole request body as JSON (tests assert what was sent). */
  request: boolean;
  finish?: string;
  /** The text with flag directives removed, for the echo. */
  rest: string;
}

const ROLES = new Set(['system', 'user', 'assistant', 'tool', 'developer']);

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function bad(message: string, param: string | null = null, code = 'invalid_request'): never {
  throw httpError(400, 'invalid_request_error', code, message, param);
}

/** Text of a message's content: a string, or its text parts joined by newlines. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .filter((p): p is Json => isObj(p) && p.type === 'text' && typeof p.text === 'string')
      .map((p) => p.text as string)
      .join('\n');
  }
  return '';
}

function imageParts(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  return content
    .filter((p): p is Json => isObj(p) && p.type === 'image_url')
    .map((p) => {
      const iu = p.image_url;
      return isObj(iu) && typeof iu.url === 'string' ? iu.url : '';
    });
}

function mediaType(url: string): string {
  const data = /^data:([^;,]+)[;,]/.exec(url);
  if (data) return data[1]!;
  const ext = /\.(png|jpe?g|gif|webp)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  if (ext) return `image/${ext === 'jpg' ? 'jpeg' : ext}`;
  return 'image/*';
}

function validateMessages(raw: unknown): Message[] {
  if (raw === undefined) bad('messages is required', 'messages');
  if (!Array.isArray(raw)) bad('messages must be an array', 'messages');
  if (raw.length === 0) bad('messages must contain at least one message', 'messages');
  raw.forEach((m, i) => {
    const param = `messages[${i}]`;
    if (!isObj(m)) bad(`${param} must be an object`, param);
    if (typeof m.role !== 'string' || !ROLES.has(m.role)) {
      bad(
        `${param}.role must be one of system, user, assistant, tool (got ${JSON.stringify(m.role)})`,
        `${param}.role`,
      );
    }
    const c = m.content;
    const hasCalls = Array.isArray(m.tool_calls) && m.tool_calls.length > 0;
    if (c === undefined || c === null) {
      if (!(m.role === 'assistant' && hasCalls)) bad(`${param}.content is required`, `${param}.content`);
    } else if (Array.isArray(c)) {
      c.forEach((p, j) => {
        const pp = `${param}.content[${j}]`;
        if (!isObj(p)) bad(`${pp} must be an object`, pp);
        if (p.type === 'text') {
          if (typeof p.text !== 'string') bad(`${pp}.text must be a string`, `${pp}.text`);
        } else if (p.type === 'image_url') {
          if (!isObj(p.image_url) || typeof p.image_url.url !== 'string' || p.image_url.url === '') {
            bad(`${pp}.image_url.url must be a non-empty string`, `${pp}.image_url.url`);
          }
        } else {
          bad(`${pp}.type must be text or image_url (got ${JSON.stringify(p.type)})`, `${pp}.type`);
        }
      });
    } else if (typeof c !== 'string') {
      bad(`${param}.content must be a string or an array of parts`, `${param}.content`);
    }
    if (m.role === 'tool' && typeof m.tool_call_id !== 'string') {
      bad(`${param}.tool_call_id is required for a tool message`, `${param}.tool_call_id`);
    }
    if (m.tool_calls !== undefined) {
      if (m.role !== 'assistant')
        bad(`${param}.tool_calls is only allowed on assistant messages`, `${param}.tool_calls`);
      if (!Array.isArray(m.tool_calls)) bad(`${param}.tool_calls must be an array`, `${param}.tool_calls`);
      m.tool_calls.forEach((tc, j) => {
        const tp = `${param}.tool_calls[${j}]`;
        if (!isObj(tc) || typeof tc.id !== 'string' || tc.id === '')
          bad(`${tp}.id must be a non-empty string`, `${tp}.id`);
        if (tc.type !== 'function') bad(`${tp}.type must be "function"`, `${tp}.type`);
        const fn = tc.function;
        if (!isObj(fn) || typeof fn.name !== 'string' || typeof fn.arguments !== 'string') {
          bad(`${tp}.function must have a string name and string arguments`, `${tp}.function`);
        }
      });
    }
  });
  return raw as Message[];
}

/** Every assistant tool call is answered exactly once by a following tool message; no tool message is orphaned. */
function validateToolStructure(messages: Message[]): void {
  let pending = new Set<string>();
  let answered = new Set<string>();
  messages.forEach((m, i) => {
    if (m.role === 'tool') {
      const id = m.tool_call_id!;
      if (answered.has(id))
        bad(
          `messages[${i}]: tool_call_id ${id} was already answered by an earlier tool message`,
          `messages[${i}].tool_call_id`,
        );
      if (!pending.has(id)) {
        bad(
          `messages[${i}]: messages with role 'tool' must be a response to a preceding message with 'tool_calls' (unknown tool_call_id ${id})`,
          `messages[${i}].tool_call_id`,
        );
      }
      pending.delete(id);
      answered.add(id);
      return;
    }
    if (pending.size > 0) {
      bad(
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...pending].join(', ')}`,
        `messages[${i}]`,
      );
    }
    if (m.role === 'assistant' && m.tool_calls?.length) {
      pending = new Set(m.tool_calls.map((t) => t.id));
      answered = new Set();
      if (pending.size !== m.tool_calls.length)
        bad(`messages[${i}].tool_calls has duplicate ids`, `messages[${i}].tool_calls`);
    }
  });
  if (pending.size > 0) {
    bad(
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...pending].join(', ')}`,
      'messages',
    );
  }
}

function checkRange(body: Json, key: string, min: number, max: number): void {
  const v = body[key];
  if (v === undefined || v === null) return;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
    bad(`${key} must be a number between ${min} and ${max} (got ${JSON.stringify(v)})`, key);
  }
}

function parseDirectives(text: string): Directives {
  // `#say` and `#tools` take the rest of the text verbatim, so nothing after them is a directive.
  let head = text;
  const d: Directives = { markdown: false, json: false, reasoning: false, request: false, rest: '' };
  const say = /(^|\s)#say /.exec(head);
  const tools = /(^|\s)#tools\s/.exec(head);
  if (say && (!tools || say.index < tools.index)) {
    const at = say.index + say[0].length;
    d.say = head.slice(at);
    head = head.slice(0, say.index);
  } else if (tools) {
    const at = tools.index + tools[0].length;
    d.tools = head.slice(at);
    head = head.slice(0, tools.index);
  }
  const long = /(^|\s)#long\s+(\d+)/.exec(head);
  if (long) d.long = Number(long[2]);
  d.markdown = /(^|\s)#markdown(\s|$)/.test(head);
  d.json = /(^|\s)#json(\s|$)/.test(head);
  d.reasoning = /(^|\s)#reasoning(\s|$)/.test(head);
  d.request = /(^|\s)#request(\s|$)/.test(head);
  const finish = /(^|\s)#finish\s+(\S+)/.exec(head);
  if (finish) d.finish = finish[2];
  // Only the directives go; the user's own line breaks and spacing are echoed as typed.
  d.rest = head
    .replace(/(^|[ \t])#long[ \t]+\d+[ \t]?/g, '$1')
    .replace(/(^|[ \t])#finish[ \t]+\S+[ \t]?/g, '$1')
    .replace(/(^|[ \t])#(markdown|json|reasoning|request)(?=\s|$)[ \t]?/g, '$1')
    .trim();
  return d;
}

interface ScriptCall {
  name: string;
  arguments: unknown;
}
type Turn = { text: string } | { calls: ScriptCall[] };

function parseScript(src: string): Turn[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(src);
  } catch (err) {
    bad(`#tools script is not valid JSON: ${(err as Error).message}`, 'messages', 'invalid_tool_script');
  }
  if (!Array.isArray(parsed)) bad('#tools script must be a JSON array of turns', 'messages', 'invalid_tool_script');
  return parsed.map((t, i): Turn => {
    if (isObj(t) && typeof t.text === 'string') return { text: t.text };
    if (isObj(t) && Array.isArray(t.calls) && t.calls.length > 0) {
      return {
        calls: t.calls.map((c, j): ScriptCall => {
          if (!isObj(c) || typeof c.name !== 'string' || c.name === '') {
            bad(`#tools script turn ${i} call ${j} needs a "name"`, 'messages', 'invalid_tool_script');
          }
          return { name: c.name, arguments: c.arguments ?? {} };
        }),
      };
    }
    return bad(
      `#tools script turn ${i} must be { "text": "…" } or { "calls": [ … ] }`,
      'messages',
      'invalid_tool_script',
    );
  });
}

function callId(): string {
  return `call_${randomBytes(9).toString('base64url')}`;
}

function argsText(a: unknown): string {
  return typeof a === 'string' ? a : JSON.stringify(a);
}

function toolNames(tools: unknown): string[] {
  if (tools === undefined || tools === null) return [];
  if (!Array.isArray(tools)) bad('tools must be an array', 'tools');
  return tools.map((t, i) => {
    if (!isObj(t) || t.type !== 'function' || !isObj(t.function) || typeof t.function.name !== 'string') {
      bad(`tools[${i}] must be { type: "function", function: { name, … } }`, `tools[${i}]`);
    }
    return t.function.name as string;
  });
}

/** Decide the answer. Throws HttpError for requests a real server rejects. */
export function plan(body: Json, rule?: WindowRule, via: 'chat' | 'responses' = 'chat', echo: Json = body): Plan {
  if (typeof body.model !== 'string' || body.model === '') bad('model is required', 'model');
  const model = body.model;
  // A Codex-class model: OpenAI's (and relays' copied) answer on chat completions, word for word.
  if (via === 'chat' && RESPONSES_ONLY.has(model)) {
    throw httpError(
      404,
      'invalid_request_error',
      '',
      'This model is only supported in v1/responses and not in v1/chat/completions.',
      'model',
    );
  }
  if (VIDEO_MODELS.some((m) => m.id === model)) {
    bad(`model ${model} does not support chat completions`, 'model', 'model_not_supported');
  }
  if (!CHAT_MODELS.some((m) => m.id === model) && !rule) {
    throw httpError(
      404,
      'invalid_request_error',
      'model_not_found',
      `The model \`${model}\` does not exist or you do not have access to it.`,
      'model',
    );
  }
  const messages = validateMessages(body.messages);
  checkRange(body, 'temperature', 0, 2);
  checkRange(body, 'top_p', 0, 1);
  checkRange(body, 'presence_penalty', -2, 2);
  checkRange(body, 'frequency_penalty', -2, 2);
  if (body.stop !== undefined && body.stop !== null) {
    const ok =
      typeof body.stop === 'string' || (Array.isArray(body.stop) && body.stop.every((s) => typeof s === 'string'));
    if (!ok) bad('stop must be a string or an array of strings', 'stop');
    if (Array.isArray(body.stop) && body.stop.length > 4) bad('stop may contain at most 4 sequences', 'stop');
  }
  const maxTokens = body.max_tokens ?? body.max_completion_tokens;
  if (maxTokens !== undefined && maxTokens !== null && (!Number.isInteger(maxTokens) || (maxTokens as number) < 1)) {
    bad('max_tokens must be a positive integer', 'max_tokens');
  }
  const names = toolNames(body.tools);
  const choice = body.tool_choice;
  let forced: string | undefined;
  let required = false;
  if (choice !== undefined && choice !== null) {
    if (typeof choice === 'string') {
      if (!['auto', 'none', 'required'].includes(choice))
        bad('tool_choice must be auto, none, required or a function object', 'tool_choice');
      required = choice === 'required';
    } else if (
      isObj(choice) &&
      choice.type === 'function' &&
      isObj(choice.function) &&
      typeof choice.function.name === 'string'
    ) {
      forced = choice.function.name;
      if (!names.includes(forced)) bad(`tool_choice names the tool ${forced}, which is not in tools`, 'tool_choice');
    } else {
      bad('tool_choice must be auto, none, required or { type: "function", function: { name } }', 'tool_choice');
    }
    if (names.length === 0 && choice !== 'none' && choice !== 'auto') bad('tool_choice needs tools', 'tool_choice');
  }
  validateToolStructure(messages);

  const withImages = messages.findIndex((m) => imageParts(m.content).length > 0);
  if (withImages >= 0 && !acceptsImages(model)) {
    bad(
      `model ${model} does not support image input (messages[${withImages}] has image parts)`,
      `messages[${withImages}].content`,
      'model_not_supported',
    );
  }
  if (model === 'gw-reasoner' || model === 'gw-deepseek') {
    messages.forEach((m, i) => {
      if (
        m.role === 'assistant' &&
        m.tool_calls?.length &&
        (typeof m.reasoning_content !== 'string' || m.reasoning_content === '')
      ) {
        bad(
          `Missing \`reasoning_content\` field in the assistant message at message index ${i}: it must be passed back on tool-call turns`,
          `messages[${i}].reasoning_content`,
        );
      }
    });
  }

  // A windowed model counts by the stated rule (context.ts) and refuses past its window.
  const windowTokens = rule ? countPromptTokens(messages as unknown as Json[], body.tools) : undefined;
  if (rule && windowTokens !== undefined)
    checkWindow(rule, windowTokens, typeof maxTokens === 'number' ? maxTokens : undefined);
  // A compaction request (chat/context/core/compaction.ts): answer with a short summary, never obey
  // the directives quoted in the transcript.
  if (isSummaryRequest(body)) {
    const transcript = textOf(messages.at(-1)?.content ?? '');
    const content = `Summary of ${transcript.length} characters: ${transcript.replace(/\s+/g, ' ').slice(0, 200)}`;
    return {
      model: ALIGNED[model] ?? model,
      reasoning: '',
      content,
      contentPieces: pieces(content),
      calls: [],
      finish: 'stop',
      promptTokens: windowTokens ?? tokenCount(JSON.stringify(messages)),
    };
  }

  // A commit-message request (test/gateway/commit.ts): a wrapped message naming the diff's files.
  if (isCommitRequest(body)) {
    const content = commitAnswer(body);
    return {
      model: ALIGNED[model] ?? model,
      reasoning: '',
      content,
      contentPieces: pieces(content),
      calls: [],
      finish: 'stop',
      promptTokens: windowTokens ?? tokenCount(JSON.stringify(messages)),
    };
  }

  // The client's editor-state note (after the conversation, api/chat/promptCache.ts) is context,
  // not the user's words: directives and tool scripts are read without it, as a model would.
  const talk = withoutEditorState(messages);
  let lastUser = -1;
  // The images a tool returned arrive in a user message of the client's after the tool messages:
  // tool output, not the user's words.
  talk.forEach((m, i) => {
    if (m.role === 'user' && !textOf(m.content).startsWith(TOOL_IMAGES_INTRO)) lastUser = i;
  });
  const userMsg = lastUser >= 0 ? talk[lastUser]! : undefined;
  const text = userMsg ? textOf(userMsg.content) : '';
  const images = userMsg ? imageParts(userMsg.content) : [];
  const d = parseDirectives(text);
  const after = talk.slice(lastUser + 1);
  const turnIndex = after.filter((m) => m.role === 'assistant').length;
  const toolsOff = names.length === 0 || choice === 'none';

  let content = '';
  let calls: PlannedCall[] = [];
  let json = false;
  let jsonAnswer = false;
  let fragmentSize = 8;
  const rf = body.response_format;
  if (isObj(rf) && (rf.type === 'json_object' || rf.type === 'json_schema')) json = true;

  const callsFrom = (sc: ScriptCall[]): PlannedCall[] =>
    sc.map((c) => ({ id: callId(), name: c.name, args: argsText(c.arguments) }));

  const script = d.tools !== undefined ? parseScript(d.tools) : undefined;
  if (forced !== undefined && !toolsOff) {
    const fromScript = script?.flatMap((t) => ('calls' in t ? t.calls : [])).find((c) => c.name === forced);
    calls = [{ id: callId(), name: forced, args: argsText(fromScript?.arguments ?? {}) }];
  } else if (script) {
    const turn = script[turnIndex];
    if (turn === undefined) {
      const byId = new Map<string, string>();
      for (const m of messages) for (const tc of m.tool_calls ?? []) byId.set(tc.id, tc.function.name);
      const results = after
        .filter((m) => m.role === 'tool')
        .map((m) => `${byId.get(m.tool_call_id!) ?? 'unknown'}=${textOf(m.content).slice(0, 80)}`);
      content = `Done. Tool results: ${results.length ? results.join(', ') : '(none)'}`;
    } else if ('text' in turn) {
      content = turn.text;
    } else if (toolsOff) {
      content = `I would call ${turn.calls.map((c) => c.name).join(', ')}, but no tools are available.`;
    } else {
      calls = callsFrom(turn.calls);
    }
  } else if (required && !toolsOff) {
    calls = [{ id: callId(), name: names[0]!, args: '{}' }];
  } else if (d.request) {
    // The body exactly as parsed, so a test reads back the system message, tools and parameters.
    content = JSON.stringify(echo);
    jsonAnswer = true;
    fragmentSize = 256;
  } else if (d.say !== undefined) {
    content = d.say;
  } else if (infillChatAnswer(d.rest) !== undefined) {
    content = infillChatAnswer(d.rest)!;
  } else if (d.long !== undefined) {
    content = longText(d.long);
  } else if (d.markdown) {
    content = MARKDOWN_DOC;
  } else if (d.json || json) {
    content = JSON.stringify({
      answer: `Echo: ${d.rest}`,
      model,
      words: d.rest === '' ? 0 : d.rest.split(/\s+/).length,
    });
    jsonAnswer = true;
  } else if (images.length > 0) {
    content = `I received ${images.length} image(s): ${images.map(mediaType).join(', ')}`;
  } else {
    content = `Echo: ${d.rest}`;
  }

  const reasoning =
    REASONS.has(model) || d.reasoning
      ? `The user wrote ${JSON.stringify(d.rest.slice(0, 60))}. I will answer plainly and check each step before replying.`
      : '';
  // Compact JSON has no spaces to cut at, so it streams in fixed-size fragments.
  let contentPieces = jsonAnswer ? fragments(content, fragmentSize) : pieces(content);
  let finish = calls.length ? 'tool_calls' : (d.finish ?? 'stop');
  if (!calls.length && typeof maxTokens === 'number' && contentPieces.length > maxTokens) {
    contentPieces = contentPieces.slice(0, maxTokens);
    content = contentPieces.join('');
    finish = 'length';
  }
  return {
    model: ALIGNED[model] ?? model,
    reasoning,
    content,
    contentPieces,
    calls,
    finish,
    promptTokens: windowTokens ?? tokenCount(JSON.stringify(messages)),
  };
}

/** The editor state the chat sends after the conversation (src/chat/prompt/core/systemPrompt.ts `editorStateNote`). */
const EDITOR_STATE = '# Editor state\n(Added by Gateway Studio';

/** `messages` without the editor-state note: a trailing message of it alone dropped, a last part or suffix cut. */
function withoutEditorState(messages: Message[]): Message[] {
  const last = messages.at(-1);
  if (last?.role !== 'user') return messages;
  const c = last.content as unknown;
  if (typeof c === 'string') {
    if (c.startsWith(EDITOR_STATE)) return messages.slice(0, -1);
    const cut = cutEditorState(c);
    return cut === c ? messages : [...messages.slice(0, -1), { ...last, content: cut } as Message];
  }
  if (!Array.isArray(c)) return messages;
  // A Responses input arrives as one text part with the note as its suffix, a chat one as a part of its own.
  const parts = c
    .filter((p) => !(isObj(p) && typeof p.text === 'string' && p.text.startsWith(EDITOR_STATE)))
    .map((p) => (isObj(p) && typeof p.text === 'string' ? { ...p, text: cutEditorState(p.text) } : p));
  if (parts.length === c.length && parts.every((p, i) => !isObj(p) || p.text === (c[i] as Json).text)) return messages;
  return parts.length === 0
    ? messages.slice(0, -1)
    : [...messages.slice(0, -1), { ...last, content: parts } as Message];
}

/** `text` without an editor-state note at its end. */
function cutEditorState(text: string): string {
  const at = text.lastIndexOf(`\n\n${EDITOR_STATE}`);
  return at < 0 ? text : text.slice(0, at);
}

export function usageOf(p: Plan): Json {
  const reasoningTokens = pieces(p.reasoning).length;
  const completion = reasoningTokens + p.contentPieces.length + p.calls.reduce((n, c) => n + tokenCount(c.args) + 1, 0);
  return {
    prompt_tokens: p.promptTokens,
    completion_tokens: completion,
    total_tokens: p.promptTokens + completion,
    ...(reasoningTokens ? { completion_tokens_details: { reasoning_tokens: reasoningTokens } } : {}),
  };
}

/** Tool-call deltas, one array per chunk, cut the way `style` says. */
function toolDeltas(calls: PlannedCall[], style: ToolStyle): Json[][] {
  const size = (a: string): number => Math.max(8, Math.ceil(a.length / 40));
  const open = (c: PlannedCall, i: number, args = ''): Json => ({
    index: i,
    id: c.id,
    type: 'function',
    function: { name: c.name, arguments: args },
  });
  const out: Json[][] = [];
  if (style === 'whole') {
    calls.forEach((c, i) => out.push([open(c, i, c.args)]));
    return out;
  }
  if (style === 'multi-per-chunk') {
    out.push(calls.map((c, i) => open(c, i)));
    const frags = calls.map((c) => (c.args === '' ? [] : fragments(c.args, size(c.args))));
    const rounds = Math.max(0, ...frags.map((f) => f.length));
    for (let r = 0; r < rounds; r++) {
      const row: Json[] = [];
      frags.forEach((f, i) => {
        if (r < f.length) row.push({ index: i, function: { arguments: f[r] } });
      });
      out.push(row);
    }
    return out;
  }
  calls.forEach((c, i) => {
    out.push([open(c, i)]);
    if (c.args !== '')
      for (const f of fragments(c.args, size(c.args))) out.push([{ index: i, function: { arguments: f } }]);
  });
  if (style === 'no-index') for (const row of out) for (const d of row) delete d.index;
  if (style === 'all-index-0') for (const row of out) for (const d of row) d.index = 0;
  return out;
}

/** One content chunk as it left the gateway (the `stampChunks` knob). */
export interface ChunkStamp {
  /** Send time: ms since the epoch with a fraction (`performance.timeOrigin + performance.now()`). */
  at: number;
  content: string;
}

async function stream(
  res: ServerResponse,
  p: Plan,
  body: Json,
  fx: FaultEffects,
  chunkDelayMs: number,
  stamp?: (s: ChunkStamp) => void,
  extraUsage: Json = {},
): Promise<void> {
  const id = `chatcmpl-${randomBytes(12).toString('base64url')}`;
  const created = Math.floor(Date.now() / 1000);
  const so = body.stream_options;
  const includeUsage = isObj(so) && so.include_usage === true;
  const usageMode = fx.usage ?? (includeUsage ? 'separate' : 'none');
  const sse = new SseWriter(res, fx, chunkDelayMs, (obj, at) => {
    const content = (obj as { choices?: { delta?: { content?: unknown } }[] }).choices?.[0]?.delta?.content;
    if (typeof content === 'string' && content !== '') stamp?.({ at, content });
  });
  const chunk = (delta: Json, finish: string | null = null, extra: Json = {}): Promise<boolean> =>
    sse.chunk({
      id,
      object: 'chat.completion.chunk',
      created,
      model: p.model,
      system_fingerprint: 'fp_gateway',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...(usageMode === 'separate' ? { usage: null } : {}),
      ...extra,
    });

  const first: Json =
    fx.firstDelta === 'empty'
      ? {}
      : fx.firstDelta === 'null-content'
        ? { role: 'assistant', content: null }
        : fx.firstDelta === 'refusal-null'
          ? { role: 'assistant', content: '', refusal: null }
          : { role: 'assistant', content: '' };
  if (!(await chunk(first))) return;
  const dialect = REASONING_DIALECT[p.model];
  const rField = fx.reasoningField ?? 'reasoning_content';
  let contentPieces = p.contentPieces;
  if (dialect === 'think-tags' && p.reasoning) {
    // The tags cut across chunks, as tokenizers do: `<thi` `nk>` … `</th` `ink>`.
    const whole = `<think>${p.reasoning}</think>\n\n`;
    contentPieces = [...fragments(whole, 5), ...contentPieces];
  } else {
    for (const r of pieces(p.reasoning)) {
      const delta =
        dialect === 'details'
          ? { reasoning_details: [{ type: 'reasoning.text', text: r, format: 'unknown', index: 0 }] }
          : { [dialect === 'reasoning' ? 'reasoning' : rField]: r };
      if (!(await chunk(delta))) return;
    }
  }
  for (const c of contentPieces) if (!(await chunk({ content: c }))) return;
  const style = fx.toolStyle ?? 'canonical';
  const rows = toolDeltas(p.calls, style);
  const withFinish = style === 'args-with-finish' && rows.length > 1 && !fx.noFinishReason ? rows.pop() : undefined;
  for (const row of rows) if (!(await chunk({ tool_calls: row }))) return;
  if (!fx.noFinishReason) {
    const delta = { ...(withFinish ? { tool_calls: withFinish } : {}), ...chatAnnotations(p) };
    if (!(await chunk(delta, p.finish, usageMode === 'finish' ? { usage: { ...usageOf(p), ...extraUsage } } : {})))
      return;
  }
  if (usageMode === 'separate') {
    const ok = await sse.chunk({
      id,
      object: 'chat.completion.chunk',
      created,
      model: p.model,
      system_fingerprint: 'fp_gateway',
      choices: [],
      usage: { ...usageOf(p), ...extraUsage },
    });
    if (!ok) return;
  }
  await sse.done();
}

/** Handle a chat completion whose body is already parsed; `fx` are the faults taken for this request. */
export async function handleChat(
  res: ServerResponse,
  body: unknown,
  fx: FaultEffects,
  chunkDelayMs: number,
  windowOf: (model: string) => WindowRule | undefined = () => undefined,
  stamp?: (s: ChunkStamp) => void,
  /** Bills the answer; what it returns is how the relay reports that cost (account.ts `costReport`). */
  charge?: (
    model: string,
    usage: { prompt_tokens: number; completion_tokens: number },
    usageIncludeAsked: boolean,
  ) => { usageCost?: number; headers?: Record<string, string> } | void,
  /** Rewrites the plan before it is billed and sent (the check-up models, checkup.ts). */
  adjust?: (p: Plan) => void,
  /** What the prompt cache (promptCache.ts) did for this request: its prompt count and usage fields. */
  cache?: { promptTokens: number; usage: Json },
): Promise<void> {
  if (!isObj(body)) bad('request body must be a JSON object');
  if (fx.rejectStreamOptions !== undefined && body.stream_options !== undefined) {
    throw httpError(
      fx.rejectStreamOptions,
      'invalid_request_error',
      'unsupported_parameter',
      'Unsupported parameter: stream_options is not supported by this upstream',
      'stream_options',
    );
  }
  // Upstreams that follow spec 2.1 literally (auto, none or a tool object) refuse "required".
  if (fx.rejectRequiredToolChoice !== undefined && body.tool_choice === 'required') {
    throw httpError(
      fx.rejectRequiredToolChoice,
      'invalid_request_error',
      'invalid_value',
      'Invalid value for tool_choice: "required" is not supported by this upstream; use "auto", "none" or a specific tool',
      'tool_choice',
    );
  }
  if (body.stream !== undefined && typeof body.stream !== 'boolean') bad('stream must be a boolean', 'stream');
  const p = plan(body, typeof body.model === 'string' ? windowOf(body.model) : undefined);
  adjust?.(p);
  // Relays that number calls per answer or drop ids: the same id (or "") on every call of the
  // answer, or `call_<position>` restarting at 0 in every answer (so answers of one conversation collide).
  if (fx.toolIds === 'numbered') {
    p.calls = p.calls.map((c, i) => ({ ...c, id: `call_${i}` }));
  } else if (fx.toolIds && p.calls.length > 0) {
    const same = fx.toolIds === 'repeat' ? p.calls[0]!.id : '';
    p.calls = p.calls.map((c) => ({ ...c, id: same }));
  }
  // A model that runs on past the summary's max_tokens (compaction must still fit what it gets).
  if (fx.verboseSummary !== undefined) {
    const head = 'Verbose summary: ';
    const filler = 'the user asked and the assistant answered. ';
    const n = Math.max(0, fx.verboseSummary - head.length);
    p.content = head + filler.repeat(Math.ceil(n / filler.length)).slice(0, n);
    p.contentPieces = pieces(p.content);
  }
  if (cache) p.promptTokens = cache.promptTokens;
  // Billed when the answer is planned, as a relay settles before the client reads its balance.
  const report = charge?.(
    typeof body.model === 'string' ? body.model : p.model,
    usageOf(p) as { prompt_tokens: number; completion_tokens: number },
    isObj(body.usage) && body.usage.include === true,
  );
  for (const [name, value] of Object.entries(report?.headers ?? {})) res.setHeader(name, value);
  const extraUsage: Json = { ...cache?.usage, ...(report?.usageCost !== undefined ? { cost: report.usageCost } : {}) };
  if (asksWeb(body)) {
    p.citations = [WEB_RESULT];
    extraUsage.server_tool_use = { web_search_requests: 1 };
  }
  if (body.stream === true) {
    await stream(res, p, body, fx, chunkDelayMs, stamp, extraUsage);
    return;
  }
  const dialect = REASONING_DIALECT[p.model];
  const rField = dialect === 'reasoning' ? 'reasoning' : (fx.reasoningField ?? 'reasoning_content');
  const tagged = dialect === 'think-tags' && p.reasoning;
  const content = tagged ? `<think>${p.reasoning}</think>\n\n${p.content}` : p.content;
  const message: Json = {
    role: 'assistant',
    content: p.calls.length && content === '' ? null : content,
    ...chatAnnotations(p),
    ...(p.reasoning && !tagged
      ? dialect === 'details'
        ? { reasoning_details: [{ type: 'reasoning.text', text: p.reasoning, format: 'unknown', index: 0 }] }
        : { [rField]: p.reasoning }
      : {}),
    ...(p.calls.length
      ? {
          tool_calls: p.calls.map((c) => ({
            id: c.id,
            type: 'function',
            function: { name: c.name, arguments: c.args },
          })),
        }
      : {}),
  };
  await sendJson(
    res,
    200,
    {
      id: `chatcmpl-${randomBytes(12).toString('base64url')}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: p.model,
      system_fingerprint: 'fp_gateway',
      choices: [{ index: 0, message, logprobs: null, finish_reason: p.finish }],
      ...(fx.usage === 'none' ? {} : { usage: { ...usageOf(p), ...extraUsage } }),
    },
    fx,
  );
}

/** A compaction request (chat/context/core/compaction.ts): its first message is the summary instruction. */
export function isSummaryRequest(body: unknown): boolean {
  if (!isObj(body) || !Array.isArray(body.messages)) return false;
  const first: unknown = body.messages[0];
  return isObj(first) && first.role === 'system' && textOf(first.content).startsWith('Summarise the conversation');
}
