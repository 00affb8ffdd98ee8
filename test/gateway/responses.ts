/**
 * `POST /v1/responses` (OpenAI's Responses API), streamed and not: the request's `input` items are
 * read back into chat messages and answered by the chat's own planner (chat.ts), so directives,
 * tool scripts, images and faults behave the same on both protocols; the answer is written as the
 * Responses events OpenAI sends (`response.created` … `response.completed`).
 *
 * Encrypted reasoning: with `include: ["reasoning.encrypted_content"]` a reasoning item carries
 * `encrypted_content` (`gwenc:` + base64 of its text). A replayed reasoning item whose content was
 * not made here is refused with 400, as OpenAI refuses content it cannot verify.
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { fragments, pieces } from './content';
import type { WindowRule } from './context';
import type { FaultEffects } from './faults';
import { httpError, sendJson } from './http';
import { plan, usageOf, WEB_RESULT, type Plan } from './chat';
import { SseWriter } from './sse';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function bad(message: string, param: string | null = null, code = 'invalid_request'): never {
  throw httpError(400, 'invalid_request_error', code, message, param);
}

const ENC = 'gwenc:';

/** Text parts of a Responses message's content (`input_text`, `output_text`, or a plain string). */
function partsToChat(content: unknown, where: string): unknown {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) bad(`${where}.content must be a string or an array of parts`, `${where}.content`);
  return content.map((p, j) => {
    const pw = `${where}.content[${j}]`;
    if (!isObj(p)) bad(`${pw} must be an object`, pw);
    if (p.type === 'input_text' || p.type === 'output_text' || p.type === 'text') {
      if (typeof p.text !== 'string') bad(`${pw}.text must be a string`, `${pw}.text`);
      return { type: 'text', text: p.text };
    }
    if (p.type === 'input_image') {
      if (typeof p.image_url !== 'string' || p.image_url === '')
        bad(`${pw}.image_url must be a URL`, `${pw}.image_url`);
      return { type: 'image_url', image_url: { url: p.image_url } };
    }
    return bad(`${pw}.type ${JSON.stringify(p.type)} is not supported here`, `${pw}.type`);
  });
}

/** The Responses request as the chat body the planner reads. */
export function chatBodyOf(body: Json): Json {
  if (body.messages !== undefined)
    bad(
      "Unsupported parameter: 'messages'. In the Responses API, this parameter has moved to 'input'.",
      'messages',
      'unsupported_parameter',
    );
  const messages: Json[] = [];
  if (typeof body.instructions === 'string' && body.instructions !== '')
    messages.push({ role: 'system', content: body.instructions });
  const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : body.input;
  if (!Array.isArray(input)) bad('input must be a string or an array of items', 'input');
  let reasoningBefore = false;
  input.forEach((item, i) => {
    const where = `input[${i}]`;
    if (!isObj(item)) bad(`${where} must be an object`, where);
    const type = item.type ?? 'message';
    if (type === 'message') {
      const role = item.role === 'developer' ? 'system' : item.role;
      if (role !== 'user' && role !== 'assistant' && role !== 'system')
        bad(`${where}.role must be user, assistant, system or developer`, `${where}.role`);
      const content = partsToChat(item.content, where);
      // Assistant text and the calls after it are one chat turn.
      messages.push({ role, content: role === 'assistant' ? textOf(content) : content });
    } else if (type === 'function_call') {
      if (typeof item.call_id !== 'string' || item.call_id === '')
        bad(`${where}.call_id is required`, `${where}.call_id`);
      if (typeof item.name !== 'string' || typeof item.arguments !== 'string')
        bad(`${where} needs a string name and string arguments`, where);
      let last = messages.at(-1);
      if (!last || last.role !== 'assistant') {
        last = { role: 'assistant', content: null };
        messages.push(last);
      }
      if (reasoningBefore) last.reasoning_content = 'replayed';
      const calls = (last.tool_calls as Json[] | undefined) ?? [];
      calls.push({ id: item.call_id, type: 'function', function: { name: item.name, arguments: item.arguments } });
      last.tool_calls = calls;
    } else if (type === 'function_call_output') {
      if (typeof item.call_id !== 'string') bad(`${where}.call_id is required`, `${where}.call_id`);
      if (typeof item.output !== 'string') bad(`${where}.output must be a string`, `${where}.output`);
      messages.push({ role: 'tool', tool_call_id: item.call_id, content: item.output });
      reasoningBefore = false;
    } else if (type === 'reasoning') {
      const enc = item.encrypted_content;
      if (typeof enc !== 'string' || !enc.startsWith(ENC))
        bad(
          'The encrypted content for this reasoning item could not be verified.',
          `${where}.encrypted_content`,
          'invalid_encrypted_content',
        );
      reasoningBefore = true;
    } else bad(`${where}.type ${JSON.stringify(type)} is not supported here`, `${where}.type`);
  });
  const out: Json = { model: body.model, messages };
  if (Array.isArray(body.tools))
    // The built-in `web_search` tool is the gateway's to run (handleResponses), not a function.
    out.tools = body.tools.flatMap((t, i) => {
      if (isObj(t) && t.type === 'web_search') return [];
      if (!isObj(t) || t.type !== 'function' || typeof t.name !== 'string')
        bad(`tools[${i}] must be { type: "function", name, parameters }`, `tools[${i}]`);
      return { type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } };
    });
  const tc = body.tool_choice;
  if (tc !== undefined)
    out.tool_choice = isObj(tc) && tc.type === 'function' ? { type: 'function', function: { name: tc.name } } : tc;
  for (const k of ['temperature', 'top_p', 'user']) if (body[k] !== undefined) out[k] = body[k];
  if (body.max_output_tokens !== undefined) out.max_tokens = body.max_output_tokens;
  const fmt = isObj(body.text) && isObj(body.text.format) ? body.text.format : undefined;
  if (fmt) out.response_format = { type: fmt.type };
  return out;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (isObj(p) && typeof p.text === 'string' ? p.text : '')).join('\n');
}

function usage(p: Plan): Json {
  const u = usageOf(p) as {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    completion_tokens_details?: { reasoning_tokens: number };
  };
  return {
    input_tokens: u.prompt_tokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: u.completion_tokens,
    output_tokens_details: { reasoning_tokens: u.completion_tokens_details?.reasoning_tokens ?? 0 },
    total_tokens: u.total_tokens,
  };
}

const itemId = (prefix: string) => `${prefix}_${randomBytes(9).toString('hex')}`;

/** The output items of the answer, complete, as `response.completed` lists them. */
function outputItems(p: Plan, encrypted: boolean): Json[] {
  const out: Json[] = [];
  if (p.reasoning)
    out.push({
      type: 'reasoning',
      id: itemId('rs'),
      summary: [{ type: 'summary_text', text: p.reasoning }],
      ...(encrypted ? { encrypted_content: ENC + Buffer.from(p.reasoning).toString('base64') } : {}),
    });
  if (p.citations) out.push({ type: 'web_search_call', id: itemId('ws'), status: 'completed' });
  if (p.content !== '' || p.calls.length === 0)
    out.push({
      type: 'message',
      id: itemId('msg'),
      status: 'completed',
      role: 'assistant',
      content: [
        {
          type: 'output_text',
          text: p.content,
          annotations: (p.citations ?? []).map((c) => ({ type: 'url_citation', start_index: 0, end_index: 0, ...c })),
        },
      ],
    });
  for (const c of p.calls)
    out.push({
      type: 'function_call',
      id: itemId('fc'),
      call_id: c.id,
      name: c.name,
      arguments: c.args,
      status: 'completed',
    });
  return out;
}

function responseObject(id: string, p: Plan, status: string, output: Json[], u?: Json): Json {
  return {
    id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    model: p.model,
    output,
    error: null,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    store: false,
    ...(u ? { usage: u } : {}),
  };
}

async function stream(
  res: ServerResponse,
  p: Plan,
  encrypted: boolean,
  fx: FaultEffects,
  delayMs: number,
): Promise<void> {
  const sse = new SseWriter(res, fx, delayMs);
  const id = `resp_${randomBytes(12).toString('hex')}`;
  let seq = 0;
  const send = (type: string, fields: Json): Promise<boolean> => sse.chunk({ type, sequence_number: seq++, ...fields });
  const status = p.finish === 'length' ? 'incomplete' : 'completed';
  if (!(await send('response.created', { response: responseObject(id, p, 'in_progress', []) }))) return;
  if (!(await send('response.in_progress', { response: responseObject(id, p, 'in_progress', []) }))) return;
  const items = outputItems(p, encrypted);
  for (const [output_index, item] of items.entries()) {
    const item_id = item.id;
    if (item.type === 'web_search_call') {
      if (!(await send('response.output_item.done', { output_index, item }))) return;
      continue;
    }
    const empty =
      item.type === 'reasoning'
        ? { ...item, summary: [], encrypted_content: undefined }
        : item.type === 'message'
          ? { ...item, status: 'in_progress', content: [] }
          : { ...item, arguments: '', status: 'in_progress' };
    if (!(await send('response.output_item.added', { output_index, item: empty }))) return;
    if (item.type === 'reasoning') {
      const part = { type: 'summary_text', text: '' };
      if (!(await send('response.reasoning_summary_part.added', { item_id, output_index, summary_index: 0, part })))
        return;
      for (const delta of pieces(p.reasoning))
        if (!(await send('response.reasoning_summary_text.delta', { item_id, output_index, summary_index: 0, delta })))
          return;
      if (
        !(await send('response.reasoning_summary_text.done', {
          item_id,
          output_index,
          summary_index: 0,
          text: p.reasoning,
        }))
      )
        return;
    } else if (item.type === 'message') {
      const part = { type: 'output_text', text: '', annotations: [] };
      if (!(await send('response.content_part.added', { item_id, output_index, content_index: 0, part }))) return;
      for (const delta of p.contentPieces)
        if (!(await send('response.output_text.delta', { item_id, output_index, content_index: 0, delta }))) return;
      if (!(await send('response.output_text.done', { item_id, output_index, content_index: 0, text: p.content })))
        return;
    } else {
      const args = String(item.arguments);
      for (const delta of args === '' ? [] : fragments(args, Math.max(8, Math.ceil(args.length / 40))))
        if (!(await send('response.function_call_arguments.delta', { item_id, output_index, delta }))) return;
      if (!(await send('response.function_call_arguments.done', { item_id, output_index, arguments: args }))) return;
    }
    if (!(await send('response.output_item.done', { output_index, item }))) return;
  }
  if (fx.noFinishReason) {
    // The responses form of a stream cut short: everything but the final event.
    await sse.done();
    return;
  }
  const final = responseObject(id, p, status, items, fx.usage === 'none' ? undefined : usage(p));
  if (!(await send(status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: final })))
    return;
  res.end();
}

/** Handles `POST /v1/responses` whose body is already parsed. */
export async function handleResponses(
  res: ServerResponse,
  body: unknown,
  fx: FaultEffects,
  chunkDelayMs: number,
  windowOf: (model: string) => WindowRule | undefined = () => undefined,
  charge?: (model: string, usage: { prompt_tokens: number; completion_tokens: number }) => void,
): Promise<void> {
  if (!isObj(body)) bad('request body must be a JSON object');
  if (body.stream !== undefined && typeof body.stream !== 'boolean') bad('stream must be a boolean', 'stream');
  if (body.store !== undefined && typeof body.store !== 'boolean') bad('store must be a boolean', 'store');
  const chat = chatBodyOf(body);
  const p = plan(chat, typeof body.model === 'string' ? windowOf(body.model) : undefined, 'responses', body);
  if (Array.isArray(body.tools) && body.tools.some((t) => isObj(t) && t.type === 'web_search'))
    p.citations = [WEB_RESULT];
  charge?.(String(body.model), usageOf(p) as { prompt_tokens: number; completion_tokens: number });
  const encrypted = Array.isArray(body.include) && body.include.includes('reasoning.encrypted_content');
  if (body.stream === true) return stream(res, p, encrypted, fx, chunkDelayMs);
  const id = `resp_${randomBytes(12).toString('hex')}`;
  const status = p.finish === 'length' ? 'incomplete' : 'completed';
  await sendJson(res, 200, responseObject(id, p, status, outputItems(p, encrypted), usage(p)), fx);
}
