// Imported first by main.ts, before any schema exists. The webview's CSP forbids eval; without
// `jitless` zod probes `new Function` and the browser reports a CSP violation on every load
// (harmless, but noise that would hide a real violation).
import * as z from '../src/shared/zod';

z.config({ jitless: true });
