/**
 * Which profile and model a subagent runs on: the call's (`profile`, `model`), else its agent
 * file's models (the first the profile lists), else the utility model, else the conversation's.
 * Any of the user's profiles may be named; a model the profile does not list is refused with the
 * models it does list, so the parent can correct itself. A file's model is only ever taken from
 * the profile's own list (as for the chat's agents), never sent as the file typed it.
 */
import * as l10n from '@vscode/l10n';
import type { AgentDefinition } from '../../agents/core/agent';
import { matchModel } from '../../agents/core/turnAgent';
import type { ParentTurn, SubagentBackend } from './deps';

export interface ModelChoiceInput {
  asked: { model?: string; profile?: string };
  agent: AgentDefinition;
  parent: ParentTurn;
  utilityModel: string;
  profiles: readonly { id: string; name: string }[];
  backend(profile: string): Promise<SubagentBackend>;
  signal: AbortSignal;
}

export type ModelChoice =
  { ok: true; profile: string; model: string; backend: SubagentBackend } | { ok: false; why: string };

/** The models a profile lists, or undefined when the list cannot be read (then nothing is refused for it). */
async function listed(backend: SubagentBackend, signal: AbortSignal): Promise<string[] | undefined> {
  try {
    const ids = (await backend.listModels(signal)).map((m) => m.id);
    return ids.length ? ids : undefined;
  } catch {
    return undefined;
  }
}

function findProfile(i: ModelChoiceInput): { id: string; name: string } | string {
  const asked = i.asked.profile?.trim();
  if (!asked)
    return i.profiles.find((p) => p.id === i.parent.profile) ?? { id: i.parent.profile, name: i.parent.profile };
  const n = asked.toLowerCase();
  const found = i.profiles.find((p) => p.id.toLowerCase() === n) ?? i.profiles.find((p) => p.name.toLowerCase() === n);
  return (
    found ?? l10n.t('There is no gateway profile "{0}". Profiles: {1}.', asked, i.profiles.map((p) => p.id).join(', '))
  );
}

export async function chooseModel(i: ModelChoiceInput): Promise<ModelChoice> {
  const profile = findProfile(i);
  if (typeof profile === 'string') return { ok: false, why: profile };
  const backend = await i.backend(profile.id);
  const ids = await listed(backend, i.signal);
  const notListed = (m: string) =>
    l10n.t(
      'The model "{0}" is not listed on the profile "{1}". Its models: {2}.',
      m,
      profile.name,
      (ids ?? []).join(', '),
    );
  const ok = (model: string): ModelChoice => ({ ok: true, profile: profile.id, model, backend });
  const typed = i.asked.model?.trim();
  if (typed) {
    if (!ids) return ok(typed);
    const m = matchModel(typed, ids);
    return m ? ok(m) : { ok: false, why: notListed(typed) };
  }
  if (i.agent.models.length) {
    const m = ids ? i.agent.models.map((w) => matchModel(w, ids)).find(Boolean) : undefined;
    if (m) return ok(m);
    return {
      ok: false,
      why: l10n.t(
        'None of the models of "{0}" ({1}) is listed on the profile "{2}". Name one with "model"; its models: {3}.',
        i.agent.name,
        i.agent.models.join(', '),
        profile.name,
        (ids ?? []).join(', '),
      ),
    };
  }
  const utility = i.utilityModel.trim();
  if (utility) {
    const m = ids ? matchModel(utility, ids) : utility;
    return m ? ok(m) : { ok: false, why: `${notListed(utility)} (gatewayStudio.utilityModel)` };
  }
  if (profile.id !== i.parent.profile)
    return { ok: false, why: l10n.t('Name a "model" of the profile "{0}" to run a subagent there.', profile.name) };
  return ok(i.parent.model);
}
