/**
 * Host message types are named by the capability that handles them (`tools/list`, `chat/delta`):
 * the part before the slash picks the model a message goes to, one handler per namespace.
 */
import type { HostMessage } from '../../../src/shared/protocol';

type NamespaceOf<T> = T extends `${infer N}/${string}` ? N : never;
export type HostNamespace = NamespaceOf<HostMessage['type']>;

/** The host messages of one namespace. */
export type HostMessageIn<N extends HostNamespace> = Extract<HostMessage, { type: `${N}/${string}` }>;

/** A handler for every namespace (typecheck fails when the protocol gains one nobody takes). */
export type HostRoutes = { [N in HostNamespace]: (msg: HostMessageIn<N>) => void };

/** Hands `msg` to its namespace's handler; types of no namespace we know are ignored. */
export function route(routes: HostRoutes, msg: HostMessage): void {
  const ns = msg.type.slice(0, msg.type.indexOf('/'));
  if (!Object.hasOwn(routes, ns)) return;
  (routes[ns as HostNamespace] as (m: HostMessage) => void)(msg);
}
