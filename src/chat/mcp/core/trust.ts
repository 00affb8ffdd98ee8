/**
 * Whether an MCP server may start, and what it may be given. A workspace's server runs a command
 * (or reaches an address) the repository chose, so it starts only in a trusted workspace and only
 * after the user approved that exact definition (its hash, kept per server in global state): a
 * changed command, argument, environment entry, address or header asks again. The user's own
 * servers start on first use. Whatever a definition says, our gateway key never reaches a server
 * unless the user typed it into an `${input:…}` prompt themselves.
 */
import { createHash } from 'node:crypto';
import type { McpServerDef } from './config';

/**
 * The sha256 of what a definition makes run, written canonically (sorted keys): the type, the
 * command, its arguments, every env entry (names and values: `NODE_OPTIONS` changes what runs),
 * the env file, the folder, the address and every header. Variables are hashed as written, so a
 * secret typed for an `${input:…}` changes nothing.
 */
export function definitionHash(d: McpServerDef): string {
  const sorted = (r: Readonly<Record<string, string>>) =>
    Object.fromEntries(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : 1)));
  const what =
    d.type === 'stdio'
      ? {
          type: d.type,
          command: d.command,
          args: d.args,
          env: sorted(d.env),
          envFile: d.envFile ?? null,
          cwd: d.cwd ?? null,
        }
      : { type: d.type, url: d.url, headers: sorted(d.headers) };
  return createHash('sha256').update(JSON.stringify(what), 'utf8').digest('hex');
}

/** Where an approval is kept: a workspace server's file and name (a user server needs none). */
export function approvalKey(d: McpServerDef): string {
  return `${d.source}#${d.name}`;
}

export type StartVerdict =
  | { start: true; why: 'user' | 'approved' }
  | {
      start: false;
      why: 'restricted' | 'notApproved' | 'changed' | 'declined';
      /** Whether to ask the user now (not approved or changed, and not declined in this window). */
      ask: boolean;
    };

export interface StartFacts {
  workspaceTrusted: boolean;
  /** The hash approved for this server's {@link approvalKey}, if any. */
  approvedHash: string | undefined;
  /** The hash the user declined in this window (not asked again until it changes). */
  declinedHash?: string;
}

export function startVerdict(d: McpServerDef, f: StartFacts): StartVerdict {
  if (d.scope === 'user') return { start: true, why: 'user' };
  // Restricted Mode comes before approval: an approval given earlier does not bring it back.
  if (!f.workspaceTrusted) return { start: false, why: 'restricted', ask: false };
  const hash = definitionHash(d);
  if (f.approvedHash === hash) return { start: true, why: 'approved' };
  if (f.declinedHash === hash) return { start: false, why: 'declined', ask: false };
  return { start: false, why: f.approvedHash === undefined ? 'notApproved' : 'changed', ask: true };
}

/** A server definition with its variables filled, ready to start. */
export interface ResolvedServer {
  def: McpServerDef;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
}

/**
 * The first place a resolved server would carry one of `secrets` (our gateway keys), or
 * undefined. `typed` holds the values the user typed for `${input:…}` prompts: a key the user
 * gave on purpose is theirs to give. Short secrets are ignored (they would match by chance).
 */
export function secretLeak(
  r: ResolvedServer,
  secrets: readonly string[],
  typed: readonly string[],
): string | undefined {
  const keys = secrets.filter((s) => s.length >= 8 && !typed.includes(s));
  const places: [string, string | undefined][] = [
    ['command', r.command],
    ['url', r.url],
    ...(r.args ?? []).map((a, i): [string, string] => [`args[${i}]`, a]),
    ...Object.entries(r.env ?? {}).map(([k, v]): [string, string] => [`env.${k}`, v]),
    ...Object.entries(r.headers ?? {}).map(([k, v]): [string, string] => [`headers.${k}`, v]),
  ];
  for (const [where, value] of places) {
    if (value !== undefined && keys.some((k) => value.includes(k))) return where;
  }
  return undefined;
}
