/**
 * A chat request written as a Responses API request (`POST /v1/responses`): messages become
 * `input` items (text, `input_image`, `function_call`, `function_call_output`), tools lose their
 * `function` wrapper, `max_tokens` becomes `max_output_tokens`. Stateless: `store: false`, and the
 * encrypted reasoning of earlier turns, which the server then cannot remember, is sent back.
 */
import type { AssistantMessage, ChatRequest, ContentPart, TextPart } from '../chat/wire';
import type { ReasoningItem } from './events';

type Json = Record<string, unknown>;

/** What the writer needs besides the request. */
export interface ResponsesBodyOptions {
  /** The encrypted reasoning that came with an earlier assistant turn, to send before it. */
  reasoningFor?: (m: AssistantMessage) => readonly ReasoningItem[] | undefined;
  /** `reasoning.effort`. */
  reasoningEffort?: string;
  /** false once the gateway refused the `reasoning` object (a model that does not reason). */
  askReasoning?: boolean;
}

function textOf(content: string | TextPart[] | ContentPart[] | null): string {
  if (content === null) return '';
  if (typeof content === 'string') return content;
  return (content as ContentPart[])
    .filter((p): p is TextPart => p.type === 'text')
    .map((p) => p.text)
    .join('\n');
}

function userContent(content: string | ContentPart[]): Json[] {
  if (typeof content === 'string') return [{ type: 'input_text', text: content }];
  return content.map((p) =>
    p.type === 'text'
      ? { type: 'input_text', text: p.text }
      : { type: 'input_image', image_url: p.image_url.url, detail: p.image_url.detail ?? 'auto' },
  );
}

/** The request body for `/v1/responses`; `stream` as asked. */
export function toResponsesBody(req: ChatRequest, stream: boolean, o: ResponsesBodyOptions = {}): Json {
  const input: Json[] = [];
  const instructions: string[] = [];
  let leading = true;
  for (const m of req.messages) {
    if (m.role === 'system') {
      // The system prompt at the top is the response's instructions; a later one (a compaction
      // summary) stays in its place as a developer message.
      if (leading) instructions.push(textOf(m.content));
      else input.push({ role: 'developer', content: [{ type: 'input_text', text: textOf(m.content) }] });
      continue;
    }
    leading = false;
    if (m.role === 'user') {
      input.push({ role: 'user', content: userContent(m.content) });
    } else if (m.role === 'assistant') {
      for (const r of o.reasoningFor?.(m) ?? []) input.push({ ...r });
      const text = textOf(m.content);
      if (text !== '')
        input.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] });
      for (const c of m.tool_calls ?? [])
        input.push({ type: 'function_call', call_id: c.id, name: c.function.name, arguments: c.function.arguments });
    } else {
      input.push({ type: 'function_call_output', call_id: m.tool_call_id, output: m.content });
    }
  }
  const body: Json = { model: req.model, input, stream, store: false };
  if (instructions.length > 0) body.instructions = instructions.join('\n\n');
  if (o.askReasoning !== false) {
    body.include = ['reasoning.encrypted_content'];
    body.reasoning = { summary: 'auto', ...(o.reasoningEffort ? { effort: o.reasoningEffort } : {}) };
  } else if (o.reasoningEffort) {
    body.reasoning = { effort: o.reasoningEffort };
  }
  if (req.tools?.length)
    body.tools = req.tools.map((t) => ({
      type: 'function',
      name: t.function.name,
      ...(t.function.description !== undefined ? { description: t.function.description } : {}),
      parameters: t.function.parameters ?? { type: 'object', properties: {} },
      strict: false,
    }));
  if (req.tool_choice !== undefined)
    body.tool_choice =
      typeof req.tool_choice === 'string' ? req.tool_choice : { type: 'function', name: req.tool_choice.function.name };
  if (req.temperature !== undefined && req.temperature !== null) body.temperature = req.temperature;
  if (req.top_p !== undefined && req.top_p !== null) body.top_p = req.top_p;
  if (req.max_tokens !== undefined && req.max_tokens !== null) body.max_output_tokens = req.max_tokens;
  if (req.user) body.user = req.user;
  const rf = req.response_format;
  if (rf?.type === 'json_object') body.text = { format: { type: 'json_object' } };
  else if (rf?.type === 'json_schema') body.text = { format: { type: 'json_schema', ...rf.json_schema } };
  // `stop`, `presence_penalty` and `frequency_penalty` have no Responses field: they are not sent.
  return body;
}
