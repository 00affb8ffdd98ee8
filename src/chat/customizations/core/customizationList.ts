/**
 * The Customizations list's order: one group per kind (in the order people meet them: what is
 * always sent first, what runs code later), and in each group what applies now, then what is
 * available, then what is off, by name. A reader that failed is a group with its error, not a
 * missing group: the user sees that something was not listed.
 */
import type { CustomizationKind, CustomizationSource } from '../../../contracts/customizations';

export const KIND_ORDER: readonly CustomizationKind[] = [
  'instructions',
  'promptFile',
  'skill',
  'agent',
  'hooks',
  'commandRules',
  'mcpServer',
];

const STATE_ORDER: Record<CustomizationSource['state'], number> = { applies: 0, available: 1, off: 2 };

export interface CustomizationGroup {
  readonly kind: CustomizationKind;
  readonly sources: readonly CustomizationSource[];
  /** Why a reader of this kind could not list its sources. */
  readonly errors: readonly string[];
}

/** Each reader's answer: its sources, or why it failed. */
export type ProviderResult =
  | { readonly kind: CustomizationKind; readonly sources: readonly CustomizationSource[] }
  | { readonly kind: CustomizationKind; readonly error: string };

/** The groups to show, in {@link KIND_ORDER}; a kind with nothing found and no error is left out. */
export function groupCustomizations(results: readonly ProviderResult[]): CustomizationGroup[] {
  const groups: CustomizationGroup[] = [];
  for (const kind of KIND_ORDER) {
    const mine = results.filter((r) => r.kind === kind);
    const sources = mine
      .flatMap((r) => ('sources' in r ? r.sources : []))
      .slice()
      .sort((a, b) => STATE_ORDER[a.state] - STATE_ORDER[b.state] || a.name.localeCompare(b.name));
    const errors = mine.flatMap((r) => ('error' in r ? [r.error] : []));
    if (sources.length || errors.length) groups.push({ kind, sources, errors });
  }
  return groups;
}

/** The line a source's problems are shown at: the first with a line, else none. */
export function firstProblemLine(s: CustomizationSource): number | undefined {
  return s.problems.find((p) => p.line !== undefined)?.line;
}
