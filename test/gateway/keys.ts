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

/**
 * The second instance (issue 22: gateway profiles): its own keys, its own model and a header it
 * requires (401 without it, 403 with another value). `startGateway(SECOND_GATEWAY)` or
 * `npm run gateway -- --second` starts it.
 */
export const SECOND_GATEWAY = {
  keys: {
    valid: 'sk-second-gateway-studio',
    noPermission: 'sk-second-no-permission',
    noBalance: 'sk-second-no-balance',
  },
  /** Listed and served besides the usual models; answers as the built-in model it names. */
  models: { 'relay-chat': 'gw-chat' } as Record<string, string>,
  requiredHeader: { name: 'x-relay-token', value: 'relay-second' },
} as const;
