/**
 * The MCP servers of the chat: their definitions (workspace files and the user's list), one
 * connection per server that may start, and the steps before a start: the trust verdict (asked of
 * the user through `mayStart`), the variables filled, and the check that none of our keys would
 * reach the server. Servers start in the background: a chat request never waits for one.
 */
import type { McpServerDef, VariableValues } from './config';
import { McpConnection, type McpConnectionOptions } from './connection';
import { resolveServer } from './resolve';
import { definitionHash, secretLeak } from './trust';

export interface McpPoolDeps extends Omit<McpConnectionOptions, 'onChange'> {
  onChange: () => void;
  /** The variable values for a definition (its folder, the environment, the input prompts). */
  variables: (d: McpServerDef) => VariableValues;
  /** Our gateway keys, which no server may be handed. */
  secrets: () => Promise<readonly string[]>;
  /** Whether this definition may start now (trust, approval asked when due). */
  mayStart: (d: McpServerDef) => Promise<boolean>;
}

/** A server as the status view lists it. */
export interface McpServerEntry {
  def: McpServerDef;
  connection: McpConnection | undefined;
  /** Why it did not start (not approved, Restricted Mode, a variable, a key it would get). */
  blocked: string | undefined;
}

export class McpPool {
  private readonly entries = new Map<string, McpServerEntry>();

  constructor(private readonly deps: McpPoolDeps) {}

  /**
   * Replaces the definitions. A server whose definition changed or vanished is stopped (a
   * changed workspace definition then waits for approval again); an unchanged one keeps running.
   * Later definitions of a name (the user's list after the workspace files) do not replace earlier ones.
   */
  async setDefinitions(defs: readonly McpServerDef[]): Promise<void> {
    const next = new Map<string, McpServerDef>();
    for (const d of defs) if (!next.has(d.name)) next.set(d.name, d);
    for (const [name, e] of this.entries) {
      const d = next.get(name);
      if (d && same(d, e.def)) continue;
      this.entries.delete(name);
      await e.connection?.stop();
    }
    for (const [name, def] of next) {
      if (!this.entries.has(name)) this.entries.set(name, { def, connection: undefined, blocked: undefined });
    }
    this.deps.onChange();
  }

  list(): McpServerEntry[] {
    return [...this.entries.values()];
  }

  connections(): McpConnection[] {
    return this.list().flatMap((e) => (e.connection ? [e.connection] : []));
  }

  /** Starts every server that may start, in parallel; resolves when each has started or failed. */
  async startAll(): Promise<void> {
    await Promise.all(this.list().map((e) => this.start(e.def.name)));
  }

  /** Starts one server (asking for approval when due); its entry says why when it does not. */
  async start(name: string): Promise<void> {
    const e = this.entries.get(name);
    if (!e || e.connection?.state === 'running' || e.connection?.state === 'starting') return;
    e.blocked = undefined;
    if (!(await this.deps.mayStart(e.def))) {
      e.blocked = 'not allowed to start';
      this.deps.onChange();
      return;
    }
    const typed: string[] = [];
    const base = this.deps.variables(e.def);
    const variables: VariableValues = {
      ...base,
      input: async (id) => {
        const v = await base.input(id);
        if (v !== undefined) typed.push(v);
        return v;
      },
    };
    let resolved;
    try {
      resolved = await resolveServer(e.def, variables);
    } catch (err) {
      return this.block(e, (err as Error).message);
    }
    const leak = secretLeak(resolved, await this.deps.secrets(), typed);
    if (leak !== undefined) {
      return this.block(e, `its ${leak} would carry your Gateway Studio key; it was not started`);
    }
    // A definition replaced while its variables were asked for is not started with the old values.
    if (this.entries.get(name) !== e) return;
    e.connection = new McpConnection(resolved, { ...this.deps, onChange: () => this.deps.onChange() });
    await e.connection.start();
  }

  async stop(name: string): Promise<void> {
    await this.entries.get(name)?.connection?.stop();
  }

  async restart(name: string): Promise<void> {
    await this.stop(name);
    const e = this.entries.get(name);
    if (e) e.connection = undefined;
    await this.start(name);
  }

  async dispose(): Promise<void> {
    await Promise.all(this.connections().map((c) => c.stop()));
    this.entries.clear();
  }

  private block(e: McpServerEntry, why: string): void {
    e.blocked = why;
    this.deps.log(`[${e.def.name}] not started: ${why}`);
    this.deps.onChange();
  }
}

function same(a: McpServerDef, b: McpServerDef): boolean {
  return a.scope === b.scope && a.source === b.source && definitionHash(a) === definitionHash(b);
}
