import * as vscode from 'vscode';
import { apiKeyProblem } from '../../../platform/secrets';
import { DEFAULT_PROFILE_ID, type Profile } from '../../../platform/profiles';
import type { Services } from '../../../platform/services';
import { updateSetting } from '../../../platform/settings';
import { userValue } from '../../../platform/userSettings';
import { addProfile, newProfileProblem, removeProfile } from '../core/edit';

/** Switch Gateway Profile: a quick pick of every profile; returns the id switched to. */
export async function switchProfile(s: Services, id?: string): Promise<string | undefined> {
  const { profiles, problems } = s.profiles.list();
  if (id === undefined) {
    const active = s.profiles.activeId();
    type Item = vscode.QuickPickItem & { id?: string; add?: boolean };
    const items: Item[] = profiles.map((p) => ({
      label: p.name,
      description: p.id === active ? vscode.l10n.t('active') : p.id,
      detail: p.problems.length ? `$(warning) ${p.problems.join(' ')}` : p.baseUrl || undefined,
      id: p.id,
    }));
    items.push({ label: `$(add) ${vscode.l10n.t('Add Gateway Profile…')}`, add: true });
    for (const p of problems) s.log.warn(p);
    const picked = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Gateway Studio: Switch Gateway Profile'),
      placeHolder: vscode.l10n.t('Chat, models and new video tasks use the profile you pick'),
    });
    if (!picked) return undefined;
    if (picked.add) return addProfileCommand(s);
    id = picked.id;
  }
  if (id === undefined || !s.profiles.get(id)) {
    void vscode.window.showErrorMessage(vscode.l10n.t('There is no gateway profile "{0}".', String(id)));
    return undefined;
  }
  await s.profiles.setActive(id);
  return id;
}

/** Add Gateway Profile: name, address and key; written to user settings, the key to secret storage. */
export async function addProfileCommand(s: Services): Promise<string | undefined> {
  const name = await vscode.window.showInputBox({
    title: vscode.l10n.t('Add Gateway Profile (1/3)'),
    prompt: vscode.l10n.t('A name for this gateway, such as "Work relay".'),
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() === '' ? vscode.l10n.t('The name is empty.') : undefined),
  });
  if (!name?.trim()) return undefined;
  const baseUrl = await vscode.window.showInputBox({
    title: vscode.l10n.t('Add Gateway Profile (2/3)'),
    prompt: vscode.l10n.t('The base URL of this gateway, for example https://relay.example.com/v1.'),
    ignoreFocusOut: true,
    validateInput: (v) => (v === '' ? undefined : newProfileProblem({ name, baseUrl: v })),
  });
  if (baseUrl === undefined) return undefined;
  const problem = newProfileProblem({ name, baseUrl });
  if (problem) {
    void vscode.window.showErrorMessage(problem);
    return undefined;
  }
  const key = await vscode.window.showInputBox({
    title: vscode.l10n.t('Add Gateway Profile (3/3)'),
    prompt: vscode.l10n.t('The API key for "{0}". It is kept in VS Code secret storage, never in settings.', name),
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) => (v.length === 0 ? undefined : apiKeyProblem(v)),
  });
  if (key === undefined) return undefined;
  const r = addProfile(userValue('profiles'), { name, baseUrl });
  await updateSetting('profiles', r.value);
  if (key !== '') await s.profiles.setKey(r.id, key);
  s.log.info(`gateway profile added: ${r.id}`);
  await s.profiles.setActive(r.id);
  return r.id;
}

/**
 * Remove Gateway Profile: asks first, and says what will happen to the video tasks still running
 * on it (they stop: their key goes with the profile; adding the profile again with the same id and
 * key lets Resume finish them). Deletes its key from secret storage.
 */
export async function removeProfileCommand(
  s: Services,
  id?: string,
  /** The question's window (the integration tests answer it: a modal cannot be clicked there). */
  dialogs: Pick<typeof vscode.window, 'showWarningMessage'> = vscode.window,
): Promise<boolean> {
  let target: Profile | undefined;
  if (id === undefined) {
    const items = s.profiles
      .list()
      .profiles.filter((p) => p.id !== DEFAULT_PROFILE_ID)
      .map((p) => ({ label: p.name, description: p.id, p }));
    if (items.length === 0) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('There is only the Default profile (your gateway settings); it cannot be removed.'),
      );
      return false;
    }
    target = (await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Remove Gateway Profile') }))?.p;
  } else target = s.profiles.get(id);
  if (!target || target.id === DEFAULT_PROFILE_ID) return false;
  const running = s.profiles.runningOn(target.id);
  const remove = vscode.l10n.t('Remove');
  const detail = running.length
    ? vscode.l10n.t(
        '{0} video task(s) still run on this profile: {1}. They will stop being checked and downloaded, because their key is removed with the profile; the gateway keeps them (and bills them). Add the profile again with the id "{2}" and its key, then Resume, to finish them.',
        running.length,
        running.join('; '),
        target.id,
      )
    : vscode.l10n.t(
        'Its key is deleted from secret storage; requests then use the Default profile only if you switch to it.',
      );
  const ok = await dialogs.showWarningMessage(
    vscode.l10n.t('Remove the gateway profile "{0}"?', target.name),
    { modal: true, detail },
    remove,
  );
  if (ok !== remove) return false;
  await updateSetting('profiles', removeProfile(userValue('profiles'), target.id));
  await s.profiles.clearKey(target.id);
  s.log.info(`gateway profile removed: ${target.id} (${running.length} running video task(s) stop)`);
  return true;
}
