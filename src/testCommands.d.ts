/**
 * True in the builds the host tests load (`npm run build`), false in the product
 * (`npm run build -- --production`): esbuild.js defines it, so the test-only commands (the
 * `debugState` seams, the queued answers of the price and approval dialogs) are registered from
 * files imported only under it and drop out of the shipped bundle.
 */
declare const __GWS_TEST_COMMANDS__: boolean;
