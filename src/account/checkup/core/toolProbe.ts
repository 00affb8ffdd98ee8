/**
 * Probe 3, tool calling and reasoning: a fixed schema of two tools and five cases (one call, two
 * parallel calls, nested arguments, a call that should not happen, a tool result turn). A case
 * counts as well-formed when the calls that came back are the ones asked for, with arguments that
 * are JSON objects fitting the schema. The result turn sends the first case's answer back, with
 * its reasoning as the chat replays it, so a relay that refuses a replayed turn shows here.
 */
import * as l10n from '@vscode/l10n';
import type { AssistantMessage, ChatMessage, ChatRequest, ChatResult } from '../../../api/chat/wire';
import { CHECKUP_TOOLS, EVENT, TOOL_CASES, WEATHER, WEATHER_RESULT, type Schema, type ToolCase } from './toolCases';
import type { ProbeResult } from './types';

export { CHECKUP_TOOLS, TOOL_CASES, type ToolCase };

const MAX_TOKENS = 200;

/** The request of a case; the result case needs the first case's answer (a fixed call when it had none). */
export function toolRequest(model: string, c: ToolCase, first?: ChatResult): ChatRequest {
  const messages: ChatMessage[] = [{ role: 'user', content: c.prompt }];
  if (c.id === 'result') {
    const calls = first?.message.tool_calls?.length
      ? first.message.tool_calls.slice(0, 1)
      : [
          {
            id: 'call_checkup_1',
            type: 'function' as const,
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ];
    const assistant: AssistantMessage = {
      role: 'assistant',
      content: first?.message.content || null,
      tool_calls: calls,
      ...(first?.message.reasoning_content ? { reasoning_content: first.message.reasoning_content } : {}),
    };
    messages.push(assistant, { role: 'tool', tool_call_id: calls[0]!.id, content: WEATHER_RESULT });
  }
  return { model, messages, tools: CHECKUP_TOOLS, tool_choice: 'auto', max_tokens: MAX_TOKENS, temperature: 0 };
}

/** Why `value` does not fit `schema` (a path and what was wrong), or undefined when it fits. */
export function schemaProblem(value: unknown, schema: Schema, at = 'arguments'): string | undefined {
  if (schema.type === 'string') return typeof value === 'string' ? undefined : `${at} is not a string`;
  if (schema.type === 'array') {
    if (!Array.isArray(value)) return `${at} is not an array`;
    for (let i = 0; i < value.length; i++) {
      const p = schemaProblem(value[i], schema.items, `${at}[${i}]`);
      if (p) return p;
    }
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${at} is not an object`;
  const o = value as Record<string, unknown>;
  for (const k of schema.required) if (!(k in o)) return `${at}.${k} is missing`;
  for (const [k, s] of Object.entries(schema.properties)) {
    if (!(k in o)) continue;
    const p = schemaProblem(o[k], s, `${at}.${k}`);
    if (p) return p;
  }
  return undefined;
}

const SCHEMAS: Record<string, Schema> = { get_weather: WEATHER, create_event: EVENT };

/** Why a case's answer is not what was asked for, or undefined when it is well-formed. */
export function caseProblem(c: ToolCase, r: ChatResult): string | undefined {
  const calls = r.message.tool_calls ?? [];
  if (c.expect.length === 0) {
    if (calls.length > 0)
      return l10n.t('called {0} where no call was due', calls.map((t) => t.function.name).join(', '));
    return (r.message.content ?? '').trim() === '' ? l10n.t('answered no text') : undefined;
  }
  if (calls.length !== c.expect.length) return l10n.t('{0} call(s) instead of {1}', calls.length, c.expect.length);
  for (const [i, t] of calls.entries()) {
    const schema = SCHEMAS[t.function.name];
    if (!schema || t.function.name !== c.expect[i]!.name)
      return l10n.t('called {0}, not {1}', t.function.name, c.expect[i]!.name);
    let args: unknown;
    try {
      args = JSON.parse(t.function.arguments);
    } catch {
      return l10n.t('the arguments of {0} are not JSON', t.function.name);
    }
    const p = schemaProblem(args, schema);
    if (p) return p;
  }
  return undefined;
}

export type CaseOutcome = { result: ChatResult } | { error: unknown };

export function toolVerdict(
  outcomes: ReadonlyArray<{ c: ToolCase; outcome: CaseOutcome }>,
): Omit<ProbeResult, 'spent'> {
  const evidence: string[] = [];
  let good = 0;
  let refused = 0;
  let reasoning = 0;
  for (const { c, outcome } of outcomes) {
    if ('error' in outcome) {
      refused += 1;
      const why = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
      evidence.push(l10n.t('{0}: refused: {1}', c.id, why));
      continue;
    }
    if (outcome.result.message.reasoning_content) reasoning += 1;
    const p = caseProblem(c, outcome.result);
    if (p) evidence.push(l10n.t('{0}: {1}', c.id, p));
    else good += 1;
  }
  const n = outcomes.length;
  const replay = outcomes.find((o) => o.c.id === 'result');
  const firstReasoned = outcomes.find(
    (o) => o.c.id === 'one' && 'result' in o.outcome && o.outcome.result.message.reasoning_content,
  );
  if (firstReasoned && replay)
    evidence.push(
      'error' in replay.outcome
        ? l10n.t('Reasoning arrived, and the turn that replays it was refused.')
        : l10n.t('Reasoning arrived, and the turn that replays it was accepted.'),
    );
  else
    evidence.push(
      reasoning ? l10n.t('Reasoning arrived in {0} answer(s).', reasoning) : l10n.t('No reasoning arrived.'),
    );
  const figures = { wellFormed: good, cases: n, refused, reasoning };
  if (refused === n && n > 0)
    return {
      probe: 'tools',
      verdict: 'refused',
      summary: l10n.t('The relay refused every tool request.'),
      evidence,
      figures,
    };
  return {
    probe: 'tools',
    verdict: good === n ? 'ok' : 'problem',
    summary: l10n.t('{0} of {1} tool cases came back well-formed.', good, n),
    evidence,
    figures,
  };
}
