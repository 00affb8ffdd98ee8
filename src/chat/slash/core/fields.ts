/**
 * What the prompt-file and SKILL.md readers share: reading typed fields out of parsed frontmatter,
 * each wrong type a problem with the line of its key (the source list shows "line N"), never a
 * throw. The files are other tools' formats, so a value of the wrong type is reported and left
 * out, and the rest of the file still works.
 */
import type { CustomizationProblem } from '../../../contracts/customizations';

/** The 1-based line of top-level `key:` in the file (the frontmatter starts at line 2), or 1. */
export function keyLine(text: string, key: string): number {
  if (key === '') return 1;
  const lines = text.split(/\r?\n/);
  const esc = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`^(?:${esc}|"${esc}"|'${esc}')\\s*:`);
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i] ?? '';
    if (/^(?:---|\.\.\.)\s*$/.test(l)) break;
    if (re.test(l)) return i + 1;
  }
  return 1;
}

/** Reads fields of one file's frontmatter, collecting the problems with their lines. */
export class FieldReader {
  readonly problems: CustomizationProblem[] = [];

  constructor(
    private readonly text: string,
    private readonly attributes: Readonly<Record<string, unknown>>,
  ) {}

  has(key: string): boolean {
    return Object.hasOwn(this.attributes, key) && this.attributes[key] !== null;
  }

  problem(key: string, message: string): void {
    this.problems.push({ line: keyLine(this.text, key), message });
  }

  /** A text value (a number is read as its text, as YAML turns `model: 4` into a number). */
  string(key: string): string | undefined {
    if (!this.has(key)) return undefined;
    const v = this.attributes[key];
    if (typeof v === 'string') return v.trim() || undefined;
    if (typeof v === 'number') return String(v);
    this.problem(key, `${key} should be text; it is ignored.`);
    return undefined;
  }

  boolean(key: string): boolean | undefined {
    if (!this.has(key)) return undefined;
    const v = this.attributes[key];
    if (typeof v === 'boolean') return v;
    if (v === 'true' || v === 'false') return v === 'true';
    this.problem(key, `${key} should be true or false; it is ignored.`);
    return undefined;
  }

  /**
   * A list of names: a YAML list, or a text split on commas (and on spaces when `spaces`, as the
   * Agent Skills format writes `allowed-tools: Read Grep`).
   */
  list(key: string, spaces = false): string[] | undefined {
    if (!this.has(key)) return undefined;
    const v = this.attributes[key];
    if (typeof v === 'string') {
      return v
        .split(spaces ? /[\s,]+/ : /,/)
        .map((s) => s.trim())
        .filter(Boolean);
    }
    if (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number')) {
      return v.map((x) => String(x).trim()).filter(Boolean);
    }
    this.problem(key, `${key} should be a list of names; it is ignored.`);
    return undefined;
  }

  /** A map of text values (Agent Skills' `metadata`). */
  stringMap(key: string): Record<string, string> | undefined {
    if (!this.has(key)) return undefined;
    const v = this.attributes[key];
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
      const out: Record<string, string> = {};
      for (const [k, x] of Object.entries(v)) if (typeof x === 'string' || typeof x === 'number') out[k] = String(x);
      return out;
    }
    this.problem(key, `${key} should be a map of keys to text; it is ignored.`);
    return undefined;
  }
}
