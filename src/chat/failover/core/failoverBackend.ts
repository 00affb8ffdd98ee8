/**
 * A chat backend that asks the conversation's own profile first and, when it refuses before any
 * answer arrives (failoverRules.ts), the next profile of the model's failover list, each with its
 * own client (its key, its headers). Never after the first token; each relay at most once per
 * request; the encrypted reasoning of one gateway never goes to another. The answer says who
 * answered and what the others said (`ChatResult.notices`); `answered` names the profile whose
 * account the answer is counted on. With the first profile healthy it adds one function call.
 */
import * as l10n from '@vscode/l10n';
import type { ChatBackend, ChatRequest, ChatResult, StreamOptions } from '../../../api/chat/wire';
import type { ModelRecord } from '../../../api/models/models';
import { GatewayError, isGatewayError } from '../../../api/transport/errors';
import { coolDownMs, failoverCause, isKeyRefusal, type FailoverCause } from './failoverRules';
import {
  coolingLine,
  failoverSteps,
  hasList,
  type FailoverLists,
  type PlanProfile,
  type TimeText,
} from './failoverPlan';
import type { CoolDowns } from './coolDowns';

/** A gateway client as failover uses it: the chat calls and the model list. */
export type FailoverClient = ChatBackend & { listModels(signal?: AbortSignal): Promise<ModelRecord[]> };

/** A profile ready to be asked: its client, and its relay (normalised base URL) to ask it once. */
export interface FailoverTarget {
  profileId: string;
  name: string;
  client: FailoverClient;
  relay: string;
}

export interface FailoverDeps {
  /** The user's failover lists, read when a request needs them (never on the healthy path). */
  lists(): FailoverLists;
  profiles(): readonly PlanProfile[];
  /** Another profile's client with its own key and headers; throws why it cannot be built. */
  target(profileId: string): Promise<FailoverTarget>;
  coolDowns: CoolDowns;
  models: ModelLists;
  timeText: TimeText;
  log(line: string): void;
}

const MODELS_TTL_MS = 5 * 60_000;

/** Each profile's model ids, read from its own `/v1/models` at most every five minutes. */
export class ModelLists {
  private readonly known = new Map<string, { at: number; ids: Set<string> }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Whether `t` lists `model`; throws when its list cannot be read (that is said, and it is skipped). */
  async lists(t: FailoverTarget, model: string, signal?: AbortSignal): Promise<boolean> {
    const hit = this.known.get(t.profileId);
    if (hit && this.now() - hit.at < MODELS_TTL_MS) return hit.ids.has(model);
    const ids = new Set((await t.client.listModels(signal)).map((m) => m.id));
    this.known.set(t.profileId, { at: this.now(), ids });
    return ids.has(model);
  }
}

/** One call of the caller's: how it is sent (streamed or not), its stop signal and its events. */
interface Call {
  signal?: AbortSignal;
  onEvent?: StreamOptions['onEvent'];
  send(client: FailoverClient, req: ChatRequest, onEvent: StreamOptions['onEvent']): Promise<ChatResult>;
}

/** The request without the encrypted reasoning another gateway wrote (it could not read it and would refuse). */
export function withoutEncryptedReasoning(req: ChatRequest): ChatRequest {
  if (!req.messages.some((m) => m.role === 'assistant' && m.encrypted_reasoning)) return req;
  return {
    ...req,
    messages: req.messages.map((m) => {
      if (m.role !== 'assistant' || !m.encrypted_reasoning) return m;
      const { encrypted_reasoning: _other, ...rest } = m;
      return rest;
    }),
  };
}

export class FailoverBackend implements FailoverClient {
  /** The profile the last request went to: its account counts the answer. */
  answered: FailoverTarget;

  constructor(
    private readonly primary: FailoverTarget,
    private readonly deps: FailoverDeps,
  ) {
    this.answered = primary;
  }

  listModels(signal?: AbortSignal): Promise<ModelRecord[]> {
    return this.primary.client.listModels(signal);
  }

  chat(req: ChatRequest, signal?: AbortSignal): Promise<ChatResult> {
    return this.run(req, { signal, send: (c, r) => c.chat(r, signal) });
  }

  streamChat(req: ChatRequest, o: StreamOptions): Promise<ChatResult> {
    return this.run(req, {
      signal: o.signal,
      onEvent: o.onEvent,
      send: (c, r, onEvent) => c.streamChat(r, { ...o, onEvent }),
    });
  }

  private async run(req: ChatRequest, call: Call): Promise<ChatResult> {
    const p = this.primary;
    const cooling = this.deps.coolDowns.active(p.profileId);
    // The healthy path: the conversation's own profile, as without failover.
    if (!cooling || !hasList(this.deps.lists(), req.model)) return this.ask(p, req, call, true);
    const line = coolingLine({ id: p.profileId, name: p.name, problems: [] }, cooling, this.deps.timeText);
    const r = await this.onward(req, call, [line]);
    if (r.ok) return r.result;
    // Nobody else answered: the skipped own profile is asked after all (once), with what they said.
    if (r.final || r.tried.has(p.relay)) throw r.error;
    let result: ChatResult;
    try {
      result = await this.ask(p, req, call, false);
    } catch (err) {
      throw isGatewayError(err, 'aborted')
        ? err
        : combined(err, [...r.lines, l10n.t('{0} said: {1}', p.name, errText(err))]);
    }
    this.deps.coolDowns.clear(p.profileId);
    return r.lines.length > 1 ? answeredBy(result, p, r.lines.slice(1), true) : result;
  }

  /** Sends to the own profile; a refusal before its first token goes on to the list when `mayFailOver`. */
  private async ask(t: FailoverTarget, req: ChatRequest, call: Call, mayFailOver: boolean): Promise<ChatResult> {
    this.answered = t;
    const seen = tracked(call.onEvent);
    try {
      return await call.send(t.client, req, seen.onEvent);
    } catch (err) {
      const cause = mayFailOver ? failoverCause(err, { kind: 'chat', started: seen.started() }) : undefined;
      if (!cause || !hasList(this.deps.lists(), req.model)) throw err;
      this.coolDown(t, cause, err);
      const r = await this.onward(req, call, [l10n.t('{0} said: {1}', t.name, errText(err))], t.relay, err);
      if (r.ok) return r.result;
      throw r.error;
    }
  }

  private coolDown(t: FailoverTarget, cause: FailoverCause | 'key', err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    this.deps.coolDowns.start(t.profileId, cause, message, coolDownMs(cause, err, Date.now()));
    this.deps.log(`failover: ${t.name} (${t.relay}) refused (${cause}): ${message}`);
  }

  /**
   * Asks the model's other profiles in order until one answers: `ok` with its result (its notices
   * say who answered and why), or the error that ends the request (the last refusal, its message
   * naming what every profile said; `final`: one that must end it as it is). `lines`: what came
   * before (the own profile's refusal or cool-down); `first`: the own profile's refusal.
   */
  private async onward(
    req: ChatRequest,
    call: Call,
    lines: string[],
    triedRelay?: string,
    first?: unknown,
  ): Promise<
    | { ok: true; result: ChatResult }
    | { ok: false; error: unknown; final: boolean; tried: Set<string>; lines: string[] }
  > {
    const d = this.deps;
    const tried = new Set<string>(triedRelay ? [triedRelay] : []);
    let last = first;
    const steps = failoverSteps({
      model: req.model,
      primary: this.primary.profileId,
      lists: d.lists(),
      profiles: d.profiles(),
      coolDown: (id) => d.coolDowns.active(id),
      timeText: d.timeText,
    });
    const clean = withoutEncryptedReasoning(req);
    for (const step of steps) {
      if (call.signal?.aborted) break;
      if ('skip' in step) {
        lines.push(step.skip);
        continue;
      }
      const got = await this.tryTarget(step.ask, clean, call, tried, lines);
      if (got.result) {
        d.log(`failover: answered by ${got.target!.name}; ${lines.join(' ')}`);
        return { ok: true, result: answeredBy(got.result, got.target!, lines, false) };
      }
      if (got.error !== undefined) last = got.error;
      if (got.final) return { ok: false, error: got.error, final: true, tried, lines };
    }
    d.log(`failover: no profile answered; ${lines.join(' ')}`);
    return { ok: false, error: combined(last, lines), final: false, tried, lines };
  }

  /**
   * One profile of the list: built, checked (a relay already asked, a model it does not list),
   * asked. `final`: its error must end the request as it is (after its first token, a stop, a
   * refusal the next relay would share).
   */
  private async tryTarget(
    p: PlanProfile,
    req: ChatRequest,
    call: Call,
    tried: Set<string>,
    lines: string[],
  ): Promise<{ result?: ChatResult; target?: FailoverTarget; error?: unknown; final?: boolean }> {
    let t: FailoverTarget;
    try {
      t = await this.deps.target(p.id);
      if (tried.has(t.relay)) {
        lines.push(l10n.t('{0} is the same relay as one already asked; not asked again.', p.name));
        return {};
      }
      if (!(await this.deps.models.lists(t, req.model, call.signal))) {
        lines.push(l10n.t('{0} does not list {1} (its /v1/models); skipped.', p.name, req.model));
        return {};
      }
    } catch (err) {
      if (isKeyRefusal(err)) this.deps.coolDowns.start(p.id, 'key', errText(err), coolDownMs('key', err, Date.now()));
      lines.push(l10n.t('{0} could not be asked: {1}', p.name, errText(err)));
      return { error: err };
    }
    tried.add(t.relay);
    this.answered = t;
    const seen = tracked(call.onEvent);
    try {
      const result = await call.send(t.client, req, seen.onEvent);
      this.deps.coolDowns.clear(t.profileId);
      return { result, target: t };
    } catch (err) {
      if (isGatewayError(err, 'aborted')) return { error: err, final: true };
      const started = seen.started();
      const cause =
        failoverCause(err, { kind: 'chat', started }) ?? (!started && isKeyRefusal(err) ? 'key' : undefined);
      lines.push(l10n.t('{0} said: {1}', t.name, errText(err)));
      if (!cause) return { error: combined(err, lines), final: true };
      this.coolDown(t, cause, err);
      return { error: err };
    }
  }
}

/** The caller's events, passed on, noting whether anything reached the user (text, reasoning, a call). */
function tracked(onEvent: StreamOptions['onEvent']): { onEvent: StreamOptions['onEvent']; started(): boolean } {
  let started = false;
  return {
    onEvent: (e) => {
      if (e.type === 'text' || e.type === 'reasoning' || e.type === 'tool_call') started = true;
      onEvent?.(e);
    },
    started: () => started,
  };
}

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The answer, saying who gave it and what the others said; another profile's answer loses its
 * encrypted reasoning (the conversation is the own profile's, which could not read it).
 */
function answeredBy(r: ChatResult, t: FailoverTarget, lines: string[], own: boolean): ChatResult {
  const { encrypted_reasoning: theirs, ...message } = r.message;
  const [first, ...rest] = lines;
  const notices = [l10n.t('Answered by {0}: {1}', t.name, first ?? ''), ...rest];
  return {
    ...r,
    message: own && theirs ? { ...message, encrypted_reasoning: theirs } : message,
    notices: [...(r.notices ?? []), ...notices],
  };
}

/** The request's last refusal, its message naming what every profile said. */
function combined(err: unknown, lines: string[]): unknown {
  if (!isGatewayError(err)) {
    return new GatewayError('config', l10n.t('No profile could answer. {0}', lines.join(' ')));
  }
  return new GatewayError(err.kind, l10n.t('No profile could answer. {0}', lines.join(' ')), {
    status: err.status,
    type: err.type,
    code: err.code,
    param: err.param,
    requestId: err.requestId,
    retries: err.retries,
    headers: err.headers,
    ...(err.partial ? { partial: err.partial } : {}),
    cause: err,
  });
}
