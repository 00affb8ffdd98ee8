// Fixtures written from the formats' documentation: Claude Code's hooks reference (matcher groups,
// `timeout` in seconds, `disableAllHooks`), VS Code's hooks.md (flat commands, OS overrides, `cwd`,
// `env`, `timeoutSec` in its examples) and Copilot CLI's (`version: 1`, lowerCamelCase events,
// `bash` / `powershell`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_HOOK_TIMEOUT_SEC, jsonErrorLine, parseHookFile } from '../../../../../src/chat/hooks/core/hookFile';

const claude = JSON.stringify({
  permissions: { allow: ['Bash(npm test:*)'] },
  hooks: {
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh', timeout: 10 }],
      },
      { matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'npx prettier --check' }] },
    ],
    UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo context' }] }],
    Stop: [{ matcher: '*', hooks: [{ type: 'command', command: 'npm test' }] }],
    Notification: [{ hooks: [{ type: 'command', command: 'notify-send hi' }] }],
  },
});

void test('a Claude Code settings file gives each command its event, matcher and timeout', () => {
  const f = parseHookFile(claude, 'claude', 'linux');
  assert.equal(f.invalid, false);
  assert.deepEqual(
    f.commands.map((c) => [c.event, c.matcher, c.command, c.timeoutSec, c.onTimeout]),
    [
      ['PreToolUse', 'Bash', '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh', 10, 'continue'],
      ['PreToolUse', 'Edit|Write', 'npx prettier --check', DEFAULT_HOOK_TIMEOUT_SEC, 'continue'],
      ['UserPromptSubmit', undefined, 'echo context', 30, 'continue'],
      ['Stop', undefined, 'npm test', 30, 'continue'],
    ],
  );
  // The events we do not run are said, not dropped silently.
  assert.match(f.problems.map((p) => p.message).join('\n'), /"Notification" hooks are not run/);
});

void test('VS Code flat commands: the platform override wins, cwd and env are kept, timeoutSec is read', () => {
  const text = JSON.stringify({
    hooks: {
      PostToolUse: [
        {
          type: 'command',
          command: './scripts/format.sh',
          windows: 'powershell -File scripts\\format.ps1',
          linux: './scripts/format-linux.sh',
          osx: './scripts/format-mac.sh',
          cwd: 'tools',
          env: { AUDIT_LOG: '.github/hooks/audit.log', BAD: 3 },
          timeoutSec: 5,
        },
      ],
      SessionStart: [{ type: 'command', command: './scripts/inject-context.sh' }],
      PreCompact: [{ type: 'command', command: 'save-state' }],
    },
  });
  const linux = parseHookFile(text, 'vscode', 'linux');
  assert.equal(linux.commands[0]?.command, './scripts/format-linux.sh');
  assert.equal(linux.commands[0]?.cwd, 'tools');
  assert.deepEqual(linux.commands[0]?.env, { AUDIT_LOG: '.github/hooks/audit.log' });
  assert.equal(linux.commands[0]?.timeoutSec, 5);
  assert.match(linux.problems[0]?.message ?? '', /env\.BAD is not text/);
  assert.equal(parseHookFile(text, 'vscode', 'win32').commands[0]?.command, 'powershell -File scripts\\format.ps1');
  assert.equal(parseHookFile(text, 'vscode', 'darwin').commands[0]?.command, './scripts/format-mac.sh');
  assert.deepEqual(
    linux.commands.map((c) => c.event),
    ['PostToolUse', 'SessionStart', 'PreCompact'],
  );
});

void test('Copilot CLI: lowerCamelCase events and bash/powershell commands', () => {
  const text = JSON.stringify({
    version: 1,
    hooks: {
      preToolUse: [{ type: 'command', bash: './check.sh', powershell: './check.ps1', timeoutSec: 15 }],
      userPromptSubmitted: [{ type: 'command', bash: './log.sh' }],
      sessionEnd: [{ type: 'command', bash: './bye.sh' }],
      errorOccurred: [{ type: 'command', bash: './err.sh' }],
    },
  });
  const f = parseHookFile(text, 'vscode', 'linux');
  assert.deepEqual(
    f.commands.map((c) => [c.event, c.command, c.timeoutSec]),
    [
      ['PreToolUse', './check.sh', 15],
      ['UserPromptSubmit', './log.sh', 30],
    ],
  );
  assert.equal(parseHookFile(text, 'vscode', 'win32').commands[0]?.command, './check.ps1');
  assert.equal(f.problems.length, 2);
});

void test('disableAllHooks, onTimeout, other hook types and bad timeouts', () => {
  const f = parseHookFile(
    JSON.stringify({
      disableAllHooks: true,
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'http', url: 'https://x' },
              { type: 'command', command: 'x', onTimeout: 'block', timeout: 36000 },
            ],
          },
          { type: 'command', command: 'y', timeout: -1, onTimeout: 'later' },
        ],
      },
    }),
    'claude',
  );
  assert.equal(f.disabled, true);
  assert.equal(f.commands[0]?.onTimeout, 'block');
  assert.equal(f.commands[0]?.timeoutSec, 600);
  assert.equal(f.commands[1]?.timeoutSec, 30);
  assert.equal(f.commands[1]?.onTimeout, 'continue');
  const messages = f.problems.map((p) => p.message).join('\n');
  assert.match(messages, /only "command" hooks are run \(this one is "http"\)/);
  assert.match(messages, /timeout is not a positive number/);
  assert.match(messages, /onTimeout is neither/);
});

void test('a parse error says its line; a file that is not an object is invalid', () => {
  const f = parseHookFile('{\n  "hooks": {\n    "PreToolUse": [,]\n  }\n}', 'claude');
  assert.equal(f.invalid, true);
  assert.equal(f.problems[0]?.line, 3);
  assert.match(f.problems[0]?.message ?? '', /Not valid JSON/);
  assert.equal(parseHookFile('[]', 'vscode').invalid, true);
  assert.equal(parseHookFile('{"hooks": 1}', 'vscode').invalid, true);
  // A settings file without hooks is fine: nothing to run.
  const none = parseHookFile('\uFEFF{"model": "x"}', 'claude');
  assert.equal(none.invalid, false);
  assert.equal(none.commands.length, 0);
  assert.equal(jsonErrorLine('a\nb', new Error('Unexpected token in JSON at position 2')), 2);
});
