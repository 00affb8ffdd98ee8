// The chat's hook approvals: which workspace hook files the user allowed to run, by content.
// How to add a key: ./state.ts.
import { emptyMap, entries, stateKey, text } from './state';

/** A sha256 in hex, as `hookFileHash` writes it; anything else is dropped (it approves nothing). */
const sha256: (v: unknown) => string | undefined = (v) => {
  const t = text(v);
  return t !== undefined && /^[0-9a-f]{64}$/.test(t) ? t : undefined;
};

/**
 * global: per absolute path of a workspace hook file, the sha256 of the content the user approved.
 * Global, not workspace state: the workspace's own storage is no place for its permission to run
 * commands, and a path approved once stays approved when the folder is opened again. A changed
 * file no longer matches its hash and is asked about again.
 */
export const approvedHookFilesKey = /* @__PURE__ */ stateKey({
  key: 'gatewayStudio.hooks.approvedFiles',
  store: 'global',
  check: entries(sha256),
  fallback: emptyMap as () => Record<string, string>,
});
