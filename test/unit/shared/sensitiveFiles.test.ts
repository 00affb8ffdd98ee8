import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isSecretPath, PATTERNS_FOR_PEOPLE, writeKind } from '../../../src/shared/sensitiveFiles';

// The one list every tool, mention, completion and diff path asks (issue 35, items 8 and 9).

void test('isSecretPath: env files, Terraform state, kubeconfig, keys and credentials, at any depth', () => {
  const yes = [
    '.env',
    'app/.env',
    'deploy/production.env',
    'Prod.ENV',
    '.env.production',
    '.ENV.local',
    '.envrc',
    'infra/.envrc',
    'terraform.tfstate',
    'infra/terraform.tfstate.backup',
    'x.tfstate.1712345678.backup',
    'kubeconfig',
    'ops/kubeconfig.yaml',
    'cluster.kubeconfig',
    '.kube/config',
    'home/.kube/cache/token',
    '.git-credentials',
    'id_rsa',
    'keys/id_ed25519',
    'store.p12',
    'CERT.PFX',
    'certs/server.pem',
    'tls.KEY',
    '.npmrc',
    'credentials.json',
    '.aws/config',
    '.ssh/known_hosts',
  ];
  const no = [
    'src/env.ts',
    'environment.md',
    'id_rsa.pub',
    'src/keys.ts',
    'README.md',
    'tfstate.md',
    'docs/kubeconfig-guide.md',
    'my.credentials.md',
    'src/.envrc.md',
  ];
  for (const p of yes) assert.equal(isSecretPath(p), true, p);
  for (const p of no) assert.equal(isSecretPath(p), false, p);
});

void test('isSecretPath: Windows aliases of a secret are the secret (trailing dot or space, stream, short name, backslashes)', () => {
  for (const p of [
    '.env.',
    '.env ',
    '.env::$DATA',
    'app\\.ENV',
    'config\\.env. ',
    'ENV~1',
    'sub/SECRET~2.TXT',
    'id_rsa.',
  ])
    assert.equal(isSecretPath(p), true, p);
  for (const p of ['src/main.ts.', 'notes.txt:stream']) assert.equal(isSecretPath(p), false, p);
});

void test('writeKind: files that steer agents, hooks and CI ask, by segment and case-insensitively', () => {
  const cases: [string, ReturnType<typeof writeKind>][] = [
    ['.claude/settings.json', 'steersAgents'],
    ['.claude/agents/reviewer.md', 'steersAgents'],
    ['.Claude/Commands/deploy.md', 'steersAgents'],
    ['.claude/skills/x/SKILL.md', 'steersAgents'],
    ['.cursor/rules/a.mdc', 'steersAgents'],
    ['.cursor/mcp.json', 'steersAgents'],
    ['.mcp.json', 'steersAgents'],
    ['pkg/.MCP.json', 'steersAgents'],
    ['.vscode/mcp.json', 'steersAgents'],
    ['.github/hooks/pre.json', 'steersAgents'],
    ['.github/agents/a.md', 'steersAgents'],
    ['.github/prompts/p.prompt.md', 'steersAgents'],
    ['.github/instructions/x.instructions.md', 'rules'],
    ['.github/skills/s/SKILL.md', 'steersAgents'],
    ['CLAUDE.md', 'rules'],
    ['packages/api/claude.md', 'rules'],
    ['.agents/x.md', 'steersAgents'],
    ['.gatewaystudio/settings.json', 'steersAgents'],
    ['.gatewaystudio/rules/style.md', 'rules'],
    ['CLAUDE.local.md', 'rules'],
    ['.claude/CLAUDE.md', 'rules'],
    ['.claude/rules/testing.md', 'rules'],
    ['.github/instructions/frontend/react.instructions.md', 'rules'],
    ['AGENTS.md', 'rules'],
    ['.github/copilot-instructions.md', 'rules'],
    ['.pre-commit-config.yaml', 'runsCode'],
    ['lefthook.yml', 'runsCode'],
    ['.husky/pre-commit', 'runsCode'],
    ['.gitlab-ci.yml', 'runsCode'],
    ['.circleci/config.yml', 'runsCode'],
    ['Jenkinsfile', 'runsCode'],
    ['azure-pipelines.yml', 'runsCode'],
    ['.buildkite/pipeline.yml', 'runsCode'],
    ['.github/workflows/ci.yml', 'runsCode'],
    ['.envrc', 'runsCode'],
    ['team.code-workspace', 'workspaceConfig'],
    ['.env', 'secrets'],
    ['CLAUDE.md.', 'rules'],
    ['.mcp.json::$DATA', 'steersAgents'],
    ['.claude \\settings.json', 'steersAgents'],
    ['src/index.ts', undefined],
    ['docs/claude.md.txt', undefined],
    ['.github/ISSUE_TEMPLATE/bug.md', undefined],
    ['src/.cursor.ts', undefined],
  ];
  for (const [p, want] of cases) assert.equal(writeKind(p), want, p);
});

void test('the list for people names every pattern the brief asks for', () => {
  const text = [...PATTERNS_FOR_PEOPLE.secrets, ...PATTERNS_FOR_PEOPLE.writesAsk].join('\n');
  for (const p of ['*.env', '.envrc', '*.tfstate', 'kubeconfig', '.git-credentials', 'id_*', '*.p12', '*.pfx'])
    assert.ok(text.includes(p), p);
  for (const p of [
    '.claude/**',
    '.cursor/**',
    '.mcp.json',
    '.vscode/mcp.json',
    'CLAUDE.md',
    '.agents/**',
    'Jenkinsfile',
  ])
    assert.ok(text.includes(p), p);
});
