/**
 * One completion end to end, without VS Code: the request for the model's way (./request), the
 * call through the gateway client (one attempt: a retry would answer a place the user has left),
 * and the answer cleaned (./clean). The editor side and the benchmark both use it.
 */
import type { GatewayClient } from '../../../api/client';
import { completeFim } from '../../../api/completions/completions';
import { redact } from '../../../shared/redact';
import { cleanCompletion } from './clean';
import type { CompletionContext } from './context';
import { chatInfillRequest, fimRequest } from './request';

/** The part of the client a completion uses (FIM goes through its HTTP layer: ../../../api/completions). */
export type CompletionClient = Pick<GatewayClient, 'http' | 'chat'>;

export interface CompleteOptions {
  model: string;
  way: 'fim' | 'chat';
  signal?: AbortSignal;
}

/** The suggestion for `ctx`, or undefined when the answer gives none. */
export async function completeAt(
  client: CompletionClient,
  ctx: CompletionContext,
  o: CompleteOptions,
): Promise<string | undefined> {
  let answer: string;
  if (o.way === 'fim') {
    const r = await completeFim(client.http, fimRequest(ctx, o.model), { signal: o.signal, retry: false });
    answer = r.text;
  } else {
    const r = await client.chat(chatInfillRequest(ctx, o.model), o.signal, { retry: false });
    answer = r.message.content ?? '';
  }
  const text = cleanCompletion({ answer, prefix: ctx.prefix, suffix: ctx.suffix, multiline: ctx.multiline });
  // Whatever the model echoed, the key never reaches the editor.
  return text === undefined ? undefined : redact(text);
}
