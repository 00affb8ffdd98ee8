/**
 * Hook files as Claude Code, VS Code and Copilot CLI write them, read into one list of commands.
 * The shared format (VS Code's hooks.md: "the same hook format as Claude Code and Copilot CLI"):
 *
 * - Claude Code (`.claude/settings.json`, `.claude/settings.local.json`, `~/.claude/settings.json`):
 *   `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "…",
 *   "timeout": 30}]}]}}`; `disableAllHooks: true` turns the file's hooks off.
 * - VS Code (`.github/hooks/*.json`, `~/.copilot/hooks/*.json`): the commands directly under the
 *   event, `{"type": "command", "command", "windows", "linux", "osx", "cwd", "env", "timeout"}`.
 * - Copilot CLI: `"version": 1`, lowerCamelCase events (`preToolUse`, `userPromptSubmitted`) and
 *   `bash` / `powershell` commands, `timeoutSec`.
 *
 * Ours on top: `onTimeout: "continue" | "block"` on a command (what a hook that hangs means;
 * default continue). Everything not understood is said as a problem, never silently dropped.
 */
import type { CustomizationProblem } from '../../../contracts/customizations';

export const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'UserPromptSubmit',
  'SessionStart',
  'PreCompact',
  'Stop',
] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

/** Seconds a hook may run when its entry says nothing (VS Code's documented default). */
export const DEFAULT_HOOK_TIMEOUT_SEC = 30;
/** The longest timeout honoured: a typo of 30000 (milliseconds) must not make a hook hang for 8 hours. */
export const MAX_HOOK_TIMEOUT_SEC = 600;

/** Claude Code's files send Claude's tool names and fields; the other formats get ours. */
export type HookFlavor = 'claude' | 'vscode';

/** One command to run for one event. */
export interface HookCommand {
  readonly event: HookEventName;
  /** Which tools (or SessionStart sources, PreCompact triggers) it runs for; undefined: all. */
  readonly matcher?: string;
  /** The command line for this platform, run by the shell. */
  readonly command: string;
  readonly timeoutSec: number;
  /** What a hook that did not answer in time means for the call: go on (default) or block it. */
  readonly onTimeout: 'continue' | 'block';
  /** Folder to run in, relative to the workspace folder (checked to stay inside it). */
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
}

export interface ParsedHookFile {
  readonly flavor: HookFlavor;
  readonly commands: readonly HookCommand[];
  readonly problems: readonly CustomizationProblem[];
  /** `disableAllHooks: true` (Claude Code's settings): the file is found but its hooks are off. */
  readonly disabled: boolean;
  /** The file could not be read as hooks at all (not JSON, not an object): its first problem says why. */
  readonly invalid: boolean;
}

/** Events of the other tools we know but do not run, said once per file rather than as errors. */
const OTHER_EVENTS = new Set([
  'PermissionRequest',
  'PermissionDenied',
  'PostToolUseFailure',
  'Notification',
  'SubagentStart',
  'SubagentStop',
  'SessionEnd',
  'PostCompact',
  'ErrorOccurred',
]);

/** `preToolUse` → `PreToolUse`; Copilot CLI's `userPromptSubmitted` → `UserPromptSubmit`. */
function eventName(key: string): string {
  if (key === 'userPromptSubmitted') return 'UserPromptSubmit';
  return key.charAt(0).toUpperCase() + key.slice(1);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** 1-based line of a JSON.parse error: from V8's position when it gives one, else found by a scan. */
export function jsonErrorLine(text: string, e: unknown): number | undefined {
  const msg = e instanceof Error ? e.message : String(e);
  const line = /line (\d+)/.exec(msg);
  if (line) return Number(line[1]);
  const pos = /position (\d+)/.exec(msg);
  const at = pos ? Number(pos[1]) : jsonErrorOffset(text);
  return at === undefined ? undefined : text.slice(0, at).split('\n').length;
}

/** Where a JSON text first goes wrong (Node 20's messages often leave the position out). */
function jsonErrorOffset(t: string): number | undefined {
  let i = 0;
  const ws = () => {
    while (/\s/.test(t.charAt(i))) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const value = (): void => {
    ws();
    const c = t.charAt(i);
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      ws();
      if (t[i] === close) return void i++;
      for (;;) {
        if (c === '{') {
          ws();
          if (t[i] !== '"') fail();
          value();
          ws();
          if (t[i] !== ':') fail();
          i++;
        }
        value();
        ws();
        if (t[i] === close) return void i++;
        if (t[i] !== ',') fail();
        i++;
      }
    }
    const m = /^(?:"(?:[^"\\\n]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(t.slice(i));
    if (!m) fail();
    i += m?.[0].length ?? 0;
  };
  try {
    value();
    ws();
    return i < t.length ? i : undefined;
  } catch (at) {
    return typeof at === 'number' ? at : undefined;
  }
}

/** Reads one hook file's text. `flavor`: how its tools are named (by where the file lives). */
export function parseHookFile(
  text: string,
  flavor: HookFlavor,
  platform: NodeJS.Platform = process.platform,
): ParsedHookFile {
  const problems: CustomizationProblem[] = [];
  let json: unknown;
  try {
    // A settings file may start with a byte-order mark; JSON.parse does not take one.
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    const line = jsonErrorLine(text, e);
    const message = `Not valid JSON: ${e instanceof Error ? e.message : String(e)}`;
    return { flavor, commands: [], problems: [{ ...(line ? { line } : {}), message }], disabled: false, invalid: true };
  }
  if (!isRecord(json)) return invalidFile(flavor, 'The file is not a JSON object.');
  const disabled = json['disableAllHooks'] === true;
  const hooks = json['hooks'];
  if (hooks === undefined) return { flavor, commands: [], problems, disabled, invalid: false };
  if (!isRecord(hooks)) return invalidFile(flavor, '"hooks" is not an object.');
  const commands: HookCommand[] = [];
  for (const [key, list] of Object.entries(hooks)) {
    const event = eventName(key);
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      problems.push({
        message: OTHER_EVENTS.has(event)
          ? `"${key}" hooks are not run by Gateway Studio (it runs ${HOOK_EVENTS.join(', ')}).`
          : `Unknown hook event "${key}".`,
      });
      continue;
    }
    if (!Array.isArray(list)) {
      problems.push({ message: `hooks.${key} is not a list.` });
      continue;
    }
    list.forEach((entry, i) => {
      const where = `hooks.${key}[${i}]`;
      if (isRecord(entry) && Array.isArray(entry['hooks'])) {
        // Claude Code's group: a matcher and its commands.
        const m = entry['matcher'];
        if (m !== undefined && typeof m !== 'string') problems.push({ message: `${where}.matcher is not text.` });
        const matcher = typeof m === 'string' ? m : undefined;
        entry['hooks'].forEach((h, j) =>
          readCommand(h, `${where}.hooks[${j}]`, event as HookEventName, matcher, platform, commands, problems),
        );
      } else {
        const m = isRecord(entry) && typeof entry['matcher'] === 'string' ? entry['matcher'] : undefined;
        readCommand(entry, where, event as HookEventName, m, platform, commands, problems);
      }
    });
  }
  return { flavor, commands, problems, disabled, invalid: false };
}

function invalidFile(flavor: HookFlavor, message: string): ParsedHookFile {
  return { flavor, commands: [], problems: [{ message }], disabled: false, invalid: true };
}

/** The command line for this platform: its own override, else `command` (Copilot CLI: `bash` / `powershell`). */
function platformCommand(h: Record<string, unknown>, platform: NodeJS.Platform): unknown {
  const own = platform === 'win32' ? 'windows' : platform === 'darwin' ? 'osx' : 'linux';
  const cli = platform === 'win32' ? 'powershell' : 'bash';
  return h[own] ?? h['command'] ?? h[cli];
}

function readCommand(
  h: unknown,
  where: string,
  event: HookEventName,
  matcher: string | undefined,
  platform: NodeJS.Platform,
  out: HookCommand[],
  problems: CustomizationProblem[],
): void {
  if (!isRecord(h)) {
    problems.push({ message: `${where} is not an object.` });
    return;
  }
  const type = h['type'] ?? 'command';
  if (type !== 'command') {
    problems.push({ message: `${where}: only "command" hooks are run (this one is "${String(type)}").` });
    return;
  }
  const command = platformCommand(h, platform);
  if (typeof command !== 'string' || command.trim() === '') {
    problems.push({ message: `${where} has no command for this platform.` });
    return;
  }
  const rawTimeout = h['timeout'] ?? h['timeoutSec'];
  let timeoutSec = DEFAULT_HOOK_TIMEOUT_SEC;
  if (rawTimeout !== undefined) {
    if (typeof rawTimeout === 'number' && Number.isFinite(rawTimeout) && rawTimeout > 0)
      timeoutSec = Math.min(rawTimeout, MAX_HOOK_TIMEOUT_SEC);
    else problems.push({ message: `${where}.timeout is not a positive number of seconds; ${timeoutSec} s is used.` });
  }
  const onTimeout = h['onTimeout'] === 'block' ? 'block' : 'continue';
  if (h['onTimeout'] !== undefined && h['onTimeout'] !== 'block' && h['onTimeout'] !== 'continue')
    problems.push({ message: `${where}.onTimeout is neither "continue" nor "block"; "continue" is used.` });
  const cwd = typeof h['cwd'] === 'string' && h['cwd'].trim() !== '' ? h['cwd'] : undefined;
  let env: Record<string, string> | undefined;
  if (isRecord(h['env'])) {
    env = {};
    for (const [k, v] of Object.entries(h['env'])) {
      if (typeof v === 'string') env[k] = v;
      else problems.push({ message: `${where}.env.${k} is not text and is left out.` });
    }
  }
  out.push({
    event,
    ...(matcher !== undefined && matcher !== '' && matcher !== '*' ? { matcher } : {}),
    command,
    timeoutSec,
    onTimeout,
    ...(cwd !== undefined ? { cwd } : {}),
    ...(env ? { env } : {}),
  });
}
