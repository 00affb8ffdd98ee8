/**
 * The local gateway's fixed keys, in a module of their own so that the integration suite (bundled
 * into the extension host) can know them without the whole gateway and without the runner sending
 * them: the development payload travels in the workbench URL, which code-server keeps on disk.
 */

/** The demo key printed by `npm run gateway`; also `keys.valid`. */
export const DEMO_KEY = 'sk-demo-gateway-studio';

/** Every key the gateway knows, by what it is allowed to do. */
export const GATEWAY_KEYS = {
  valid: DEMO_KEY,
  noPermission: 'sk-gw-no-permission',
  noBalance: 'sk-gw-no-balance',
} as const;
