import Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { ToolCall, ToolDefinition, ToolMessage } from '../../../api/chat/wire';

/**
 * Checks model-made tool calls before anything runs. Every refusal is a `tool` message with the
 * call's `tool_call_id` that says exactly what was wrong, because the model can only correct
 * itself from what it reads in the next request.
 */

/** A call that may run: its tool exists and its arguments parsed and matched the schema. */
export interface ValidCall {
  ok: true;
  call: ToolCall;
  name: string;
  args: Record<string, unknown>;
}

/** Why a call was refused before running. */
export type RefusalReason = 'unknown-tool' | 'invalid-json' | 'not-an-object' | 'schema' | 'bad-schema';

/** A call that must not run; `message` is the tool message to send back instead. */
export interface RefusedCall {
  ok: false;
  call: ToolCall;
  reason: RefusalReason;
  /** What was wrong, in one or a few lines (also what `message.content` says). */
  detail: string;
  message: ToolMessage;
}

export type CheckedCall = ValidCall | RefusedCall;

/** The schema of a definition that leaves `parameters` out (spec 2.1: it takes none). */
const NO_PARAMETERS = { type: 'object', properties: {} };

/** Longest excerpt of bad arguments quoted back to the model. */
const EXCERPT = 60;

/**
 * Validates calls against a fixed set of tool definitions. Schemas are compiled once; a schema
 * that cannot be compiled (a broken one from another extension) refuses its calls with a clear
 * message instead of throwing.
 */
export class ToolCallValidator {
  private readonly ajv = new Ajv({
    allErrors: true,
    // Schemas from other extensions and MCP servers use keywords and formats we do not know
    // (`format: uri`, `x-*` annotations); unknown keywords must not make the tool unusable.
    strict: false,
    validateFormats: false,
  });
  private readonly validators = new Map<string, ValidateFunction | Error>();
  private readonly names: string[];

  constructor(definitions: readonly ToolDefinition[]) {
    this.names = definitions.map((d) => d.function.name);
    for (const d of definitions) {
      try {
        this.validators.set(d.function.name, this.ajv.compile(d.function.parameters ?? NO_PARAMETERS));
      } catch (e) {
        this.validators.set(d.function.name, e instanceof Error ? e : new Error(String(e)));
      }
    }
  }

  /** Checks one call: tool name, JSON syntax, object shape, then the schema. */
  check(call: ToolCall): CheckedCall {
    const name = call.function.name;
    const validator = this.validators.get(name);
    if (validator === undefined) {
      const known = this.names.length ? this.names.join(', ') : '(none: tools are not available in this chat)';
      return refuse(call, 'unknown-tool', `There is no tool named "${name}". Available tools: ${known}.`);
    }
    const parsed = parseArguments(call.function.arguments);
    if (!parsed.ok) return refuse(call, parsed.reason, parsed.detail);
    if (validator instanceof Error) {
      return refuse(
        call,
        'bad-schema',
        `The tool "${name}" cannot be used: its parameter schema is invalid (${validator.message}).`,
      );
    }
    if (!validator(parsed.value)) {
      const problems = describeSchemaErrors(validator.errors ?? []);
      return refuse(call, 'schema', `The arguments for "${name}" do not match its parameters: ${problems}`);
    }
    return { ok: true, call, name, args: parsed.value };
  }
}

type Parsed =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; reason: 'invalid-json' | 'not-an-object'; detail: string };

/**
 * Parses raw arguments. An empty string counts as `{}`: several servers send nothing at all for
 * a tool without parameters, and refusing that would make such tools uncallable.
 */
export function parseArguments(raw: string): Parsed {
  if (raw.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    return { ok: false, reason: 'invalid-json', detail: describeJsonError(raw, e) };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return {
      ok: false,
      reason: 'not-an-object',
      detail: `The arguments must be a JSON object ({"name": value, ...}), but they are ${kind}: ${excerpt(raw)}`,
    };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

function describeJsonError(raw: string, e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  // V8 does not always report a position ("Unexpected token '}', ... is not valid JSON"), so the
  // first error is located here, to quote the text around it.
  const at = locateJsonError(raw);
  let around = '';
  if (at && at.pos >= raw.length) {
    around = ` The text ends early (${at.expected} expected; an unclosed string, object or array?): \`…${oneLine(raw.slice(-30))}\`.`;
  } else if (at) {
    const start = Math.max(0, at.pos - 20);
    around = ` At position ${at.pos} ${at.expected} was expected. Near position ${at.pos}: \`${oneLine(raw.slice(start, at.pos + 20))}\`.`;
  }
  return `The arguments are not valid JSON (${msg}).${around} Send the arguments again as one complete JSON object.`;
}

/**
 * Finds the first syntax error of a JSON text: its offset and what was expected there. A small
 * recursive-descent reader over RFC 8259; undefined when the text is valid.
 */
export function locateJsonError(text: string): { pos: number; expected: string } | undefined {
  const r = new JsonReader(text);
  try {
    r.value();
    r.ws();
    if (r.i < text.length) return { pos: r.i, expected: 'the end of the text' };
    return undefined;
  } catch (e) {
    if (e instanceof Stop) return { pos: e.pos, expected: e.expected };
    throw e;
  }
}

/** Where reading stopped, and what was expected there. */
class Stop {
  constructor(
    readonly pos: number,
    readonly expected: string,
  ) {}
}

/** The reader of {@link locateJsonError}: each method reads one production from `i` or throws a Stop. */
class JsonReader {
  i = 0;
  constructor(private readonly text: string) {}

  ws(): void {
    while (this.i < this.text.length && ' \t\n\r'.includes(this.text.charAt(this.i))) this.i++;
  }

  private lit(word: string): void {
    for (const ch of word) {
      if (this.text[this.i] !== ch) throw new Stop(this.i, `"${word}"`);
      this.i++;
    }
  }

  private str(): void {
    const text = this.text;
    this.i++;
    for (;;) {
      if (this.i >= text.length) throw new Stop(this.i, 'a closing quote');
      const ch = text.charAt(this.i);
      if (ch === '"') {
        this.i++;
        return;
      }
      if (ch === '\\') {
        const nx = text.charAt(this.i + 1);
        if (nx === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(this.i + 2, this.i + 6))) throw new Stop(this.i, 'a \\uXXXX escape');
          this.i += 6;
        } else if ('"\\/bfnrt'.includes(nx) && nx !== '') this.i += 2;
        else throw new Stop(this.i, 'a valid escape');
      } else if (ch < ' ') throw new Stop(this.i, 'no raw control character (use \\n) in a string');
      else this.i++;
    }
  }

  private num(): void {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.i));
    if (!m || m[0] === '' || m[0] === '-') throw new Stop(this.i, 'a value');
    this.i += m[0].length;
  }

  /** `{`, `[`: the members up to the closing bracket, each read by `member`. */
  private members(close: '}' | ']', member: () => void): void {
    this.i++;
    this.ws();
    if (this.text[this.i] === close) {
      this.i++;
      return;
    }
    for (;;) {
      member();
      this.ws();
      if (this.text[this.i] === ',') {
        this.i++;
        continue;
      }
      if (this.text[this.i] === close) {
        this.i++;
        return;
      }
      throw new Stop(this.i, `"," or "${close}"`);
    }
  }

  private property(): void {
    this.ws();
    if (this.text[this.i] !== '"') throw new Stop(this.i, 'a property name in double quotes');
    this.str();
    this.ws();
    if (this.text[this.i] !== ':') throw new Stop(this.i, '":"');
    this.i++;
    this.value();
  }

  value(): void {
    this.ws();
    const ch = this.text[this.i];
    if (ch === '{') this.members('}', () => this.property());
    else if (ch === '[') this.members(']', () => this.value());
    else if (ch === '"') this.str();
    else if (ch === 't') this.lit('true');
    else if (ch === 'f') this.lit('false');
    else if (ch === 'n') this.lit('null');
    else this.num();
  }
}

/** One line per problem, with the JSON pointer of the offending value. */
export function describeSchemaErrors(errors: readonly ErrorObject[]): string {
  const lines = new Set<string>();
  for (const err of errors) {
    const at = err.instancePath === '' ? 'the arguments' : `"${err.instancePath.slice(1).replace(/\//g, '.')}"`;
    const p = err.params as Record<string, unknown>;
    switch (err.keyword) {
      case 'required':
        lines.add(`missing required property "${String(p['missingProperty'])}" in ${at}`);
        break;
      case 'additionalProperties':
        lines.add(`unknown property "${String(p['additionalProperty'])}" in ${at}`);
        break;
      case 'type':
        lines.add(`${at} must be ${String(p['type'])}`);
        break;
      case 'enum':
        lines.add(`${at} must be one of ${JSON.stringify(p['allowedValues'])}`);
        break;
      default:
        lines.add(`${at} ${err.message ?? 'is invalid'}`);
    }
  }
  return [...lines].join('; ') + '.';
}

function refuse(call: ToolCall, reason: RefusalReason, detail: string): RefusedCall {
  return {
    ok: false,
    call,
    reason,
    detail,
    message: { role: 'tool', tool_call_id: call.id, content: `Error: ${detail} The tool was not run.` },
  };
}

/** Quoted text stays on one line so the model sees where it starts and ends. */
function oneLine(s: string): string {
  return s.replace(/\r?\n/g, '⏎');
}

function excerpt(raw: string): string {
  return raw.length > EXCERPT ? `${raw.slice(0, EXCERPT)}…` : raw;
}
