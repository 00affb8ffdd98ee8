import { compileGlob } from '../glob';
import { searchPattern, searchTextForModel } from '../search';
import type { Tool } from '../runner';
import { str, int, bool, obj, def, s, n, later, type BuiltinKit } from './kit';

/** The built-in tool search_text: its definition (what the model is told) and what a call does. */
export function searchText({ host, ignore }: BuiltinKit): Tool {
  return {
    readOnly: true,
    definition: def(
      'search_text',
      'Search the text of workspace files (not those .gitignore or files.exclude hide); returns "path:line: text" per matching line.',
      obj(
        {
          query: str('Text to find (or a regular expression with isRegex).'),
          isRegex: bool('Treat query as a JavaScript regular expression.'),
          caseSensitive: bool('Match letter case exactly (default false).'),
          include: str('Glob limiting the files searched, e.g. "src/**/*.ts".'),
          maxResults: int('At most this many matching lines (default 100).'),
        },
        ['query'],
      ),
    ),
    prepare(a) {
      const include = s(a['include']);
      const query = {
        query: s(a['query']),
        isRegex: a['isRegex'] === true,
        caseSensitive: a['caseSensitive'] === true,
      };
      searchPattern(query);
      if (include) compileGlob(include);
      return Promise.resolve(
        later((ctx) =>
          searchTextForModel(host.roots(), {
            ...query,
            ...(include ? { include } : {}),
            maxResults: Math.min(n(a['maxResults']) ?? 100, 500),
            signal: ctx.signal,
            ignore: ignore(),
          }),
        ),
      );
    },
  };
}
