/**
 * axe-core in a harness page. The page's CSP refuses injected script tags, so axe's source is
 * evaluated through the debugging protocol (as `page.evaluate` does), which the CSP does not
 * govern; axe itself needs no eval. Results are reduced to what a report needs.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export type Impact = 'critical' | 'serious' | 'moderate' | 'minor';
export const IMPACTS: Impact[] = ['critical', 'serious', 'moderate', 'minor'];

export interface Violation {
  id: string;
  impact: Impact;
  help: string;
  /** How many elements break the rule. */
  count: number;
  /** A few of the offending elements (CSS paths) with axe's summary of what is wrong. */
  nodes: Array<{ target: string; summary: string }>;
}

interface AxeGlobal {
  axe?: {
    run(
      context: unknown,
      options: unknown,
    ): Promise<{
      violations: Array<{
        id: string;
        impact: Impact | null;
        help: string;
        nodes: Array<{ target: unknown[]; failureSummary?: string }>;
      }>;
    }>;
  };
  document: unknown;
}

/** Runs axe on the whole page (WCAG 2.x A/AA and best practices) and returns its violations. */
export async function axeViolations(page: Page): Promise<Violation[]> {
  const loaded = await page.evaluate(() => Boolean((globalThis as unknown as AxeGlobal).axe));
  if (!loaded) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const g = globalThis as unknown as AxeGlobal;
    if (!g.axe) throw new Error('axe-core did not load in the page');
    const r = await g.axe.run(g.document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? 'minor',
      help: v.help,
      count: v.nodes.length,
      nodes: v.nodes.slice(0, 5).map((n) => ({
        target: n.target.map(String).join(' '),
        summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 300),
      })),
    }));
  });
}

/** Counts per impact. */
export function countByImpact(vs: Violation[]): Record<Impact, number> {
  const c: Record<Impact, number> = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  for (const v of vs) c[v.impact] += Math.max(1, v.count);
  return c;
}

export function describe(vs: Violation[]): string {
  return vs
    .map((v) => `${v.impact} ${v.id} (${v.help}):\n${v.nodes.map((n) => `    ${n.target}: ${n.summary}`).join('\n')}`)
    .join('\n');
}
