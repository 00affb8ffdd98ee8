import { diagnosticsText } from '../diagnostics';
import type { Tool } from '../runner';
import { str, obj, def, s, later, type BuiltinKit } from './kit';

/** The built-in tool get_diagnostics: its definition (what the model is told) and what a call does. */
export function getDiagnostics({ host, resolve }: BuiltinKit): Tool {
  return {
    readOnly: true,
    definition: def(
      'get_diagnostics',
      'Get the errors and warnings the editor reports, for one file or (without path) the whole workspace.',
      obj({ path: str('File relative to the workspace; omit for every file.') }),
    ),
    async prepare(a) {
      const p = s(a['path']).trim();
      const file = p ? await resolve(p) : undefined;
      return later(() => diagnosticsText(host, file));
    },
  };
}
